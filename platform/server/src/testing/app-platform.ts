/**
 * What the app suites (app.*.test.ts) share: one platform per engine for the whole test file, and the
 * store's own answer to what a site lists (its config, its cars a shopper may find). Production code
 * does not import it.
 */
import type { Car } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';
import { isListedInSearch } from '@dealer/rules/tags';
import { listSiteCars } from '@dealer/db/car-store';
import { listSiteSlugs, loadSiteConfig } from '@dealer/db/site-store';
import { createTestPlatform, type TestPlatform } from './test-platform';

type Engine = 'sqlite' | 'postgres';

/**
 * One platform per engine for the whole file; the slowest part of a test is building it. Its
 * search tests read sites' whole stock with their browser keys, past what one public request may
 * ask for (public-search-budget.test.ts holds that bound).
 */
const platforms = new Map<Engine, Promise<TestPlatform>>();
export const platformOn = (engine: Engine) => {
  if (!platforms.has(engine)) platforms.set(engine, createTestPlatform({ engine, env: { SEARCH_PUBLIC_MAX_HITS: '20000' } }));
  return platforms.get(engine)!;
};

/** Closes the platforms this test file opened (its afterAll). */
export async function closeAppPlatforms() {
  for (const pending of platforms.values()) await (await pending.catch(() => null))?.close();
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export async function siteBySlug(platform: TestPlatform, slug: string): Promise<SiteConfig> {
  const row = (await listSiteSlugs(platform.ctx.db)).find((site) => site.slug === slug);
  const site = row ? await loadSiteConfig(platform.ctx.db, row.id) : null;
  if (!site) throw new Error(`no site ${slug}`);
  return site;
}

/** What a shopper should be able to find on a site right now, worked out from the store, not the index. */
export async function listedCars(platform: TestPlatform, site: SiteConfig): Promise<Car[]> {
  const cars = await listSiteCars(platform.ctx.db, site.id);
  return cars.filter((car) => isListedInSearch(car, site.include_sold_cars_days, nowSeconds()));
}

export async function aListedCar(platform: TestPlatform, slug: string): Promise<Car> {
  const site = await siteBySlug(platform, slug);
  const car = (await listedCars(platform, site)).find((entry) => entry.status === 'in_stock' && !entry.sold);
  if (!car) throw new Error(`no listed car on ${slug}`);
  return car;
}
