// The remote's server build (remoteConfig `server`): what it renders in a page's first response.
// The vehicle page's calls to action, so the car page's first response holds its buttons.
import type { ServerRemote } from '@dealer/state/server-render';
import EnquireButton from './enquire-button';
import RequestPhotosButton from './request-photos-button';
import TestDriveButton from './test-drive-button';

export const modules: ServerRemote = {
  'mf-leads/EnquireButton': { Component: EnquireButton },
  'mf-leads/TestDriveButton': { Component: TestDriveButton },
  'mf-leads/RequestPhotosButton': { Component: RequestPhotosButton },
};
