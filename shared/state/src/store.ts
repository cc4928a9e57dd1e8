// Sibling modules are imported by package name, not by relative path, so Module Federation
// shares each one: a remote that imports @dealer/state/platform-api gets the shell's instance.
import { configureStore, createDynamicMiddleware } from '@reduxjs/toolkit';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import type { PlatformExtra } from '@dealer/state/platform-api';
import { rootReducer, whenPlatformApiInjected } from '@dealer/state/root-reducer';

/**
 * The one store: created by the shell (or a remote's standalone page) with the site config.
 * `extra.apiBase`: the site's absolute `/api` when the server renders a page.
 */
export function createPlatformStore(site: PublicSiteConfig, extra: PlatformExtra = {}) {
  // The platform API (RTK Query) loads with the first remote that uses it: its middleware joins then.
  const dynamic = createDynamicMiddleware();
  const store = configureStore({
    reducer: rootReducer,
    preloadedState: { site: { config: site } },
    middleware: (getDefault) => getDefault({ thunk: { extraArgument: extra } }).concat(dynamic.middleware),
  });
  // Its state starts at once too (the first action its reducer sees), before a remote reads it.
  whenPlatformApiInjected((api) => {
    dynamic.addMiddleware(api.middleware);
    store.dispatch({ type: 'platformApi/injected' });
  });
  return store;
}
export type PlatformStore = ReturnType<typeof createPlatformStore>;
