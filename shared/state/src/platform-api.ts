import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';

/**
 * The one API slice for the platform's own `/api`. Remotes add their endpoints with
 * `platformApi.injectEndpoints` when they load; the shell's store already holds its reducer.
 */
export const platformApi = createApi({
  reducerPath: 'platformApi',
  baseQuery: fetchBaseQuery({ baseUrl: '/api', headers: { Accept: 'application/json' } }),
  tagTypes: ['Car', 'Lead', 'Garage'],
  endpoints: () => ({}),
});
