import { createAction } from '@reduxjs/toolkit';
import { createApi, fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
import { platformFetch } from '@dealer/state/platform-fetch';

/** What the store hands to every query (the thunk's extra argument). */
export type PlatformExtra = {
  /** The site's `/api` as an absolute address: the server renders with no page to be relative to. */
  apiBase?: string;
};

/**
 * The platform API's state the server rendered a page with (its first data: search results, the
 * car), put into the browser's store before hydration so the first render shows the same thing.
 */
export const hydratePlatformApi = createAction<unknown>('platformApi/hydrateFromServer');

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
 * `platformApi.injectEndpoints` when they load; the shell's store already holds its reducer.
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
