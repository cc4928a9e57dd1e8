import type { PlatformDb } from '@dealer/db/database';
import { insertCars } from '@dealer/db/car-store';
import { seedSiteContent, siteHasContent } from '@dealer/db/content-store';
import { replaceLocationReviews } from '@dealer/db/review-store';
import { insertSite, loadSiteConfig, siteCount } from '@dealer/db/site-store';
import { generateDemoData } from './demo-data';
import { demoContent, type OfferCar } from './demo-content';
import { demoSiteSlugs } from './demo-sites';
import { insertDemoConsoleUsers } from './demo-console-users';

/** First start only: an empty store gets the generated demo sites, their stock and the console's demo users. */
export async function seedDemoDataIfEmpty(db: PlatformDb, nowSeconds = Math.floor(Date.now() / 1000)): Promise<boolean> {
  if ((await siteCount(db)) > 0) return false;
  const { sites, cars } = generateDemoData(nowSeconds);
  const bySite = new Map<number, typeof cars>();
  const siteOfDealership = new Map<number, number>();
  for (const site of sites) for (const dealership of site.dealerships) siteOfDealership.set(dealership.id, site.id);
  for (const car of cars) {
    const siteId = siteOfDealership.get(car.dealership_id);
    if (siteId === undefined) throw new Error(`Car ${car.slug} belongs to no site`);
    bySite.set(siteId, [...(bySite.get(siteId) ?? []), car]);
  }
  for (const site of sites) {
    await insertSite(db, site);
    await insertCars(db, site.id, bySite.get(site.id) ?? []);
    await seedDemoSiteContent(db, site, cars, nowSeconds * 1000);
  }
  // The dealer console's demo users (their codes go to DATA_DIR/outbox/console-mail).
  await insertDemoConsoleUsers(db, sites);
  return true;
}

/** A demo site's pages, news, offers, jobs and Google reviews (issue 24): every header and footer link opens a page. */
async function seedDemoSiteContent(db: PlatformDb, site: Parameters<typeof demoContent>[0], cars: readonly OfferCar[], nowMs: number) {
  const { items, reviews } = demoContent(site, nowMs, cars);
  await seedSiteContent(db, site.id, items, nowMs);
  await replaceLocationReviews(db, site.id, reviews, nowMs);
}

/**
 * A store seeded before the sites had content (issue 24) gets the demo content of each demo site
 * that has none; a site whose dealer wrote anything is left alone.
 */
export async function seedDemoContentIfMissing(db: PlatformDb, nowSeconds = Math.floor(Date.now() / 1000)): Promise<number> {
  const demoSlugs = new Set<string>(demoSiteSlugs);
  const { cars } = generateDemoData(nowSeconds);
  let seeded = 0;
  const rows = await db.selectFrom('sites').select(['id', 'slug']).orderBy('id').execute();
  for (const { id, slug } of rows) {
    if (!demoSlugs.has(slug) || (await siteHasContent(db, id))) continue;
    const site = await loadSiteConfig(db, id);
    if (!site) continue;
    await seedDemoSiteContent(db, site, cars, nowSeconds * 1000);
    seeded += 1;
  }
  return seeded;
}
