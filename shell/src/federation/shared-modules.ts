// The module instances the shell provides to remotes: one React, router and store per page.
// The browser hands them to the Module Federation runtime when the first remote loads
// (federation/federation-host.ts); the server render answers a remote server build's imports
// with them (render-app.server.tsx, which has the lazy ones loaded from the start). Their sharing rules (singleton, version, strictVersion) are
// @dealer/build's sharedSingletons: a test keeps this list inside that one.
import * as React from 'react';
import * as jsxRuntime from 'react/jsx-runtime';
import * as ReactDOM from 'react-dom';
import * as ReactRouter from 'react-router-dom';
import * as ReduxToolkit from '@reduxjs/toolkit';
import * as ReactRedux from 'react-redux';
import * as stateHooks from '@dealer/state/hooks';
import * as statePlatformFetch from '@dealer/state/platform-fetch';
import * as stateRootReducer from '@dealer/state/root-reducer';
import * as stateSiteSlice from '@dealer/state/site-slice';
import * as stateStore from '@dealer/state/store';
import * as remoteSlot from '@dealer/ui/remote-slot';
import * as keptMarkup from '@dealer/ui/kept-markup';

/** Modules every page of the shell has. */
export const sharedModules: Record<string, unknown> = {
  react: React,
  'react/jsx-runtime': jsxRuntime,
  'react-dom': ReactDOM,
  'react-router': ReactRouter,
  // React Router 7 is one package; -dom re-exports it (the app imports it by that name).
  'react-router-dom': ReactRouter,
  '@reduxjs/toolkit': ReduxToolkit,
  'react-redux': ReactRedux,
  '@dealer/state/hooks': stateHooks,
  '@dealer/state/platform-fetch': statePlatformFetch,
  '@dealer/state/root-reducer': stateRootReducer,
  '@dealer/state/site-slice': stateSiteSlice,
  '@dealer/state/store': stateStore,
  '@dealer/ui/remote-slot': remoteSlot,
  '@dealer/ui/kept-markup': keptMarkup,
};

/**
 * Modules the shell provides but loads only when a remote asks for them: RTK Query and the
 * platform API (which puts itself into the store as it loads). The home page never needs them.
 */
export const lazySharedModules: Record<string, () => Promise<unknown>> = {
  '@reduxjs/toolkit/query': () => import(/* webpackChunkName: "platform-api", webpackPrefetch: true */ '@reduxjs/toolkit/query'),
  '@reduxjs/toolkit/query/react': () =>
    import(/* webpackChunkName: "platform-api", webpackPrefetch: true */ '@reduxjs/toolkit/query/react'),
  '@dealer/state/platform-api': () => import(/* webpackChunkName: "platform-api", webpackPrefetch: true */ '@dealer/state/platform-api'),
};
