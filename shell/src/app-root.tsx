import { StrictMode, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import type { PlatformStore } from '@dealer/state/store';
import { App } from './app';
import { AppErrorBoundary } from './app-error-boundary';
import { noneServerRendered, ServerRenderedContext, type ServerRendered } from './federation/server-rendered';

type AppRootProps = {
  site: PublicSiteConfig;
  store: PlatformStore;
  router: (app: ReactNode) => ReactNode;
  /** The remote modules the server rendered into this page (none when it did not). */
  serverRendered?: ServerRendered;
};

/**
 * The whole app around a router: the same tree on the server (StaticRouter) and in the browser
 * (BrowserRouter), so the browser hydrates the server's markup instead of replacing it.
 */
export function AppRoot({ site, store, router, serverRendered = noneServerRendered }: AppRootProps) {
  return (
    <StrictMode>
      <AppErrorBoundary site={site}>
        <Provider store={store}>
          <ServerRenderedContext.Provider value={serverRendered}>{router(<App />)}</ServerRenderedContext.Provider>
        </Provider>
      </AppErrorBoundary>
    </StrictMode>
  );
}
