import { generateDemoData } from '../../platform/demo/src/demo-data';

/**
 * The demo stock as the server seeded it. Slugs and stock numbers do not depend on the seeding
 * time, and sold dates are hours or weeks away from the window edge, so "now" here is close enough.
 */
export function demoStock() {
  const { sites, cars } = generateDemoData(Math.floor(Date.now() / 1000));
  const siteOf = new Map(sites.flatMap((site) => site.dealerships.map((dealership) => [dealership.id, site.slug] as const)));
  return { sites, cars: cars.map((car) => ({ ...car, site: siteOf.get(car.dealership_id)! })) };
}
