/**
 * Shopper accounts and their garages in the store: accounts, sessions (sign-in codes: sign-in-code-store.ts), saved cars,
 * saved searches and the alerts sent about them. A shopper belongs to one site; every read here is
 * scoped by the site too, so a session, a car or a search of one site never answers on another
 * (the alert job's reads, which look at every site at once, say so).
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Car } from '@dealer/contracts/car';
import type { DatabaseEngine } from '@dealer/db/database-engine';
import type { PlatformDb } from '@dealer/db/database';
import type { GarageAlertKind, PlatformDatabase } from '@dealer/db/schema';
import { retryingLockConflicts } from './sign-in-code-store';

type Db = Kysely<PlatformDatabase> | Transaction<PlatformDatabase>;

export type Shopper = { id: number; site_id: number; email: string; name: string | null };

/** Cars one garage holds (and favourites merged in at once). */
export const maxSavedCars = 200;
/** Saved searches one shopper keeps. */
export const maxSavedSearches = 20;
/** Sessions one shopper keeps (phones, laptops...); signing in once more ends the oldest. */
export const maxSessionsPerShopper = 20;

const toShopper = (row: { id: number; site_id: number; email: string; name: string | null }): Shopper => ({
  id: Number(row.id),
  site_id: Number(row.site_id),
  email: row.email,
  name: row.name,
});

// ---------------------------------------------------------------------------- accounts, sessions

/** The address's account on the site, made on its first sign-in. */
export async function signInShopper(trx: Db, siteId: number, email: string, now: number): Promise<Shopper> {
  await trx
    .insertInto('shoppers')
    .values({ site_id: siteId, email, name: null, created_at: now, updated_at: now, signed_in_at: now })
    .onConflict((oc) => oc.columns(['site_id', 'email']).doNothing())
    .execute();
  const row = await trx
    .updateTable('shoppers')
    .set({ signed_in_at: now, updated_at: now })
    .where('site_id', '=', siteId)
    .where('email', '=', email)
    .returning(['id', 'site_id', 'email', 'name'])
    .executeTakeFirstOrThrow();
  return toShopper(row);
}

/**
 * Locks the shopper's row for the rest of the transaction (PostgreSQL; SQLite runs one writer at
 * a time anyway), so two requests that count the shopper's saved cars or searches take turns.
 */
async function lockShopper(trx: Db, shopperId: number, now: number) {
  await trx.updateTable('shoppers').set({ updated_at: now }).where('id', '=', shopperId).execute();
}

export async function insertSession(
  trx: Db,
  session: { idHash: string; shopperId: number; siteId: number; expiresAt: number },
  now: number,
) {
  await trx
    .insertInto('shopper_sessions')
    .values({
      id_hash: session.idHash,
      shopper_id: session.shopperId,
      site_id: session.siteId,
      created_at: now,
      expires_at: session.expiresAt,
    })
    .execute();
  const beyond = await trx
    .selectFrom('shopper_sessions')
    .select('id_hash')
    .where('shopper_id', '=', session.shopperId)
    .orderBy('created_at', 'desc')
    .orderBy('id_hash')
    .offset(maxSessionsPerShopper)
    .limit(1000)
    .execute();
  if (beyond.length > 0)
    await trx
      .deleteFrom('shopper_sessions')
      .where(
        'id_hash',
        'in',
        beyond.map((row) => row.id_hash),
      )
      .execute();
}

/** The shopper a session of this site belongs to; 'expired' for a session past its time (then deleted), null for none. */
export async function shopperOfSession(db: PlatformDb, siteId: number, idHash: string, now: number): Promise<Shopper | 'expired' | null> {
  const row = await db
    .selectFrom('shopper_sessions')
    .innerJoin('shoppers', 'shoppers.id', 'shopper_sessions.shopper_id')
    .select(['shoppers.id', 'shoppers.site_id', 'shoppers.email', 'shoppers.name', 'shopper_sessions.expires_at'])
    .where('shopper_sessions.id_hash', '=', idHash)
    .where('shopper_sessions.site_id', '=', siteId)
    .executeTakeFirst();
  if (!row) return null;
  if (Number(row.expires_at) <= now) {
    await deleteSession(db, siteId, idHash);
    return 'expired';
  }
  return toShopper(row);
}

export async function deleteSession(db: PlatformDb, siteId: number, idHash: string) {
  await db.deleteFrom('shopper_sessions').where('id_hash', '=', idHash).where('site_id', '=', siteId).execute();
}

/** Ends every session whose time is up by `now`, on all sites: those shoppers sign in again. */
export async function deleteSessionsEndedBy(db: Db, now: number) {
  await db.deleteFrom('shopper_sessions').where('expires_at', '<=', now).execute();
}

/** The site and address of a shopper's account, or null once the account is gone. */
export async function addressOfShopper(db: Db, shopperId: number): Promise<{ siteId: number; email: string } | null> {
  const row = await db.selectFrom('shoppers').select(['email', 'site_id']).where('id', '=', shopperId).executeTakeFirst();
  return row ? { siteId: Number(row.site_id), email: row.email } : null;
}

/**
 * Deletes the shopper and everything kept for them: sessions, saved cars, saved searches, the
 * alerts sent, and every e-mail and sign-in code of their address on the site (sent or not).
 * Returns the ids of the e-mail deleted: their local files (DATA_DIR/outbox/mail) go too.
 *
 * On SQLite what a delete frees is zeroed as it is written (`secure_delete`, set where the
 * database is opened), but the pages that held the rows stay in the WAL file, and in the main
 * file until the WAL is copied into it: a checkpoint does that and empties the WAL, so the
 * address is left in neither. It waits (busy_timeout) only for another process reading.
 */
export async function deleteShopper(db: PlatformDb, engine: DatabaseEngine, shopper: Shopper): Promise<number[]> {
  const mailIds = await retryingLockConflicts(() =>
    db.transaction().execute(async (trx) => {
      const mail = await trx
        .deleteFrom('shopper_mail')
        .where('site_id', '=', shopper.site_id)
        .where('email', '=', shopper.email)
        .returning('id')
        .execute();
      await trx.deleteFrom('shopper_sign_in_codes').where('site_id', '=', shopper.site_id).where('email', '=', shopper.email).execute();
      for (const table of ['shopper_sessions', 'garage_saved_cars', 'garage_searches', 'garage_alerts'] as const) {
        await trx.deleteFrom(table).where('shopper_id', '=', shopper.id).execute();
      }
      await trx.deleteFrom('shoppers').where('id', '=', shopper.id).execute();
      return mail.map((row) => Number(row.id));
    }),
  );
  if (engine === 'sqlite') await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
  return mailIds;
}

// -------------------------------------------------------------------------------- saved cars

/** The ids of the shopper's saved cars still in the site's stock, in the order they were saved. */
export async function watchlistOf(db: Db, shopper: Shopper): Promise<number[]> {
  const rows = await db
    .selectFrom('garage_saved_cars')
    .innerJoin('cars', (join) =>
      join.onRef('cars.id', '=', 'garage_saved_cars.car_id').onRef('cars.site_id', '=', 'garage_saved_cars.site_id'),
    )
    .select('garage_saved_cars.car_id')
    .where('garage_saved_cars.shopper_id', '=', shopper.id)
    .orderBy('garage_saved_cars.created_at')
    .orderBy('garage_saved_cars.car_id')
    .execute();
  return rows.map((row) => Number(row.car_id));
}

/**
 * Saves cars of the shopper's site into their garage, in the order given, as long as there is
 * room; ids of other sites' cars or of no car are left out. Returns the ids newly saved and
 * whether some were left out for lack of room.
 */
export async function saveCars(
  trx: Transaction<PlatformDatabase>,
  shopper: Shopper,
  carIds: readonly number[],
  now: number,
): Promise<{ saved: number[]; full: boolean }> {
  if (carIds.length === 0) return { saved: [], full: false };
  await lockShopper(trx, shopper.id, now);
  const held = new Set(
    (await trx.selectFrom('garage_saved_cars').select('car_id').where('shopper_id', '=', shopper.id).execute()).map((row) =>
      Number(row.car_id),
    ),
  );
  const wanted = [...new Set(carIds)].filter((id) => !held.has(id));
  if (wanted.length === 0) return { saved: [], full: false };
  const cars = new Map(
    (await trx.selectFrom('cars').select(['id', 'price']).where('site_id', '=', shopper.site_id).where('id', 'in', wanted).execute()).map(
      (row) => [Number(row.id), Number(row.price)],
    ),
  );
  const known = wanted.filter((id) => cars.has(id));
  const room = Math.max(0, maxSavedCars - held.size);
  const saved = known.slice(0, room);
  if (saved.length > 0) {
    await trx
      .insertInto('garage_saved_cars')
      .values(
        saved.map((carId, index) => ({
          shopper_id: shopper.id,
          car_id: carId,
          site_id: shopper.site_id,
          saved_price: cars.get(carId)!,
          created_at: now + index,
        })),
      )
      .onConflict((oc) => oc.columns(['shopper_id', 'car_id']).doNothing())
      .execute();
  }
  return { saved, full: saved.length < known.length };
}

export async function unsaveCar(db: PlatformDb, shopper: Shopper, carId: number) {
  await db.deleteFrom('garage_saved_cars').where('shopper_id', '=', shopper.id).where('car_id', '=', carId).execute();
}

/** Whether the car is one of the site's (not another site's, nor no car at all). */
export async function siteCarExists(db: PlatformDb, siteId: number, carId: number): Promise<boolean> {
  return !!(await db.selectFrom('cars').select('id').where('id', '=', carId).where('site_id', '=', siteId).executeTakeFirst());
}

export type SavedCar = {
  car_id: number;
  saved_at: number;
  /** The price when it was saved: a drop below it is e-mailed. */
  saved_price: number;
  /** The car as it is now (a sold car says so itself), or null once the dealer no longer shows it. */
  car: Car | null;
};

/** The shopper's saved cars with their current data, newest saved first. */
export async function savedCarsOf(db: PlatformDb, shopper: Shopper): Promise<SavedCar[]> {
  const rows = await db
    .selectFrom('garage_saved_cars')
    .leftJoin('cars', (join) =>
      join.onRef('cars.id', '=', 'garage_saved_cars.car_id').onRef('cars.site_id', '=', 'garage_saved_cars.site_id'),
    )
    .select(['garage_saved_cars.car_id', 'garage_saved_cars.created_at', 'garage_saved_cars.saved_price', 'cars.data'])
    .where('garage_saved_cars.shopper_id', '=', shopper.id)
    .orderBy('garage_saved_cars.created_at', 'desc')
    .orderBy('garage_saved_cars.car_id', 'desc')
    .execute();
  return rows.map((row) => {
    const car = row.data ? (JSON.parse(row.data) as Car) : null;
    return {
      car_id: Number(row.car_id),
      saved_at: Number(row.created_at),
      saved_price: Number(row.saved_price),
      car: car?.show_on_dealer_website ? car : null,
    };
  });
}

// ---------------------------------------------------------------------------- saved searches

export type SavedSearch = {
  id: number;
  name: string;
  path: string;
  /** The Meilisearch filter it alerts with; null: a bookmark, no alerts. */
  filter: string | (string | string[])[] | null;
  q: string | null;
  created_at: number;
};

const toSearch = (row: {
  id: number;
  name: string;
  path: string;
  filter: string | null;
  q: string | null;
  created_at: number;
}): SavedSearch => ({
  id: Number(row.id),
  name: row.name,
  path: row.path,
  filter: row.filter === null ? null : (JSON.parse(row.filter) as SavedSearch['filter']),
  q: row.q,
  created_at: Number(row.created_at),
});

export async function searchesOf(db: PlatformDb, shopper: Shopper): Promise<SavedSearch[]> {
  const rows = await db
    .selectFrom('garage_searches')
    .select(['id', 'name', 'path', 'filter', 'q', 'created_at'])
    .where('shopper_id', '=', shopper.id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toSearch);
}

/** Saves a search unless the shopper already keeps the most they may: then null. */
export async function insertSearch(
  db: PlatformDb,
  shopper: Shopper,
  search: { name: string; path: string; filter: SavedSearch['filter']; q: string | null },
  now: number,
): Promise<SavedSearch | null> {
  return db.transaction().execute(async (trx) => {
    await lockShopper(trx, shopper.id, now);
    const count = await trx
      .selectFrom('garage_searches')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('shopper_id', '=', shopper.id)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= maxSavedSearches) return null;
    const row = await trx
      .insertInto('garage_searches')
      .values({
        shopper_id: shopper.id,
        site_id: shopper.site_id,
        name: search.name,
        path: search.path,
        filter: search.filter === null ? null : JSON.stringify(search.filter),
        q: search.q,
        created_at: now,
      })
      .returning(['id', 'name', 'path', 'filter', 'q', 'created_at'])
      .executeTakeFirstOrThrow();
    return toSearch(row);
  });
}

export async function deleteSearch(db: PlatformDb, shopper: Shopper, searchId: number): Promise<boolean> {
  const deleted = await db.deleteFrom('garage_searches').where('id', '=', searchId).where('shopper_id', '=', shopper.id).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

// ------------------------------------------------------------------------------- garage alerts

/** Where the alert job's last complete look at the changed cars ended (cars.updated_at, ms), or null before its first. */
export async function alertsScannedUntil(db: Db, name: string): Promise<number | null> {
  const row = await db.selectFrom('garage_alert_progress').select('scanned_until').where('name', '=', name).executeTakeFirst();
  return row ? Number(row.scanned_until) : null;
}

/** Records that the alert job has looked at the cars changed up to `until`. */
export async function setAlertsScannedUntil(db: Db, name: string, until: number) {
  await db
    .insertInto('garage_alert_progress')
    .values({ name, scanned_until: until })
    .onConflict((oc) => oc.column('name').doUpdateSet({ scanned_until: until }))
    .execute();
}

/** Whether any shopper, on any site, watches anything: a saved car, or a saved search that alerts. */
export async function anyoneWatching(db: Db): Promise<boolean> {
  if (await db.selectFrom('garage_saved_cars').select('car_id').limit(1).executeTakeFirst()) return true;
  return !!(await db.selectFrom('garage_searches').select('id').where('filter', 'is not', null).limit(1).executeTakeFirst());
}

export type ChangedCar = { id: number; siteId: number; updatedAt: number };

/**
 * The cars of all sites written after `since`, oldest change first (then by id), at most `limit`
 * of them; `after` (the last car of the previous batch) pages on from there.
 */
export async function carsChangedSince(
  db: Db,
  since: number,
  after: { updatedAt: number; id: number } | null,
  limit: number,
): Promise<ChangedCar[]> {
  let query = db.selectFrom('cars').select(['id', 'site_id', 'updated_at']).where('updated_at', '>', since);
  if (after) {
    const { updatedAt, id } = after;
    query = query.where((eb) => eb.or([eb('updated_at', '>', updatedAt), eb.and([eb('updated_at', '=', updatedAt), eb('id', '>', id)])]));
  }
  const rows = await query.orderBy('updated_at').orderBy('id').limit(limit).execute();
  return rows.map((row) => ({ id: Number(row.id), siteId: Number(row.site_id), updatedAt: Number(row.updated_at) }));
}

/** Who saved which of these cars, on which site, and at what price (any site: the caller checks it is the car's). */
export async function saversOfCars(
  db: Db,
  carIds: readonly number[],
): Promise<{ shopperId: number; carId: number; siteId: number; savedPrice: number }[]> {
  const rows = await db
    .selectFrom('garage_saved_cars')
    .select(['shopper_id', 'car_id', 'site_id', 'saved_price'])
    .where('car_id', 'in', [...carIds])
    .execute();
  return rows.map((row) => ({
    shopperId: Number(row.shopper_id),
    carId: Number(row.car_id),
    siteId: Number(row.site_id),
    savedPrice: Number(row.saved_price),
  }));
}

/** These cars as they are now, with the site each belongs to (whether shown on the website or not). */
export async function carsWithSites(db: Db, carIds: readonly number[]): Promise<{ siteId: number; car: Car }[]> {
  const rows = await db
    .selectFrom('cars')
    .select(['id', 'site_id', 'data'])
    .where('id', 'in', [...carIds])
    .execute();
  return rows.map((row) => ({ siteId: Number(row.site_id), car: JSON.parse(row.data) as Car }));
}

export type AlertingSearch = {
  id: number;
  shopperId: number;
  name: string;
  filter: NonNullable<SavedSearch['filter']>;
  q: string | null;
  createdAt: number;
};

/** The site's saved searches that alert (those with a filter, bookmarks left out), of every shopper, oldest first. */
export async function alertingSearchesOf(db: Db, siteId: number): Promise<AlertingSearch[]> {
  const rows = await db
    .selectFrom('garage_searches')
    .select(['id', 'shopper_id', 'name', 'filter', 'q', 'created_at'])
    .where('site_id', '=', siteId)
    .where('filter', 'is not', null)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    shopperId: Number(row.shopper_id),
    name: row.name,
    filter: JSON.parse(row.filter!) as NonNullable<SavedSearch['filter']>,
    q: row.q,
    createdAt: Number(row.created_at),
  }));
}

export type AlertToRecord = { carId: number; kind: GarageAlertKind; searchId: number | null };

/**
 * Records alerts for the shopper, inside the caller's transaction (the one that stores their
 * e-mail). Returns those not sent before: an alert already recorded is left as it was.
 */
export async function recordAlerts(
  trx: Transaction<PlatformDatabase>,
  shopperId: number,
  alerts: readonly AlertToRecord[],
  now: number,
): Promise<{ carId: number; kind: GarageAlertKind }[]> {
  const rows = await trx
    .insertInto('garage_alerts')
    .values(
      alerts.map((alert) => ({ shopper_id: shopperId, car_id: alert.carId, kind: alert.kind, search_id: alert.searchId, created_at: now })),
    )
    .onConflict((oc) => oc.columns(['shopper_id', 'car_id', 'kind']).doNothing())
    .returning(['car_id', 'kind'])
    .execute();
  return rows.map((row) => ({ carId: Number(row.car_id), kind: row.kind }));
}
