import { combineSlices } from '@reduxjs/toolkit';
import { platformApi } from './platform-api';
import { siteSlice } from './site-slice';

/**
 * The root reducer of the shell's store. Remotes inject their own slices into it when they
 * load (`slice.injectInto(rootReducer)`), so a switched-off remote adds no state.
 */
export interface LazyLoadedSlices {}

export const rootReducer = combineSlices(siteSlice, platformApi).withLazyLoadedSlices<LazyLoadedSlices>();
export type RootState = ReturnType<typeof rootReducer>;
