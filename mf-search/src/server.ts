// The remote's server build (remoteConfig `server`): what it renders in a page's first response.
import type { ServerRemote } from '@dealer/state/server-render';
import SearchPage from './search-page';
import { prefetchSearchPage } from './search-api';

export const modules: ServerRemote = {
  'mf-search/SearchPage': { Component: SearchPage, prefetch: prefetchSearchPage },
};
