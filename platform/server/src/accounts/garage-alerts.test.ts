import { describe, expect, it } from 'vitest';
import type { Car } from '@dealer/contracts/car';
import { generateDemoData } from '@dealer/demo/demo-data';
import { parseFilter } from '@dealer/search-engine/filter-parser';
import { siteBaseFilter } from '../search/site-search';
import {
  alertsForCar,
  matchesWords,
  parseSavedSearchFilter,
  queryWords,
  type CarWatchers,
  type SearchWatcher,
  type SiteRules,
} from './garage-alerts';

const nowSeconds = 1_760_000_000;
const data = generateDemoData(nowSeconds);
const site = data.sites.find((candidate) => candidate.slug === 'metro-motor-group')!;
const rules: SiteRules = { id: site.id, filter: siteBaseFilter(site, nowSeconds).node, locations: site.locations };
const base = data.cars.find(
  (car) =>
    car.dealership_id === site.dealerships[0]!.id &&
    car.status === 'in_stock' &&
    !car.sold &&
    car.show_on_dealer_website &&
    car.price > 20_000,
)!;
/** A car of the site, in stock, that arrived an hour ago. */
const car = (change: Partial<Car> = {}): Car => ({ ...base, created_at_timestamp: nowSeconds - 3600, ...change });

const savedSearch = (filter: string | (string | string[])[], change: Partial<SearchWatcher> = {}): SearchWatcher => ({
  shopperId: 7,
  searchId: 70,
  name: 'My search',
  createdAt: (nowSeconds - 7200) * 1000,
  filter: parseFilter(filter),
  words: [],
  ...change,
});
const watchedBy = (watchers: Partial<CarWatchers>): CarWatchers => ({ savers: [], searches: [], ...watchers });
const kinds = (subject: Car, watchers: Partial<CarWatchers>) =>
  alertsForCar(rules, subject, watchedBy(watchers)).map((alert) => `${alert.kind}:${alert.shopperId}`);

describe('garage alerts for one car', () => {
  const saver = (savedPrice: number, shopperId = 1) => ({ shopperId, savedPrice });

  it.each([
    ['a price below the price when saved', car({ price: base.price - 1000 }), [saver(base.price)], ['price_drop:1']],
    ['the same price', car(), [saver(base.price)], []],
    ['a price above it', car({ price: base.price + 500 }), [saver(base.price)], []],
    ['a placeholder price (not shown, SPEC §5)', car({ price: 10 }), [saver(base.price)], []],
    ['a drop on a sold car', car({ price: 1000, status: 'sold', sold: true }), [saver(base.price)], []],
    ['a drop on a car another shopper has reserved', car({ price: base.price - 1, reserved: true }), [saver(base.price)], []],
    ['a drop on a car the dealer hides', car({ price: 1000, show_on_dealer_website: false }), [saver(base.price)], []],
    ['a drop on a car of a dealership not on the site', car({ price: 1000, dealership_id: 999_999 }), [saver(base.price)], []],
    [
      'two shoppers who saved it at different prices',
      car({ price: base.price - 100 }),
      [saver(base.price, 1), saver(base.price - 200, 2)],
      ['price_drop:1'],
    ],
  ])('%s', (_label, subject, savers, expected) => {
    expect(kinds(subject, { savers })).toEqual(expected);
  });

  it('tells the price when saved and the price now', () => {
    expect(alertsForCar(rules, car({ price: 19_990 }), watchedBy({ savers: [saver(21_990)] }))).toEqual([
      { kind: 'price_drop', shopperId: 1, carId: base.id, savedPrice: 21_990, price: 19_990 },
    ]);
  });

  it.each([
    ['a car the search finds, arrived after it was saved', car(), [savedSearch(`make = "${base.make}"`)], ['new_match:7']],
    [
      'the array form of the filter',
      car(),
      [savedSearch([[`make = "${base.make}"`, 'make = "Nothing"'], `price <= ${base.price}`])],
      ['new_match:7'],
    ],
    ['an empty filter (all the site’s cars)', car(), [savedSearch([])], ['new_match:7']],
    ['a car the search does not find', car(), [savedSearch('make = "Nothing"')], []],
    [
      'a car listed before the search was saved',
      car({ created_at_timestamp: nowSeconds - 3 * 3600 }),
      [savedSearch(`make = "${base.make}"`)],
      [],
    ],
    ['a sold car', car({ status: 'sold', sold: true, sold_date_timestamp: nowSeconds }), [savedSearch('')], []],
    ['a car coming soon', car({ status: 'coming_soon' }), [savedSearch('')], ['new_match:7']],
    ['a car the site does not show', car({ dealership_id: 999_999 }), [savedSearch('')], []],
    ['two searches of one shopper that both find it', car(), [savedSearch(''), savedSearch('', { searchId: 71 })], ['new_match:7']],
    ['searches of two shoppers', car(), [savedSearch(''), savedSearch('', { shopperId: 8 })], ['new_match:7', 'new_match:8']],
    [
      'a search whose words the car has',
      car(),
      [savedSearch('', { words: queryWords(`${base.make.slice(0, 3)} ${base.model}`) })],
      ['new_match:7'],
    ],
    ['a search whose words it lacks', car(), [savedSearch('', { words: queryWords('zzzz') })], []],
  ])('%s', (_label, subject, searches, expected) => {
    expect(kinds(subject, { searches })).toEqual(expected);
  });

  it('gives a saver both a price drop and a new match, once each', () => {
    const found = alertsForCar(
      rules,
      car({ price: base.price - 1 }),
      watchedBy({ savers: [saver(base.price, 7)], searches: [savedSearch('')] }),
    );
    expect(found.map((alert) => alert.kind)).toEqual(['price_drop', 'new_match']);
  });

  it('matches words as the beginnings of the car’s words, in any case', () => {
    const subject = car({ name: '2021 Toyota RAV4 GX', make: 'Toyota', model: 'RAV4', colour: 'Silver' });
    expect(matchesWords(subject, queryWords('toy rav4'))).toBe(true);
    expect(matchesWords(subject, queryWords('SILV'))).toBe(true);
    expect(matchesWords(subject, queryWords('oyota'))).toBe(false);
    expect(matchesWords(subject, [])).toBe(true);
  });
});

describe('a saved search’s filter', () => {
  it.each([
    ['make = "Toyota" AND price 10000 TO 30000', true],
    [['car_type IN [used, demo]', ['body = SUV', 'body = Ute']], true],
    ['_geoRadius(-33.86, 151.2, 20000)', true],
    ['', true],
    ['make = ', false],
    ['secret_field = 1', false],
    ['_geoRadius(200, 151.2, 20000)', false],
    ['(((((((((((((((((((((((((((((((((((((((((((((((((((make = a)))))))))))))))))))))))))))))))))))))))))))))))))))', false],
  ])('%j is accepted: %s', (filter, ok) => {
    const parsed = parseSavedSearchFilter(filter);
    expect(parsed.ok).toBe(ok);
    if (!parsed.ok) expect(parsed.message.length).toBeGreaterThan(0);
  });

  it('names the attribute that cannot be filtered on, as Meilisearch does', () => {
    expect(parseSavedSearchFilter('vin = 1')).toEqual({ ok: false, message: 'Attribute `vin` is not filterable.' });
  });
});
