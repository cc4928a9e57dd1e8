import { StrictMode, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import type { PlatformStore } from '@dealer/state/store';
import { App } from './app';
import { AppErrorBoundary } from './app-error-boundary';

/**
 * The whole app around a router: the same tree on the server (StaticRouter) and in the browser
 * (BrowserRouter), so the browser hydrates the server's markup instead of replacing it.
 */
export function AppRoot({ site, store, router }: { site: PublicSiteConfig; store: PlatformStore; router: (app: ReactNode) => ReactNode }) {
  return (
    <StrictMode>
      <AppErrorBoundary site={site}>
        <Provider store={store}>{router(<App />)}</Provider>
      </AppErrorBoundary>
    </StrictMode>
  );
}
