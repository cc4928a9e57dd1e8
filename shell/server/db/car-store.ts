import type { Car } from '@dealer/contracts/car';
import type { PlatformDb } from './database';

export async function insertCars(db: PlatformDb, siteId: number, cars: Car[], now = Date.now()) {
  // Batches keep each statement under SQLite's bound-parameter limit.
  for (let start = 0; start < cars.length; start += 200) {
    const batch = cars.slice(start, start + 200);
    await db
      .insertInto('cars')
      .values(
        batch.map((car) => ({
          id: car.id,
          site_id: siteId,
          slug: car.slug,
          dealership_id: car.dealership_id,
          location_id: car.location_id,
          status: car.status,
          car_type: car.car_type,
          make: car.make,
          model: car.model,
          price: car.price,
          show_on_dealer_website: car.show_on_dealer_website ? 1 : 0,
          sold_date_timestamp: car.sold_date_timestamp,
          updated_at: now,
          data: JSON.stringify(car),
        })),
      )
      .execute();
  }
}

export async function findCarBySlug(db: PlatformDb, siteId: number, slug: string): Promise<Car | null> {
  const row = await db.selectFrom('cars').select('data').where('site_id', '=', siteId).where('slug', '=', slug).executeTakeFirst();
  return row ? (JSON.parse(row.data) as Car) : null;
}

export async function listSiteCars(db: PlatformDb, siteId: number): Promise<Car[]> {
  const rows = await db.selectFrom('cars').select('data').where('site_id', '=', siteId).orderBy('id').execute();
  return rows.map((row) => JSON.parse(row.data) as Car);
}

export async function carCount(db: PlatformDb, siteId: number): Promise<number> {
  const row = await db.selectFrom('cars').select((eb) => eb.fn.countAll<number>().as('n')).where('site_id', '=', siteId).executeTakeFirstOrThrow();
  return Number(row.n);
}
