import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import type { ExposedModule } from '@dealer/contracts/remote-modules';
import { createPlatformStore } from '@dealer/state/store';
import { hydratePlatformApi } from '@dealer/state/platform-api';
import { startRemoteRuntime } from './federation/remote-runtime';
import { noneServerRendered, type ServerRendered } from './federation/server-rendered';
import { AppRoot } from './app-root';

// The server validated this config before inlining it in the document.
const site = JSON.parse(document.getElementById('site-config')?.textContent ?? 'null') as PublicSiteConfig;
startRemoteRuntime(site);
const store = createPlatformStore(site);
const container = document.getElementById('root')!;
const serverRendered = hydrateServerState();
const app = <AppRoot site={site} store={store} serverRendered={serverRendered} router={(children) => <BrowserRouter>{children}</BrowserRouter>} />;

/** The remote modules the server rendered and the API answers they were rendered with (shell/src/render-app.server.tsx). */
function hydrateServerState(): ServerRendered {
  const text = container.hasAttribute('data-ssr') ? document.getElementById('app-state')?.textContent : null;
  if (!text) return noneServerRendered;
  const state = JSON.parse(text) as { modules?: ExposedModule[]; api?: unknown };
  if (state.api) store.dispatch(hydratePlatformApi(state.api));
  return { modules: new Set(state.modules ?? []) };
}

// A transition: the first render is done in slices, so it does not block input in one long task.
// A server-rendered page (data-ssr) is hydrated: React adopts the markup the shopper already sees.
// Otherwise (the server render was skipped or failed) React renders it; on a car page the first
// frame (federation/first-paint.ts) stays on screen meanwhile and React's first commit replaces it
// with the same markup.
startTransition(() => {
  if (container.hasAttribute('data-ssr')) hydrateRoot(container, app);
  else createRoot(container).render(app);
});
