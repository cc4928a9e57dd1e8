import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { createPlatformStore } from '@dealer/state/store';
import { startRemoteRuntime } from './federation/remote-runtime';
import { App } from './app';
import '@dealer/ui/styles.css';
import './shell.css';

// The server validated this config before inlining it in the document.
const site = JSON.parse(document.getElementById('site-config')?.textContent ?? 'null') as PublicSiteConfig;
startRemoteRuntime(site);
const store = createPlatformStore(site);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider store={store}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </Provider>
  </StrictMode>,
);
