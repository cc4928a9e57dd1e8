import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { createPlatformStore } from '@dealer/state/store';

/**
 * A remote's standalone dev page: loads a demo site's public config through the dev server's
 * proxy to a running platform and mounts the remote's screen with the real store and router.
 */
export async function mountStandalone(render: (site: PublicSiteConfig) => ReactNode) {
  const container = document.getElementById('root') ?? document.body.appendChild(document.createElement('div'));
  const response = await fetch('/api/site', { headers: { Accept: 'application/json' } });
  if (!response.ok) {
    container.textContent = `Start the platform (npm start) first: /api/site answered ${response.status}.`;
    return;
  }
  const site = (await response.json()) as PublicSiteConfig;
  const store = createPlatformStore(site);
  createRoot(container).render(
    <StrictMode>
      <Provider store={store}>
        <BrowserRouter>{render(site)}</BrowserRouter>
      </Provider>
    </StrictMode>,
  );
}
