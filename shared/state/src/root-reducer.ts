// Sibling modules are imported by package name, not by relative path, so Module Federation
// shares each one: a remote that imports @dealer/state/platform-api gets the shell's instance.
import { combineSlices } from '@reduxjs/toolkit';
import { platformApi } from '@dealer/state/platform-api';
import { siteSlice } from '@dealer/state/site-slice';

/**
 * The root reducer of the shell's store. Remotes inject their own slices into it when they
 * load (`slice.injectInto(rootReducer)`), so a switched-off remote adds no state.
 */
export interface LazyLoadedSlices {}

export const rootReducer = combineSlices(siteSlice, platformApi).withLazyLoadedSlices<LazyLoadedSlices>();
export type RootState = ReturnType<typeof rootReducer>;
