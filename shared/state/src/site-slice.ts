import { createSlice } from '@reduxjs/toolkit';
import type { PublicSiteConfig } from '@dealer/contracts/site';

/** The tenant's public config, put in the store once from the document. */
export const siteSlice = createSlice({
  name: 'site',
  initialState: { config: null as PublicSiteConfig | null },
  reducers: {},
  selectors: {
    selectSite: (state) => {
      if (!state.config) throw new Error('The site config was not loaded into the store');
      return state.config;
    },
  },
});

export const { selectSite } = siteSlice.selectors;
