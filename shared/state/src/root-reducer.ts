// Sibling modules are imported by package name, not by relative path, so Module Federation
// shares each one: a remote that imports @dealer/state/platform-api gets the shell's instance.
import { combineSlices, createAction, type Middleware, type Reducer } from '@reduxjs/toolkit';
import { siteSlice } from '@dealer/state/site-slice';

/**
 * The root reducer of the shell's store. Remotes inject their own slices into it when they
 * load (`slice.injectInto(rootReducer)`), so a switched-off remote adds no state; the platform
 * API (@dealer/state/platform-api, with RTK Query) injects itself when a remote first imports it,
 * so a page with no remote never downloads RTK Query.
 */
export interface LazyLoadedSlices {}

export const rootReducer = combineSlices(siteSlice).withLazyLoadedSlices<LazyLoadedSlices>();
export type RootState = ReturnType<typeof rootReducer>;

/**
 * The platform API's state the server rendered a page with (its first data: search results, the
 * car), put into the browser's store before the remote that shows it hydrates (see
 * `whenPlatformApiInjected`), so the first render shows the same thing.
 */
export const hydratePlatformApi = createAction<unknown>('platformApi/hydrateFromServer');

export type InjectableApi = { reducerPath: 'platformApi'; reducer: Reducer; middleware: Middleware };

let injectedApi: InjectableApi | null = null;
const waiting: ((api: InjectableApi) => void)[] = [];

/** Called once by @dealer/state/platform-api as it loads: its reducer joins the root reducer; each store adds its middleware (store.ts). */
export function injectPlatformApi(api: InjectableApi) {
  if (injectedApi) return;
  rootReducer.inject(api as never);
  injectedApi = api;
  for (const run of waiting.splice(0)) run(api);
}

/** Runs `run` once the platform API is in the root reducer (at once if it already is), before any remote code uses it. */
export function whenPlatformApiInjected(run: (api: InjectableApi) => void) {
  if (injectedApi) run(injectedApi);
  else waiting.push(run);
}
