// Bundled on its own as the document's first script (hostConfig `firstPaint`): it runs before
// the shell's entry, its federation runtime and the app have even arrived.
import { paintFirstFrame } from './first-paint';
import { startAppAfterFirstPaint } from './app-start';
import { keepInteractionsBeforeHydration } from './before-hydration';

paintFirstFrame();
const root = document.getElementById('root');
if (root?.hasAttribute('data-ssr')) keepInteractionsBeforeHydration(root);
startAppAfterFirstPaint();
