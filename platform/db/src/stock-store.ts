import { sql } from 'kysely';
import type { Car } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';
import { carColumns } from './car-store';
import type { PlatformDb } from './database';
import type { DatabaseEngine } from './database-engine';
import { pageOf, type Page, type PagePosition } from './page-cursor';

/**
 * A site's stock as the dealer console reads and writes it (issue 24): listed newest first,
 * found by make, model, stock number or VIN, and each car saved whole with the columns its
 * listing and the feeds look it up by.
 */
export type StockFilter = {
  /** Words of the make, model, stock number or VIN (each word must match one of them). */
  text?: string;
  status?: Car['status'];
  carType?: Car['car_type'];
  /** true: only cars hidden from the website; false: only shown ones. */
  hidden?: boolean;
};

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function stockPage(
  db: PlatformDb,
  siteId: number,
  filter: StockFilter,
  page: Page,
): Promise<{ cars: Car[]; next: PagePosition | null }> {
  let query = db.selectFrom('cars').select(['id', 'data']).where('site_id', '=', siteId);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.carType) query = query.where('car_type', '=', filter.carType);
  if (filter.hidden !== undefined) query = query.where('show_on_dealer_website', '=', filter.hidden ? 0 : 1);
  for (const word of (filter.text ?? '').toLowerCase().split(/\s+/).filter(Boolean).slice(0, 5)) {
    const pattern = likePattern(word);
    query = query.where((eb) =>
      eb.or(['make', 'model', 'stocknum', 'vin'].map((column) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`)),
    );
  }
  if (page.after) query = query.where('id', '<', page.after.id);
  const rows = await query
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const cars = rows.map((row) => JSON.parse(row.data) as Car);
  const { rows: listed, next } = pageOf(cars, page.limit, (car) => ({ key: car.id, id: car.id }));
  return { cars: listed, next };
}

/** Other cars of the site with this car's stock number or VIN (each a feed row or a new car must not repeat). */
export async function clashingCars(
  db: PlatformDb,
  siteId: number,
  car: Pick<Car, 'id' | 'stocknum' | 'vin'>,
): Promise<{ stocknum: boolean; vin: boolean }> {
  const other = (column: 'stocknum' | 'vin', value: string) =>
    value
      ? db
          .selectFrom('cars')
          .select('id')
          .where('site_id', '=', siteId)
          .where(column, '=', value)
          .where('id', '!=', car.id)
          .executeTakeFirst()
      : Promise.resolve(undefined);
  const [byNumber, byVin] = await Promise.all([other('stocknum', car.stocknum), other('vin', car.vin)]);
  return { stocknum: byNumber !== undefined, vin: byVin !== undefined };
}

/** The id a new car takes: car ids are the platform's, not a site's. */
export async function nextCarId(db: PlatformDb): Promise<number> {
  const row = await db
    .selectFrom('cars')
    .select((eb) => eb.fn.max('id').as('top'))
    .executeTakeFirst();
  return Math.max(100_000, Number(row?.top ?? 0)) + 1;
}

/** Whether another car of the site has this slug (a car's page address). */
export async function slugTaken(db: PlatformDb, siteId: number, slug: string, exceptId: number | null): Promise<boolean> {
  let query = db.selectFrom('cars').select('id').where('site_id', '=', siteId).where('slug', '=', slug);
  if (exceptId !== null) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** Saves a car whole: a new one is added, a known one (same id, same site) replaced. */
export async function saveCar(db: PlatformDb, siteId: number, car: Car, now = Date.now()): Promise<'added' | 'changed'> {
  const changed = await db
    .updateTable('cars')
    .set(carColumns(car, now))
    .where('id', '=', car.id)
    .where('site_id', '=', siteId)
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) > 0) return 'changed';
  await db
    .insertInto('cars')
    .values({ id: car.id, site_id: siteId, ...carColumns(car, now) })
    .execute();
  return 'added';
}

/**
 * Adds a new car under a fresh id: only ever an insert (never replacing a car), and when two cars
 * are added at once and take the same id, the later one tries the next.
 */
export async function addCar(db: PlatformDb, siteId: number, build: (id: number) => Car, now = Date.now()): Promise<Car> {
  for (let attempt = 0; ; attempt++) {
    const car = build(await nextCarId(db));
    try {
      await db
        .insertInto('cars')
        .values({ id: car.id, site_id: siteId, ...carColumns(car, now) })
        .execute();
      return car;
    } catch (error) {
      const taken = await db.selectFrom('cars').select('id').where('id', '=', car.id).executeTakeFirst();
      if (!taken || attempt >= 4) throw error;
    }
  }
}

/**
 * Changes a car as it is now: read and written in one transaction holding its row (PostgreSQL;
 * SQLite runs one writer at a time), so a deposit, hold or sale written meanwhile is not undone by a
 * dealer's edit made from an older copy. Null when the site has no such car.
 */
export async function changeCar(
  db: PlatformDb,
  engine: DatabaseEngine,
  siteId: number,
  carId: number,
  /** Given the car and the transaction, for any reads it needs (never the outer store: SQLite has one connection). */
  change: (car: Car, trx: PlatformDb) => Car | Promise<Car>,
  now = Date.now(),
): Promise<{ before: Car; after: Car } | null> {
  return db.transaction().execute(async (trx) => {
    let query = trx.selectFrom('cars').select('data').where('id', '=', carId).where('site_id', '=', siteId);
    if (engine === 'postgres') query = query.forUpdate();
    const row = await query.executeTakeFirst();
    if (!row) return null;
    const before = JSON.parse(row.data) as Car;
    const after = await change(before, trx);
    await trx.updateTable('cars').set(carColumns(after, now)).where('id', '=', carId).where('site_id', '=', siteId).execute();
    return { before, after };
  });
}

/** The site's stock summary (count, makes, models, types: the header's stock menu and the home page's) from its cars now. */
export async function refreshStockSummary(
  db: PlatformDb,
  engine: DatabaseEngine,
  siteId: number,
  now = Date.now(),
): Promise<SiteConfig['stock']> {
  // Counted and written while holding the site (PostgreSQL), so two changes at once leave the later count.
  return db.transaction().execute(async (trx) => {
    if (engine === 'postgres') await trx.selectFrom('sites').select('id').where('id', '=', siteId).forNoKeyUpdate().execute();
    const rows = await trx
      .selectFrom('cars')
      .select(['make', 'model', 'car_type', 'status', 'show_on_dealer_website'])
      .where('site_id', '=', siteId)
      .execute();
    const listed = rows.filter((car) => car.show_on_dealer_website === 1 && (car.status === 'in_stock' || car.status === 'coming_soon'));
    const makeModels = new Map<string, number>();
    const carTypes: Record<string, number> = { new: 0, used: 0, demo: 0 };
    for (const car of listed) {
      makeModels.set(`${car.make}:${car.model}`, (makeModels.get(`${car.make}:${car.model}`) ?? 0) + 1);
      carTypes[car.car_type] = (carTypes[car.car_type] ?? 0) + 1;
    }
    const stock: SiteConfig['stock'] = {
      count: listed.length,
      makes: [...new Set(listed.map((car) => car.make))].sort(),
      make_models: Object.fromEntries([...makeModels.keys()].sort().map((key) => [key, makeModels.get(key)!])),
      car_types: carTypes,
    };
    // One statement, so a settings change saved meanwhile is neither lost nor overwritten.
    const value = JSON.stringify(stock);
    const config =
      engine === 'postgres'
        ? sql<string>`jsonb_set(config::jsonb, '{stock}', ${value}::jsonb)::text`
        : sql<string>`json_set(config, '$.stock', json(${value}))`;
    await trx.updateTable('sites').set({ config, updated_at: now }).where('id', '=', siteId).execute();
    return stock;
  });
}

/**
 * A location's name and town as its cars carry them (each car keeps a copy for its card and the
 * search filter): written into every car of the location, each as it is now. The cars changed.
 */
export async function relabelLocationCars(
  db: PlatformDb,
  engine: DatabaseEngine,
  siteId: number,
  location: { id: number; name: string; city: string; state: string },
  now = Date.now(),
): Promise<Car[]> {
  const rows = await db.selectFrom('cars').select('id').where('site_id', '=', siteId).where('location_id', '=', location.id).execute();
  const changed: Car[] = [];
  for (const row of rows) {
    const saved = await changeCar(
      db,
      engine,
      siteId,
      Number(row.id),
      (car) => ({
        ...car,
        location_name: location.name,
        location: { ...car.location, name: location.name },
        city: location.city,
        state: location.state,
      }),
      now,
    );
    if (saved) changed.push(saved.after);
  }
  return changed;
}
