import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Car } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';
import { parseFilter, type FilterNode } from './filter-parser';
import type { Doc, IndexSettings } from './search-index';

export const carsIndexUid = 'cars';

/** What the platform indexes about a car: the car plus the facet names of SPEC §3. */
export function carSearchDocument(car: Car, siteId: number): Doc {
  return {
    ...car,
    site_id: siteId,
    body: car.simple_body,
    drive: car.simple_drive,
    fuel: car.simple_fuel,
    transmission: car.simple_transmission,
    make_model: `${car.make}:${car.model}`,
    dealership_name: car.location.name,
    item_type: car.category,
  };
}

export const carsIndexSettings: IndexSettings = {
  filterableAttributes: [
    'site_id', 'id', 'slug', 'status', 'badge', 'car_type', 'categories', 'city', 'colour', 'dealership_name', 'dealership_id',
    'filtered_features', 'item_type', 'km', 'location_name', 'location_id', 'make', 'make_model', 'model', 'price', 'subscription_price',
    'seats', 'body', 'drive', 'fuel', 'transmission', 'state', 'tag', 'year', 'certified', 'created_at_timestamp', 'sold_date_timestamp',
    'show_on_dealer_website', 'stocknum', 'photos_count', 'simple_body', 'simple_drive', 'reserved', 'sold',
  ],
  sortableAttributes: ['custom_rank', 'created_at_timestamp', 'price', 'km', 'year', 'subscription_price'],
  searchableAttributes: ['name', 'make', 'model', 'badge', 'series', 'stocknum', 'vin', 'colour', 'simple_body', 'simple_fuel', 'location_name', 'categories'],
};

const keyPrefix = 'pk_site_';

/** The search key handed to a site's browser. It names the site and is signed, so it cannot be forged for another. */
export function searchKeyForSite(siteId: number, secret: string): string {
  const mac = createHmac('sha256', secret).update(`search:${siteId}`).digest('base64url').slice(0, 32);
  return `${keyPrefix}${siteId}_${mac}`;
}

export function siteIdFromSearchKey(key: string, secret: string): number | null {
  const match = /^pk_site_(\d+)_([\w-]{32})$/.exec(key);
  if (!match) return null;
  const siteId = Number(match[1]);
  const expected = Buffer.from(searchKeyForSite(siteId, secret));
  const given = Buffer.from(key);
  return expected.length === given.length && timingSafeEqual(expected, given) ? siteId : null;
}

/**
 * The filter every search of a site runs under, whatever the browser asks (SPEC §9): listed
 * statuses or recently sold, shown on the dealer website, the site's own stock and search filters.
 */
export function siteBaseFilter(site: Pick<SiteConfig, 'id' | 'include_sold_cars_days' | 'search_filters'>, nowSeconds: number): FilterNode {
  const soldSince = nowSeconds - site.include_sold_cars_days * 86_400;
  const listed = parseFilter(
    // Same rule as isListedInSearch: the sold flag and the sold status each mean the car is gone.
    `site_id = ${site.id} AND show_on_dealer_website = true AND ((status IN [in_stock, coming_soon] AND sold = false) OR ((status = sold OR sold = true) AND sold_date_timestamp >= ${soldSince}))`,
  );
  return site.search_filters.length ? { type: 'and', children: [listed, parseFilter(site.search_filters)] } : listed;
}
