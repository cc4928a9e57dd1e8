import { createApi, fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
import { platformFetch } from '@dealer/state/platform-fetch';
import { hydratePlatformApi, injectPlatformApi } from '@dealer/state/root-reducer';

export { hydratePlatformApi };

/** What the store hands to every query (the thunk's extra argument). */
export type PlatformExtra = {
  /** The site's `/api` as an absolute address: the server renders with no page to be relative to. */
  apiBase?: string;
};

const baseQueries = new Map<string, ReturnType<typeof fetchBaseQuery>>();

/** `/api` in the browser; the site's absolute `/api` while the server renders. */
const platformBaseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = (args, api, extraOptions) => {
  const baseUrl = (api.extra as PlatformExtra | undefined)?.apiBase ?? '/api';
  let query = baseQueries.get(baseUrl);
  if (!query) {
    // Bounded: one per site origin this process has rendered for recently.
    if (baseQueries.size >= 64) baseQueries.clear();
    query = fetchBaseQuery({ baseUrl, fetchFn: platformFetch, headers: { Accept: 'application/json' } });
    baseQueries.set(baseUrl, query);
  }
  return query(args, api, extraOptions);
};

/**
 * The one API slice for the platform's own `/api`. Remotes add their endpoints with
 * `platformApi.injectEndpoints` when they load; loading this module puts its reducer and
 * middleware into the store (the shell's pages without a remote never load it).
 */
export const platformApi = createApi({
  reducerPath: 'platformApi',
  baseQuery: platformBaseQuery,
  tagTypes: ['Car', 'Lead', 'Garage'],
  endpoints: () => ({}),
  extractRehydrationInfo(action, { reducerPath }) {
    if (hydratePlatformApi.match(action) && action.payload && typeof action.payload === 'object') {
      return (action.payload as Record<string, never>)[reducerPath];
    }
    return undefined;
  },
});

injectPlatformApi(platformApi);

declare module '@dealer/state/root-reducer' {
  interface LazyLoadedSlices {
    platformApi: ReturnType<typeof platformApi.reducer>;
  }
}
