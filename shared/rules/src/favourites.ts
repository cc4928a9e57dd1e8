/** SPEC §3: a site's favourites are kept in the shopper's browser, under this key per site. */
export const favouritesStorageKey = (siteSlug: string) => `dealer:${siteSlug}:favourites`;
