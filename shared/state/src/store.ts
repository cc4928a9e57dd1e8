// Sibling modules are imported by package name, not by relative path, so Module Federation
// shares each one: a remote that imports @dealer/state/platform-api gets the shell's instance.
import { configureStore } from '@reduxjs/toolkit';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { platformApi, type PlatformExtra } from '@dealer/state/platform-api';
import { rootReducer } from '@dealer/state/root-reducer';

/**
 * The one store: created by the shell (or a remote's standalone page) with the site config.
 * `extra.apiBase`: the site's absolute `/api` when the server renders a page.
 */
export function createPlatformStore(site: PublicSiteConfig, extra: PlatformExtra = {}) {
  return configureStore({
    reducer: rootReducer,
    preloadedState: { site: { config: site } },
    middleware: (getDefault) => getDefault({ thunk: { extraArgument: extra } }).concat(platformApi.middleware),
  });
}
export type PlatformStore = ReturnType<typeof createPlatformStore>;
