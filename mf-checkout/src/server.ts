// The remote's server build (remoteConfig `server`): what it renders in a page's first response.
// Reserve, in the vehicle page's `vehicle.actions` slot: decided from the car the page hands it.
import type { ServerRemote } from '@dealer/state/server-render';
import ReserveButton from './reserve-button';

export const modules: ServerRemote = {
  'mf-checkout/ReserveButton': { Component: ReserveButton },
};
