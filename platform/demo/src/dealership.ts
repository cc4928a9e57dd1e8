import type { SiteConfig } from '@dealer/contracts/site';

/** A dealership of a site's config, as the location generator makes it and the site and stock generators read it. */
export type Dealership = SiteConfig['dealerships'][number];
