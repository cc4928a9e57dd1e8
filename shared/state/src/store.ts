import { configureStore } from '@reduxjs/toolkit';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { platformApi } from './platform-api';
import { rootReducer } from './root-reducer';

/** The one store: created by the shell (or a remote's standalone page) with the site config. */
export function createPlatformStore(site: PublicSiteConfig) {
  return configureStore({
    reducer: rootReducer,
    preloadedState: { site: { config: site } },
    middleware: (getDefault) => getDefault().concat(platformApi.middleware),
  });
}
export type PlatformStore = ReturnType<typeof createPlatformStore>;
