import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Car } from '@dealer/contracts/car';
import type { Location } from '@dealer/contracts/location';
import type { SiteConfig } from '@dealer/contracts/site';
import { priceBand } from '@dealer/rules/price-bands';
import { parseFilterExpression, type FilterNode } from '@dealer/search-engine/filter-parser';
import type { IndexSettings } from '@dealer/search-engine/index-settings';
import type { Doc } from '@dealer/search-engine/search-types';
import { stockFilterFor } from './stock-filters';
import { matchesFilter } from '@dealer/search-engine/filter-evaluator';

export const carsIndexUid = 'cars';

/**
 * What the platform indexes about a car: the car plus the facet names of SPEC §3, and (given the
 * site's locations) its location's point as Meilisearch's `_geo`, for "cars near me".
 */
export function carSearchDocument(car: Car, siteId: number, locations: readonly Location[] = []): Doc {
  const address = locations.find((location) => location.id === car.location_id)?.address;
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
    price_range: priceBand('price_range', car.price),
    weekly_price_range: priceBand('weekly_price_range', car.subscription_price),
    ...(address ? { _geo: { lat: address.lat, lng: address.long } } : {}),
  };
}

export const carsIndexSettings: IndexSettings = {
  filterableAttributes: [
    'site_id',
    'id',
    'slug',
    'status',
    'badge',
    'car_type',
    'categories',
    'city',
    'colour',
    'dealership_name',
    'dealership_id',
    'filtered_features',
    'item_type',
    'km',
    'location_name',
    'location_id',
    'make',
    'make_model',
    'model',
    'price',
    'subscription_price',
    'seats',
    'body',
    'drive',
    'fuel',
    'transmission',
    'state',
    'tag',
    'year',
    'certified',
    'created_at_timestamp',
    'sold_date_timestamp',
    'show_on_dealer_website',
    'stocknum',
    'photos_count',
    'simple_body',
    'simple_drive',
    'reserved',
    'sold',
    'price_range',
    'weekly_price_range',
    '_geo',
  ],
  sortableAttributes: ['custom_rank', 'created_at_timestamp', 'price', 'km', 'year', 'subscription_price', '_geo'],
  searchableAttributes: [
    'name',
    'make',
    'model',
    'badge',
    'series',
    'stocknum',
    'vin',
    'colour',
    'simple_body',
    'simple_fuel',
    'location_name',
    'categories',
  ],
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

/** A value quoted for a filter expression, so a make such as "Mercedes-Benz" or "Land Rover" reads as one value. */
export const filterValue = (value: string | number | boolean): string =>
  typeof value === 'string' ? `"${value.replace(/["\\]/g, (ch) => `\\${ch}`)}"` : String(value);

/** The site fields its search rules are made of. */
export type SiteSearchScope = Pick<
  SiteConfig,
  'id' | 'include_sold_cars_days' | 'search_filters' | 'dealerships' | 'manufacturer' | 'stock_filter_code'
>;

/** A site's search rules: the expression (for a Meilisearch tenant token) and its parsed form (for the embedded engine). */
export type SiteBaseFilter = { filter: string; node: FilterNode };

/**
 * The filter every search of a site runs under, whatever the browser asks (SPEC §9), all ANDed:
 * - listed: in stock or coming soon, or sold within the site's `include_sold_cars_days`;
 * - shown on the dealer website;
 * - the site's own stock: its `site_id` and one of its dealerships;
 * - the site's stock filter (`stock_filter_code`, stock-filters.ts);
 * - the site's own `search_filters`;
 * - the manufacturer filter, on a manufacturer's site (`make = "Toyota"`).
 */
export function siteBaseFilter(site: SiteSearchScope, nowSeconds: number): SiteBaseFilter {
  const soldSince = nowSeconds - site.include_sold_cars_days * 86_400;
  const rules = [
    // Same rule as isListedInSearch: the sold flag and the sold status each mean the car is gone.
    `((status IN [in_stock, coming_soon] AND sold = false) OR ((status = sold OR sold = true) AND sold_date_timestamp >= ${soldSince}))`,
    'show_on_dealer_website = true',
    `site_id = ${site.id}`,
    `dealership_id IN [${site.dealerships.map((dealership) => dealership.id).join(', ')}]`,
  ];
  const stockFilter = stockFilterFor(site.stock_filter_code).filter;
  if (stockFilter) rules.push(stockFilter);
  rules.push(...site.search_filters.filter((filter) => filter.trim() !== ''));
  if (site.manufacturer) rules.push(`make = ${filterValue(site.manufacturer)}`);
  // Each rule in brackets: an OR inside one must not leak out of it.
  const filter = rules.map((rule) => `(${rule})`).join(' AND ');
  // The platform's own rules: not held to the size limits of a caller's filter.
  return { filter, node: parseFilterExpression(filter) };
}

/**
 * Whether a car is on this site for a shopper: the same rule as the site's search, so a car
 * page never opens for a car its search would not list (another dealer's, a filtered make, sold long ago).
 */
export function isCarOnSite(site: SiteSearchScope, car: Car, nowSeconds: number): boolean {
  return matchesFilter(siteBaseFilter(site, nowSeconds).node, carSearchDocument(car, site.id));
}
