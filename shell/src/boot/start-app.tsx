import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import type { ExposedModule } from '@dealer/contracts/remote-modules';
import { createPlatformStore, type PlatformStore } from '@dealer/state/store';
import { hydratePlatformApi, whenPlatformApiInjected } from '@dealer/state/root-reducer';
import { resolveRoute } from '@dealer/rules/routes';
import { routeOwner } from '@dealer/rules/route-modules';
import { isModuleEnabled, startRemoteRuntime, warmFederationHost } from '../federation/remote-runtime';
import { loadServerRenderedModules, noneServerRendered, type ServerRendered } from '../federation/server-rendered';
import { AdoptMarkupContext, serverMarkup } from '@dealer/ui/kept-markup';
import { AppRoot } from '../app-root';

/** The remote modules the server rendered and the API answers they were rendered with (shell/src/render-app.server.tsx). */
function hydrateServerState(container: HTMLElement, store: PlatformStore): ServerRendered {
  const text = container.hasAttribute('data-ssr') ? document.getElementById('app-state')?.textContent : null;
  if (!text) return noneServerRendered;
  const state = JSON.parse(text) as { modules?: ExposedModule[]; api?: unknown };
  // The platform API loads with the first remote: its server state goes in the moment it does, before the remote renders.
  if (state.api) whenPlatformApiInjected(() => store.dispatch(hydratePlatformApi(state.api)));
  return { modules: new Set(state.modules ?? []) };
}

/** Starts the app on the site's config (site-config-source.ts): hydrates the server's page, or renders it. */
export function startApp(site: PublicSiteConfig) {
  startRemoteRuntime(site);
  // A page whose route a remote owns fetches the federation runtime now, beside React, not after the first render asks for it.
  const owner = routeOwner(resolveRoute(site, location.pathname, new URLSearchParams(location.search)));
  if (owner && isModuleEnabled(owner.module)) warmFederationHost();
  const store = createPlatformStore(site);
  const container = document.getElementById('root')!;
  const serverRendered = hydrateServerState(container, store);
  // Every module the server rendered is needed to hydrate the page: their code is asked for now, together.
  loadServerRenderedModules([...serverRendered.modules].filter(isModuleEnabled));
  const root = (
    <AppRoot site={site} store={store} serverRendered={serverRendered} router={(children) => <BrowserRouter>{children}</BrowserRouter>} />
  );
  // The server's page: its markup-only parts (the header, the footer, most content blocks) are kept
  // as they are while it hydrates, and React hydrates nothing inside them (@dealer/ui/kept-markup `markupOnly`).
  const app = container.hasAttribute('data-ssr') ? (
    <AdoptMarkupContext.Provider value={serverMarkup(container)}>{root}</AdoptMarkupContext.Provider>
  ) : (
    root
  );

  // A transition: the first render is done in slices, so it does not block input in one long task.
  // A server-rendered page (data-ssr) is hydrated: React adopts the markup the shopper already sees.
  // Otherwise (the server render was skipped or failed) React renders it; on a car page the first
  // frame (first-paint.ts) stays on screen meanwhile and React's first commit replaces it
  // with the same markup.
  startTransition(() => {
    if (container.hasAttribute('data-ssr')) hydrateRoot(container, app);
    else createRoot(container).render(app);
  });
}
