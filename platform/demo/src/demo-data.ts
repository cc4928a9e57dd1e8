import type { Car } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';
import { demoCars, type CarRegistry } from './demo-cars';
import { demoNetwork } from './demo-locations';
import { buildSiteConfig, siteIdentities } from './demo-sites';

/** Car ids start here so they never look like site, dealership or location ids in logs. */
const firstCarId = 100_001;

/**
 * The demo sites and their stock. Pure: `now` (unix seconds) is the only input, so the same
 * `now` gives byte-identical output. Each site draws from its own seeded generator, so
 * changing `now` moves timestamps (and model years at a new year) but keeps the same cars.
 */
export function generateDemoData(now: number): { sites: SiteConfig[]; cars: Car[] } {
  if (!Number.isInteger(now) || now <= 0) throw new Error(`now must be unix seconds, got ${now}`);
  const registry: CarRegistry = { slugs: new Set(), vins: new Set() };
  const sites: SiteConfig[] = [];
  const cars: Car[] = [];

  for (const site of siteIdentities) {
    const { locations, dealerships } = demoNetwork(site);
    const siteCars = demoCars({ site, locations, dealerships, now, firstId: firstCarId + cars.length, registry });
    sites.push(buildSiteConfig(site, locations, dealerships, siteCars));
    cars.push(...siteCars);
  }
  return { sites, cars };
}
