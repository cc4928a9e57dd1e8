/**
 * When a garage e-mails its shopper, as plain rules over one car:
 * - `price_drop`: a saved car, for sale on the site, now has a shown price below the price
 *   it had when the shopper saved it;
 * - `new_match`: a car for sale on the site that arrived after a search was saved (its listing
 *   date, `created_at_timestamp`, the one the "just arrived" tag reads, is not older than the
 *   search) and that the search finds.
 *
 * A saved search keeps the Meilisearch filter the browser searched with (the expression or the
 * array form) and its words. It is matched here, in memory, by the embedded engine's own filter
 * parser and evaluator over the car's search document, ANDed with the site's own search rules:
 * the same grammar and the same answer as the search the shopper saw, on either engine (a real
 * Meilisearch too), without a search per saved search per car. The words are matched more
 * simply than Meilisearch does (no typos): each must begin a word of the car's searchable text.
 * A search saved without a filter is a bookmark and alerts on nothing.
 */
import type { Car } from '@dealer/contracts/car';
import type { Location } from '@dealer/contracts/location';
import { isPriceShown } from '@dealer/rules/price';
import { FilterSyntaxError, filterAttributes, geoConditions, parseFilter, type FilterNode } from '@dealer/search-engine/filter-parser';
import { isFilterableBy, matchesFilter } from '@dealer/search-engine/filter-evaluator';
import { carSearchDocument, carsIndexSettings } from '../search/site-search';

export type SavedSearchFilter = string | (string | string[])[];

/** A saved search's filter as Meilisearch reads it, or why it cannot be one (the message Meilisearch would give). */
export function parseSavedSearchFilter(filter: SavedSearchFilter): { ok: true; node: FilterNode } | { ok: false; message: string } {
  let node: FilterNode;
  try {
    node = parseFilter(filter);
  } catch (error) {
    if (error instanceof FilterSyntaxError) return { ok: false, message: error.message };
    throw error;
  }
  const unknown = [...filterAttributes(node)].filter((attribute) => !isFilterableBy(attribute, carsIndexSettings.filterableAttributes));
  if (unknown.length > 0) return { ok: false, message: `Attribute \`${unknown[0]}\` is not filterable.` };
  const badGeo = geoConditions(node).find((geo) => geo.invalid);
  if (badGeo?.invalid) return { ok: false, message: badGeo.invalid };
  return { ok: true, node };
}

const wordsOf = (text: string) =>
  text
    .toLocaleLowerCase('en')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** The words of a saved search's `q`, as matched against cars. */
export const queryWords = (q: string | null | undefined) => (q ? wordsOf(q) : []);

const searchableText = (car: Car) =>
  wordsOf(
    [
      car.name,
      car.make,
      car.model,
      car.badge,
      car.series,
      car.stocknum,
      car.vin,
      car.colour,
      car.simple_body,
      car.simple_fuel,
      car.location_name,
      ...car.categories,
    ]
      .filter(Boolean)
      .join(' '),
  );

/** Every word of the query begins a word of the car's searchable attributes. */
export function matchesWords(car: Car, words: readonly string[]): boolean {
  if (words.length === 0) return true;
  const text = searchableText(car);
  return words.every((word) => text.some((candidate) => candidate.startsWith(word)));
}

/**
 * For sale now: in stock or coming soon, shown, not sold nor reserved by another shopper. A
 * reserved car given back is written again, so its alerts come then.
 */
export const isForSale = (car: Car) =>
  (car.status === 'in_stock' || car.status === 'coming_soon') && !car.sold && !car.reserved && car.show_on_dealer_website;

export type SearchWatcher = {
  shopperId: number;
  searchId: number;
  name: string;
  createdAt: number;
  filter: FilterNode;
  words: readonly string[];
};
export type CarWatchers = {
  /** The shoppers who saved the car, each with its price when they saved it. */
  savers: readonly { shopperId: number; savedPrice: number }[];
  /** The alerting saved searches of the car's site. */
  searches: readonly SearchWatcher[];
};
/** The site a car is judged on: its search rules (site-search.ts siteBaseFilter) and its locations (for `_geo`). */
export type SiteRules = { id: number; filter: FilterNode; locations: readonly Location[] };

export type GarageAlert =
  | { kind: 'price_drop'; shopperId: number; carId: number; savedPrice: number; price: number }
  | { kind: 'new_match'; shopperId: number; carId: number; searchId: number; searchName: string };

/** The alerts one car gives its watchers now; at most one of each kind per shopper. */
export function alertsForCar(site: SiteRules, car: Car, watchers: CarWatchers): GarageAlert[] {
  if (!isForSale(car)) return [];
  const doc = carSearchDocument(car, site.id, site.locations);
  if (!matchesFilter(site.filter, doc)) return [];
  const alerts: GarageAlert[] = [];
  const dropped = new Set<number>();
  for (const saver of watchers.savers) {
    if (dropped.has(saver.shopperId) || !isPriceShown(car.price) || !(car.price < saver.savedPrice)) continue;
    dropped.add(saver.shopperId);
    alerts.push({ kind: 'price_drop', shopperId: saver.shopperId, carId: car.id, savedPrice: saver.savedPrice, price: car.price });
  }
  const matched = new Set<number>();
  for (const search of watchers.searches) {
    if (matched.has(search.shopperId) || car.created_at_timestamp < Math.floor(search.createdAt / 1000)) continue;
    if (!matchesFilter(search.filter, doc) || !matchesWords(car, search.words)) continue;
    matched.add(search.shopperId);
    alerts.push({ kind: 'new_match', shopperId: search.shopperId, carId: car.id, searchId: search.searchId, searchName: search.name });
  }
  return alerts;
}
