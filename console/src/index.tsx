import { createRoot } from 'react-dom/client';
import '@dealer/ui/styles.css';
import './console.css';
import { ConsoleApp } from './console-app';

createRoot(document.getElementById('root')!).render(<ConsoleApp />);
