// The remote's server build (remoteConfig `server`): what it renders in a page's first response.
import type { ServerRemote } from '@dealer/state/server-render';
import VehicleDetailPage from './vehicle-detail-page';
import { prefetchVehiclePage } from './vehicle-api';

export const modules: ServerRemote = {
  'mf-vehicle/VehicleDetailPage': { Component: VehicleDetailPage, prefetch: prefetchVehiclePage },
};
