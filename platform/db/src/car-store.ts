import { z } from 'zod';
import { carStatuses, type Car } from '@dealer/contracts/car';
import type { PlatformDb } from './database';

/** A car's row as the store keeps it: the columns it is listed and found by, and the car whole. */
export const carColumns = (car: Car, now: number) => ({
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
  stocknum: car.stocknum || null,
  vin: car.vin || null,
});

export async function insertCars(db: PlatformDb, siteId: number, cars: Car[], now = Date.now()) {
  // Batches keep each statement under SQLite's bound-parameter limit.
  for (let start = 0; start < cars.length; start += 200) {
    const batch = cars.slice(start, start + 200);
    await db
      .insertInto('cars')
      .values(batch.map((car) => ({ id: car.id, site_id: siteId, ...carColumns(car, now) })))
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
  const row = await db
    .selectFrom('cars')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('site_id', '=', siteId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findCarById(db: PlatformDb, carId: number): Promise<{ siteId: number; car: Car } | null> {
  const row = await db.selectFrom('cars').select(['site_id', 'data']).where('id', '=', carId).executeTakeFirst();
  return row ? { siteId: row.site_id, car: JSON.parse(row.data) as Car } : null;
}

/** What a dealer may change on a car, from the admin API or the CLI, by its SPEC §3 names. */
const carChangeShape = z.object({
  price: z.number({ error: 'price must be a number' }).nonnegative('price cannot be negative'),
  before_price: z.number({ error: 'before_price must be a number or null' }).nonnegative('before_price cannot be negative').nullable(),
  status: z.enum(carStatuses, { error: `status must be one of ${carStatuses.join(', ')}` }),
  sold: z.boolean({ error: 'sold must be true or false' }),
  sold_date_timestamp: z
    .number({ error: 'sold_date_timestamp must be a unix time in seconds, or null' })
    .int('sold_date_timestamp must be a whole number of seconds')
    .nonnegative('sold_date_timestamp cannot be negative')
    .nullable(),
  reserved: z.boolean({ error: 'reserved must be true or false' }),
  show_on_dealer_website: z.boolean({ error: 'show_on_dealer_website must be true or false' }),
  tag: z.string({ error: 'tag must be text or null' }).trim().max(60, 'tag must be at most 60 characters').nullable(),
});
export const carChangeFields = Object.keys(carChangeShape.shape) as (keyof typeof carChangeShape.shape)[];
export const carChangeSchema = carChangeShape
  .partial()
  .strict()
  .refine((change) => Object.keys(change).length > 0, { message: `Give at least one of: ${carChangeFields.join(', ')}.` });
export type CarChange = z.infer<typeof carChangeSchema>;

/** A change that contradicts itself (sold with an in-stock status), field → message. */
export class CarChangeConflict extends Error {
  constructor(readonly fields: Record<string, string>) {
    super(Object.values(fields).join(' '));
  }
}

/**
 * The car after a dealer's change. The status and the sold flag are kept in step (either one
 * given moves the other); a car that becomes sold without a sold date is stamped `now`, and one
 * taken back into stock loses its sold date unless a date is given.
 */
export function applyCarChange(car: Car, change: CarChange, nowSeconds: number): Car {
  if (change.status !== undefined && change.sold !== undefined && (change.status === 'sold') !== change.sold) {
    throw new CarChangeConflict({ sold: `sold is ${change.sold} but status is ${change.status}: give one of them, or both in agreement.` });
  }
  const next: Car = { ...car, ...change, tag: change.tag === undefined ? car.tag : change.tag || null };
  if (change.status !== undefined && change.sold === undefined) next.sold = change.status === 'sold';
  if (change.sold !== undefined && change.status === undefined)
    next.status = change.sold ? 'sold' : car.status === 'sold' ? 'in_stock' : car.status;
  const soldNow = next.sold || next.status === 'sold';
  if (soldNow && next.sold_date_timestamp === null) next.sold_date_timestamp = nowSeconds;
  if (!soldNow && change.sold_date_timestamp === undefined) next.sold_date_timestamp = null;
  return next;
}

/** Applies a dealer's change to one car; null when there is no such car. */
export async function updateCar(
  db: PlatformDb,
  carId: number,
  change: CarChange,
  now = Date.now(),
): Promise<{ siteId: number; car: Car } | null> {
  return db.transaction().execute(async (trx) => {
    const found = await findCarById(trx, carId);
    if (!found) return null;
    const car = applyCarChange(found.car, change, Math.floor(now / 1000));
    await trx
      .updateTable('cars')
      .set({
        status: car.status,
        price: car.price,
        show_on_dealer_website: car.show_on_dealer_website ? 1 : 0,
        sold_date_timestamp: car.sold_date_timestamp,
        updated_at: now,
        data: JSON.stringify(car),
      })
      .where('id', '=', carId)
      .execute();
    return { siteId: found.siteId, car };
  });
}
