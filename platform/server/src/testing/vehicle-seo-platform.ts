/**
 * What the vehicle SEO suites (vehicle-seo.*.test.ts) share: one platform for the test file, the
 * dealers' configs, and the cars of a site a test needs (for sale, sold long ago, hidden from the
 * website). `open()` (in a beforeAll) also loads jsdom for reading pages. Production code does not import it.
 */
import type { Car } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';
import { isSold } from '@dealer/rules/tags';
import { listSiteCars } from '@dealer/db/car-store';
import { listSiteSlugs, loadSiteConfig } from '@dealer/db/site-store';
import { isCarOnSite } from '../search/site-search';
import { createTestPlatform, type TestPlatform } from './test-platform';

type Dom = { window: { document: Document } };
type JsdomModule = { JSDOM: new (markup: string, options?: { contentType?: string }) => Dom };
export type Jsdom = JsdomModule['JSDOM'];

export const day = 86_400;
export const nowSeconds = () => Math.floor(Date.now() / 1000);

export function vehicleSeoPlatform() {
  let platform: TestPlatform;
  const sites = new Map<string, SiteConfig>();
  const open = async () => {
    // jsdom ships no type declarations; the test only needs its constructor.
    const { JSDOM } = (await import('jsdom' as string)) as JsdomModule;
    // The sitemap is compared with what a site's search lists, read whole with its browser key: past what one public request may ask for.
    platform = await createTestPlatform({ env: { SEARCH_PUBLIC_MAX_HITS: '5000' } });
    for (const row of await listSiteSlugs(platform.ctx.db)) sites.set(row.slug, (await loadSiteConfig(platform.ctx.db, row.id))!);
    return { platform, JSDOM };
  };

  const site = (slug: string): SiteConfig => {
    const found = sites.get(slug);
    if (!found) throw new Error(`no site ${slug}`);
    return found;
  };

  const carsOf = async (slug: string) => listSiteCars(platform.ctx.db, site(slug).id);
  /** A car the site lists for sale right now, in stock, with a real price. */
  async function carForSale(slug: string, extra: (car: Car) => boolean = () => true): Promise<Car> {
    const car = (await carsOf(slug)).find(
      (entry) =>
        entry.status === 'in_stock' && !entry.sold && entry.price > 10 && isCarOnSite(site(slug), entry, nowSeconds()) && extra(entry),
    );
    if (!car) throw new Error(`no car for sale on ${slug}`);
    return car;
  }
  async function soldLongAgo(slug: string): Promise<Car> {
    const cutoff = nowSeconds() - site(slug).include_sold_cars_days * day;
    const car = (await carsOf(slug)).find(
      (entry) => isSold(entry) && entry.sold_date_timestamp !== null && entry.sold_date_timestamp < cutoff,
    );
    if (!car) throw new Error(`no car sold long ago on ${slug}`);
    return car;
  }
  async function hiddenCar(slug: string): Promise<Car> {
    const car = (await carsOf(slug)).find((entry) => !entry.show_on_dealer_website);
    if (!car) throw new Error(`no hidden car on ${slug}`);
    return car;
  }

  return { open, site, carsOf, carForSale, soldLongAgo, hiddenCar };
}
