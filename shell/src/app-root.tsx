import { StrictMode, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import type { PlatformStore } from '@dealer/state/store';
import { App } from './app';
import { AppErrorBoundary } from './app-error-boundary';
import { noneServerRendered, ServerRenderedContext, type ServerRendered } from './federation/server-rendered';
import { ContentComponentsContext, type ContentComponents } from './content/content-components';
import { documentRouteData, RouteDataContext, type RouteData } from './content/route-data';

type AppRootProps = {
  site: PublicSiteConfig;
  store: PlatformStore;
  router: (app: ReactNode) => ReactNode;
  /** The remote modules the server rendered into this page (none when it did not). */
  serverRendered?: ServerRendered;
  /** The dealer's pages known so far; in the browser by default the document's (read once). */
  routeData?: RouteData;
  /** The content components themselves, on the server (the browser loads them as their own chunk). */
  contentComponents?: ContentComponents;
};

/**
 * The whole app around a router: the same tree on the server (StaticRouter) and in the browser
 * (BrowserRouter), so the browser hydrates the server's markup instead of replacing it.
 */
export function AppRoot({ site, store, router, serverRendered = noneServerRendered, routeData, contentComponents }: AppRootProps) {
  return (
    <StrictMode>
      <AppErrorBoundary site={site}>
        <Provider store={store}>
          <ServerRenderedContext.Provider value={serverRendered}>
            <RouteDataContext.Provider value={routeData ?? documentRouteData()}>
              <ContentComponentsContext.Provider value={contentComponents ?? null}>{router(<App />)}</ContentComponentsContext.Provider>
            </RouteDataContext.Provider>
          </ServerRenderedContext.Provider>
        </Provider>
      </AppErrorBoundary>
    </StrictMode>
  );
}
