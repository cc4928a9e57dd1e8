// The remote's server build (remoteConfig `server`): what it renders in a page's first response.
// Save, on the car page and on every search result: unsaved on the server (favourites live in the
// browser), and the browser shows the shopper's own state once it has hydrated.
import type { ServerRemote } from '@dealer/state/server-render';
import FavouriteButton from './favourite-button';

export const modules: ServerRemote = {
  'mf-garage/FavouriteButton': { Component: FavouriteButton },
};
