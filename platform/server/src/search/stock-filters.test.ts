import { describe, expect, it } from 'vitest';
import type { Car } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';
import { generateDemoData } from '@dealer/demo/demo-data';
import { filterAttributes, parseFilter } from '@dealer/search-engine/filter-parser';
import { SearchIndex } from '@dealer/search-engine/search-index';
import { carSearchDocument, carsIndexSettings, filterValue, siteBaseFilter, type SiteSearchScope } from './site-search';
import { defaultStockFilter, stockFilterFor, stockFilters } from './stock-filters';

const now = 1_748_822_400;
const day = 86_400;

describe('stock search filters per dealer site (SPEC §9)', () => {
  it('has an entry for every code from 0 to 14, in order, each with a label', () => {
    expect(stockFilters.map((entry) => entry.code)).toEqual([...Array(15).keys()]);
    for (const entry of stockFilters) expect(entry.label.length, `code ${entry.code}`).toBeGreaterThan(5);
    expect(new Set(stockFilters.map((entry) => entry.filter)).size).toBe(15);
  });

  it('restricts nothing by default, and falls back to the default for a code that matches no entry', () => {
    expect(defaultStockFilter).toMatchObject({ code: 0, filter: null });
    for (const code of [undefined, null, -1, 15, 250, 1.5]) expect(stockFilterFor(code)).toBe(defaultStockFilter);
    expect(stockFilterFor(1).filter).toBe('car_type = used');
  });

  it.each(stockFilters.filter((entry) => entry.filter !== null).map((entry) => [entry.code, entry.filter!] as const))(
    'code %i reads as a filter on filterable attributes only: %s',
    (_code, filter) => {
      const attributes = [...filterAttributes(parseFilter(filter))];
      expect(attributes.length).toBeGreaterThan(0);
      for (const attribute of attributes) expect(carsIndexSettings.filterableAttributes).toContain(attribute);
    },
  );
});

describe('the filter every search of a site runs under', () => {
  const { sites, cars } = generateDemoData(now);
  const site = (slug: string) => sites.find((entry) => entry.slug === slug)!;
  const siteOf = new Map(sites.flatMap((entry) => entry.dealerships.map((dealership) => [dealership.id, entry.id] as const)));

  /** Every demo car in one index, as the indexer puts them. */
  const index = new SearchIndex('cars', carsIndexSettings);
  index.upsert(cars.map((car) => carSearchDocument(car, siteOf.get(car.dealership_id)!)));
  const visible = (scope: SiteSearchScope, extra: Car[] = []) => {
    const withExtra = new SearchIndex('cars', carsIndexSettings);
    withExtra.upsert([...cars, ...extra].map((car) => carSearchDocument(car, siteOf.get(car.dealership_id)!)));
    return withExtra.search({ limit: 10_000 }, siteBaseFilter(scope, now).node).hits as (Car & { site_id: number })[];
  };

  it("ANDs the listing rule, the site's stock, its stock filter, its search filters and its manufacturer, each in brackets", () => {
    const toyota = site('toyota-demo');
    const { filter } = siteBaseFilter(toyota, now);
    const rules = filter.split(') AND (');
    expect(rules).toHaveLength(6);
    expect(filter).toContain(`sold_date_timestamp >= ${now - 3 * day}`);
    expect(filter).toContain('(show_on_dealer_website = true)');
    expect(filter).toContain(`(site_id = ${toyota.id})`);
    expect(filter).toContain(`(dealership_id IN [${toyota.dealerships.map((dealership) => dealership.id).join(', ')}])`);
    expect(filter).toContain('(car_type IN [used, demo])');
    expect(filter.endsWith('(make = "Toyota")')).toBe(true);
    expect(siteBaseFilter(site('harbour-used-cars'), now).filter).toContain('(car_type = used) AND (car_type = used)');
  });

  it("keeps an OR inside a site's own search filter from widening the rest", () => {
    const metro = site('metro-motor-group');
    const harbour = site('harbour-used-cars');
    const hits = visible({ ...metro, search_filters: [`car_type = new OR site_id = ${harbour.id}`] });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((hit) => hit.site_id === metro.id && hit.car_type === 'new')).toBe(true);
  });

  it("shows a manufacturer's site that make only, and a used-cars site used cars only", () => {
    const toyota = site('toyota-demo');
    const template = cars.find(
      (car) => siteOf.get(car.dealership_id) === toyota.id && car.status === 'in_stock' && !car.sold && car.show_on_dealer_website,
    )!;
    const mazda: Car = { ...template, id: 990_501, slug: 'x-mazda', make: 'Mazda' };
    const brandNew: Car = { ...template, id: 990_502, slug: 'x-new', car_type: 'new' };
    const hits = visible(toyota, [mazda, brandNew]);
    expect(hits.length).toBeGreaterThan(40);
    expect(hits.every((hit) => hit.make === 'Toyota' && hit.car_type !== 'new')).toBe(true);
    // Without the rules, both would show.
    expect(visible({ ...toyota, manufacturer: null, stock_filter_code: 0 }, [mazda, brandNew]).map((hit) => hit.id)).toEqual(
      expect.arrayContaining([mazda.id, brandNew.id]),
    );
  });

  it("shows no car of a dealership the site does not have, even under the site's id", () => {
    const metro = site('metro-motor-group');
    const [kept, ...dropped] = metro.dealerships;
    const hits = visible({ ...metro, dealerships: [kept!] });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((hit) => hit.dealership_id === kept!.id)).toBe(true);
    expect(dropped.length).toBeGreaterThan(0);
  });

  it('quotes a manufacturer with a space, a hyphen or a quote as one value', () => {
    expect(filterValue('Mercedes-Benz')).toBe('"Mercedes-Benz"');
    expect(filterValue('Land Rover')).toBe('"Land Rover"');
    expect(filterValue('Say "hi"')).toBe('"Say \\"hi\\""');
    const scope: SiteSearchScope = { ...site('metro-motor-group'), manufacturer: 'Land "Rover"' };
    expect(parseFilter(siteBaseFilter(scope, now).filter)).toEqual(siteBaseFilter(scope, now).node);
    expect(JSON.stringify(siteBaseFilter(scope, now).node)).toContain('"value":"Land \\"Rover\\""');
  });

  it("names the site's stock filter code in the site config of the demo sites that have one", () => {
    const codes = Object.fromEntries(sites.map((entry: SiteConfig) => [entry.slug, entry.stock_filter_code]));
    expect(codes['harbour-used-cars']).toBe(1);
    expect(codes['toyota-demo']).toBe(4);
    expect(codes['metro-motor-group']).toBeUndefined();
  });
});
