/**
 * What the ADF suites (leads/adf.*.test.ts) share: demo leads to render (Metro Motor Group's used-car
 * enquiry among them) and the rendered document read back as XML with jsdom (`loadJsdom` in a
 * beforeAll first). Production code does not import it.
 */
import { expect } from 'vitest';
import type { Car } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';
import { generateDemoData } from '@dealer/demo/demo-data';
import type { DeliverableFile, DeliverableLead } from '@dealer/leads/deliverable-lead';

type JsdomModule = { JSDOM: new (xml: string, options: { contentType: string }) => { window: { document: Document } } };
let JSDOM: JsdomModule['JSDOM'];
export async function loadJsdom() {
  // jsdom ships no type declarations; the test only needs its constructor.
  ({ JSDOM } = (await import('jsdom' as string)) as JsdomModule);
}

const data = generateDemoData(Math.floor(Date.UTC(2025, 0, 1) / 1000));
export const siteOf = (slug: string): SiteConfig => data.sites.find((site) => site.slug === slug)!;
export const carOf = (site: SiteConfig, pick: (car: Car) => boolean = () => true): Car =>
  data.cars.find(
    (car) =>
      site.dealerships.some((dealership) => dealership.slug === car.dealership_slug) && car.badge && car.vin && car.price > 0 && pick(car),
  )!;

export const metro = siteOf('metro-motor-group');
export const metroCar = carOf(metro, (car) => car.car_type === 'used');
const createdAt = Date.UTC(2025, 4, 6, 23, 15, 42, 123);

export const shopper = { name: 'Jane', last_name: 'Citizen', email: 'jane@example.com', phone: '0412 345 678', postcode: '2150' };
export const lead = (
  site: SiteConfig,
  payload: Record<string, unknown>,
  car: Car | null = null,
  id = 42,
  files: DeliverableFile[] = [],
): DeliverableLead => ({
  id,
  site,
  payload,
  car,
  createdAt,
  files,
});

/** A used-car enquiry sent from Metro Motor Group's car page. */
export const usedCarEnquiry = lead(
  metro,
  {
    ...shopper,
    category: 'Used Vehicle Enquiry',
    message: 'Is it still available?',
    opt_in: true,
    car_id: metroCar.id,
    car_type: metroCar.car_type,
    stock_number: metroCar.stocknum,
    'Vehicle Make': metroCar.make,
    'Vehicle Model': metroCar.model,
    location_id: metroCar.location_id,
    dealership_slug: metroCar.dealership_slug,
    source: 'Website',
    user_agent: 'Mozilla/5.0',
    visited_pages: ['/', '/cars/x'],
    url: `${metro.url}/cars/${metroCar.slug}`,
    linked_query_params: { utm_source: 'google', utm_campaign: 'eofy' },
  },
  metroCar,
);

export function parse(xml: string): Document {
  const doc = new JSDOM(xml, { contentType: 'text/xml' }).window.document;
  expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
  return doc;
}
export const textAt = (scope: Document | Element, selector: string) => scope.querySelector(selector)?.textContent ?? null;
