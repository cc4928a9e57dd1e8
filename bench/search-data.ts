/**
 * Search documents for the search bench, deterministic for a given `now`:
 * - the demo sites' stock (metro-motor-group is site 1, 1147 listed cars), as the platform indexes it;
 * - a platform of N cars over S sites, cloned from the demo stock with fresh ids, stock numbers,
 *   VINs, prices, km, statuses and dealership names, so facet values are as varied as real stock.
 */
import { generateDemoData } from '@dealer/demo/demo-data';
import { createRng } from '@dealer/demo/prng';
import { carSearchDocument } from '@dealer/server/search/site-search';
import type { Doc } from '@dealer/search-engine/search-types';

// The contracts package is not a dependency of the bench: take its types from the generator.
type DemoData = ReturnType<typeof generateDemoData>;
type Car = DemoData['cars'][number];
type SiteConfig = DemoData['sites'][number];

export type BenchSite = Pick<SiteConfig, 'id' | 'include_sold_cars_days' | 'search_filters'> & { dealerships: { id: number }[] };
export type BenchData = { docs: Doc[]; sites: BenchSite[]; now: number };

/** A fixed clock, so two runs index the same documents. */
export const benchNow = 1_767_225_600; // 2026-01-01T00:00:00Z

/** The demo sites and their stock, as search documents (site ids as the seed gives them). */
export function demoSearchData(now = benchNow): BenchData {
  const { sites, cars } = generateDemoData(now);
  const siteOfDealership = new Map<number, number>();
  for (const site of sites) for (const dealership of site.dealerships) siteOfDealership.set(dealership.id, site.id);
  const docs = cars.map((car) => carSearchDocument(car, siteOfDealership.get(car.dealership_id) ?? 0));
  return {
    docs,
    sites: sites.map(({ id, include_sold_cars_days, search_filters, dealerships }) => ({
      id,
      include_sold_cars_days,
      search_filters,
      dealerships: dealerships.map(({ id }) => ({ id })),
    })),
    now,
  };
}

const suburbs = [
  'Parramatta',
  'Castle Hill',
  'Penrith',
  'Liverpool',
  'Chatswood',
  'Hornsby',
  'Blacktown',
  'Campbelltown',
  'Gosford',
  'Wollongong',
  'Newcastle',
  'Geelong',
  'Ringwood',
  'Dandenong',
  'Frankston',
  'Ipswich',
  'Logan',
  'Toowoomba',
  'Cairns',
  'Townsville',
  'Joondalup',
  'Rockingham',
  'Mandurah',
  'Elizabeth',
  'Morphett Vale',
  'Hobart',
  'Launceston',
  'Darwin',
  'Belconnen',
  'Tuggeranong',
];
const groupWords = ['Motors', 'Auto Group', 'Car Centre', 'Automotive', 'Vehicles', 'Motor Co'];
const stockLetters = 'ABCDEFGHJKLMNPRSTUVWXYZ';
const vinAlphabet = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
const day = 86_400;

/**
 * `count` cars over `siteCount` sites (ids 1..siteCount), about count/siteCount each. Each site has
 * 2–6 dealerships named after suburbs, its own stock-number prefix, and a status mix like the demo
 * stock: mostly listed, some coming soon, some recently or long sold, a few hidden.
 */
export function platformSearchData(count: number, siteCount: number, now = benchNow): BenchData {
  const templates = generateDemoData(now).cars;
  const rng = createRng(0x5ea4c4);
  const docs: Doc[] = [];
  const sites: BenchSite[] = [];
  let nextId = 5_000_001;
  for (let siteId = 1; siteId <= siteCount; siteId++) {
    const perSite = Math.floor(count / siteCount) + (siteId <= count % siteCount ? 1 : 0);
    const prefix = rng.chars(3, stockLetters);
    const dealerships = Array.from({ length: rng.int(2, 6) }, (_, d) => {
      const name = `${rng.pick(suburbs)} ${rng.pick(groupWords)}`;
      return { id: siteId * 100 + d, name, locationId: siteId * 1000 + d, city: name.split(' ')[0]! };
    });
    const usedOnly = rng.chance(0.1);
    sites.push({
      id: siteId,
      include_sold_cars_days: rng.pick([3, 7, 30]),
      search_filters: usedOnly ? ['car_type = used'] : [],
      dealerships: dealerships.map(({ id }) => ({ id })),
    });
    for (let k = 0; k < perSite; k++) {
      const template = rng.pick(templates);
      const dealership = rng.pick(dealerships);
      const roll = rng.next();
      const status: Car['status'] = roll < 0.86 ? 'in_stock' : roll < 0.93 ? 'coming_soon' : 'sold';
      const soldAt = status === 'sold' ? now - rng.int(0, 60) * day : null;
      const priceFactor = rng.float(0.85, 1.15);
      const id = nextId++;
      const car: Car = {
        ...template,
        id,
        slug: `${template.slug.replace(/-[a-z0-9]+$/, '')}-${id.toString(36)}`,
        price: Math.max(990, Math.round((template.price * priceFactor) / 100) * 100 - 10),
        km: template.car_type === 'new' ? template.km : Math.round(template.km * rng.float(0.5, 1.5)),
        status,
        sold: status === 'sold' || rng.chance(0.005),
        sold_date_timestamp: soldAt,
        show_on_dealer_website: rng.chance(0.98),
        stocknum: `${prefix}${rng.digits(5)}`,
        vin: template.vin.slice(0, 8) + rng.chars(9, vinAlphabet),
        custom_rank: rng.int(0, 1000),
        created_at_timestamp: now - rng.int(0, 365) * day,
        dealership_id: dealership.id,
        dealership_slug: dealership.name.toLowerCase().replace(/\W+/g, '-'),
        location_id: dealership.locationId,
        location_name: dealership.name,
        location: { name: dealership.name, distribution_locations: [] },
        city: dealership.city,
      };
      docs.push(carSearchDocument(car, siteId));
    }
  }
  return { docs, sites, now };
}
