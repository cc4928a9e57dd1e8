import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { createPlatformStore } from '@dealer/state/store';
import { startRemoteRuntime } from './federation/remote-runtime';
import { App } from './app';
import { AppErrorBoundary } from './app-error-boundary';

// The server validated this config before inlining it in the document.
const site = JSON.parse(document.getElementById('site-config')?.textContent ?? 'null') as PublicSiteConfig;
startRemoteRuntime(site);
const store = createPlatformStore(site);

// A transition: the first render is done in slices, so it does not block input in one long
// task. On a car page the first frame (federation/first-paint.ts) stays on screen meanwhile and
// React's first commit replaces it with the same markup.
startTransition(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppErrorBoundary site={site}>
        <Provider store={store}>
          <BrowserRouter>
            <App />
          </BrowserRouter>
        </Provider>
      </AppErrorBoundary>
    </StrictMode>,
  );
});
