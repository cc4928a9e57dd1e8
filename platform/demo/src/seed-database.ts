import type { PlatformDb } from '@dealer/db/database';
import { insertCars } from '@dealer/db/car-store';
import { insertSite, siteCount } from '@dealer/db/site-store';
import { generateDemoData } from './demo-data';
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
  }
  // The dealer console's demo users (their codes go to DATA_DIR/outbox/console-mail).
  await insertDemoConsoleUsers(db, sites);
  return true;
}
