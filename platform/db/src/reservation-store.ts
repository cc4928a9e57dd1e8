/**
 * Reservations (a shopper's hold on a car while paying its deposit, then the reservation it
 * becomes) and the one rule the database keeps for them: a car has at most one row whose
 * `active_car_id` is set. Every change that gives a car to a reservation sets it under that
 * unique index, so however many shoppers race for a car, one wins.
 */
import type { Selectable } from 'kysely';
import type { Car } from '@dealer/contracts/car';
import type { ReservationState } from '@dealer/rules/reservation';
import type { DatabaseEngine } from './database-engine';
import type { PlatformDb } from './database';
import type { ReservationsTable } from './schema';
import { pageOf, pastPosition, type Page, type PagePosition } from './page-cursor';
import { lockSiteRow } from './site-store';

export type StoredReservation = Omit<Selectable<ReservationsTable>, 'customer'> & { customer: ReservationCustomer };
export type ReservationCustomer = { first_name: string; last_name: string; email: string; phone: string };

const toReservation = (row: Selectable<ReservationsTable>): StoredReservation => ({
  ...row,
  id: Number(row.id),
  car_id: Number(row.car_id),
  active_car_id: row.active_car_id === null ? null : Number(row.active_car_id),
  site_id: Number(row.site_id),
  held_until: Number(row.held_until),
  amount_cents: Number(row.amount_cents),
  lead_id: row.lead_id === null ? null : Number(row.lead_id),
  created_at: Number(row.created_at),
  updated_at: Number(row.updated_at),
  customer: JSON.parse(row.customer) as ReservationCustomer,
});

export type NewHold = {
  siteId: number;
  carId: number;
  provider: string;
  amountCents: number;
  currency: string;
  customer: ReservationCustomer;
  secretHash: string;
  heldUntil: number;
  holder: Holder;
};

/** Who holds, each as the caller normalised it (e-mail in lower case, phone in one form, a client address key). */
export type Holder = { email: string; phone: string; address: string };

/** Live holds one e-mail, one phone or one client address may have on a site at once (0: no limit). */
export type HoldLimit = { perPerson: number; engine: DatabaseEngine };

export type HoldOutcome =
  | { ok: true; reservation: StoredReservation }
  | { ok: false; takenBy: 'holding' | 'reserved' }
  /** The holder already has `perPerson` live holds of other cars: one is free again at `freeAt` (ms) at the latest. */
  | { ok: false; overLimit: { freeAt: number } };

/**
 * Holds a car for a shopper: first lets go of a hold on it that has run out, then inserts the new
 * hold unless another row holds the car (the unique `active_car_id` decides, also between
 * concurrent transactions on PostgreSQL) or the holder already holds `limit.perPerson` other cars
 * of the site (counted in the same transaction, one hold of a site at a time).
 */
export async function holdCar(db: PlatformDb, hold: NewHold, now: number, limit: HoldLimit): Promise<HoldOutcome> {
  // Most racers arrive after the winner committed: one indexed read answers them without a
  // transaction. Only a shortcut: the insert below still decides when the car looks free.
  const holder = await db
    .selectFrom('reservations')
    .select(['state', 'held_until'])
    .where('active_car_id', '=', hold.carId)
    .executeTakeFirst();
  if (holder && (holder.state === 'reserved' || Number(holder.held_until) > now))
    return { ok: false, takenBy: holder.state === 'reserved' ? 'reserved' : 'holding' };
  return db.transaction().execute(async (trx): Promise<HoldOutcome> => {
    if (limit.perPerson > 0) {
      // PostgreSQL: one hold of a site at a time, so a shopper's racing holds cannot all pass the
      // count below (SQLite runs one transaction at a time anyway).
      if (limit.engine === 'postgres') await lockSiteRow(trx, hold.siteId);
      const freeAt = await holderFullUntil(trx, hold, limit.perPerson, now);
      if (freeAt !== null) return { ok: false, overLimit: { freeAt } };
    }
    await trx
      .updateTable('reservations')
      .set({ state: 'expired', active_car_id: null, updated_at: now })
      .where('active_car_id', '=', hold.carId)
      .where('state', '=', 'holding')
      .where('held_until', '<=', now)
      .execute();
    const inserted = await trx
      .insertInto('reservations')
      .values({
        site_id: hold.siteId,
        car_id: hold.carId,
        active_car_id: hold.carId,
        state: 'holding',
        held_until: hold.heldUntil,
        provider: hold.provider,
        amount_cents: hold.amountCents,
        currency: hold.currency,
        customer: JSON.stringify(hold.customer),
        secret_hash: hold.secretHash,
        holder_email: hold.holder.email,
        holder_phone: hold.holder.phone,
        holder_address: hold.holder.address,
        created_at: now,
        updated_at: now,
      })
      .onConflict((conflict) => conflict.column('active_car_id').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return { ok: true, reservation: toReservation(inserted) };
    const holder = await trx.selectFrom('reservations').select('state').where('active_car_id', '=', hold.carId).executeTakeFirst();
    return { ok: false, takenBy: holder?.state === 'reserved' ? 'reserved' : 'holding' };
  });
}

/**
 * Null while the holder may hold another car; otherwise when the first of their e-mail's, phone's
 * or address's live holds (of other cars: asking for the same car again is not another) that are
 * over the limit runs out, so that each is under it again.
 */
async function holderFullUntil(db: PlatformDb, hold: NewHold, perPerson: number, now: number): Promise<number | null> {
  const { email, phone, address } = hold.holder;
  const rows = await db
    .selectFrom('reservations')
    .select(['holder_email', 'holder_phone', 'holder_address', 'held_until'])
    .where('site_id', '=', hold.siteId)
    .where('state', '=', 'holding')
    .where('held_until', '>', now)
    .where('car_id', '<>', hold.carId)
    .where((eb) => eb.or([eb('holder_email', '=', email), eb('holder_phone', '=', phone), eb('holder_address', '=', address)]))
    .execute();
  let freeAt: number | null = null;
  for (const held of [
    rows.filter((row) => row.holder_email === email),
    rows.filter((row) => row.holder_phone === phone),
    rows.filter((row) => row.holder_address === address),
  ]) {
    if (held.length < perPerson) continue;
    const ends = held.map((row) => Number(row.held_until)).sort((a, b) => a - b);
    freeAt = Math.max(freeAt ?? 0, ends[ends.length - perPerson]!);
  }
  return freeAt;
}

/**
 * Writes on the car, for search and its page, until when a shopper holds it (`on_hold_until_timestamp`,
 * unix seconds; null when no one does), read from its live hold. Called after a hold starts or
 * ends early. The car's row is written first, so two calls for one car run one after the other
 * and the later one reads the later hold. Null when there is no such car.
 */
export async function markCarHold(db: PlatformDb, carId: number, now: number): Promise<{ siteId: number; car: Car } | null> {
  return db.transaction().execute(async (trx) => {
    const touched = await trx.updateTable('cars').set({ updated_at: now }).where('id', '=', carId).executeTakeFirst();
    if (Number(touched.numUpdatedRows) === 0) return null;
    const holder = await trx
      .selectFrom('reservations')
      .select('held_until')
      .where('active_car_id', '=', carId)
      .where('state', '=', 'holding')
      .where('held_until', '>', now)
      .executeTakeFirst();
    const row = await trx.selectFrom('cars').select(['site_id', 'data']).where('id', '=', carId).executeTakeFirstOrThrow();
    const car: Car = {
      ...(JSON.parse(row.data) as Car),
      on_hold_until_timestamp: holder ? Math.ceil(Number(holder.held_until) / 1000) : null,
    };
    await trx
      .updateTable('cars')
      .set({ data: JSON.stringify(car) })
      .where('id', '=', carId)
      .execute();
    return { siteId: Number(row.site_id), car };
  });
}

export async function findReservation(db: PlatformDb, id: number): Promise<StoredReservation | null> {
  const row = await db.selectFrom('reservations').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toReservation(row) : null;
}

/**
 * Moves a reservation from one of `from` to `to`, only if it is still in one of them (so two
 * deliveries of one event move it once). Returns whether this call moved it.
 */
export async function moveReservation(
  db: PlatformDb,
  id: number,
  from: readonly ReservationState[],
  to: ReservationState,
  now: number,
  extra: Partial<Pick<ReservationsTable, 'refund_ref' | 'last_error' | 'lead_id' | 'payment_ref'>> = {},
): Promise<boolean> {
  const keepsCar = to === 'holding' || to === 'reserved';
  const updated = await db
    .updateTable('reservations')
    .set((eb) => ({
      state: to,
      updated_at: now,
      ...extra,
      ...(keepsCar ? {} : { active_car_id: null }),
      ...(to === 'reserved' ? { active_car_id: eb.ref('car_id') } : {}),
    }))
    .where('id', '=', id)
    .where('state', 'in', [...from])
    .executeTakeFirst()
    .catch((error: unknown) => {
      // Taking the car back for a late payment while another reservation holds it: the unique index says no.
      if (to === 'reserved' && isUniqueViolation(error)) return { numUpdatedRows: 0n };
      throw error;
    });
  return Number(updated.numUpdatedRows) === 1;
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** Notes on a reservation that do not move it: the provider's payment id, the lead raised, the last failure. */
export async function noteOnReservation(
  db: PlatformDb,
  id: number,
  note: Partial<Pick<ReservationsTable, 'payment_ref' | 'last_error'>>,
  now: number,
): Promise<void> {
  await db
    .updateTable('reservations')
    .set({ ...note, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Records the dealer's lead of a reservation, once (a second finisher keeps the first id). */
export async function setReservationLead(db: PlatformDb, id: number, leadId: number, now: number): Promise<void> {
  await db
    .updateTable('reservations')
    .set({ lead_id: leadId, updated_at: now })
    .where('id', '=', id)
    .where('lead_id', 'is', null)
    .execute();
}

/** Lets go of every hold that has run out unpaid (the car is free again); returns how many. */
export async function expireRunOutHolds(db: PlatformDb, now: number): Promise<number> {
  const updated = await db
    .updateTable('reservations')
    .set({ state: 'expired', active_car_id: null, updated_at: now })
    .where('state', '=', 'holding')
    .where('held_until', '<=', now)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows);
}

/** Paid reservations whose car marking or dealer lead is not done yet (a crash between the steps), oldest first. */
export async function reservationsAwaitingLead(db: PlatformDb, limit: number): Promise<StoredReservation[]> {
  const rows = await db
    .selectFrom('reservations')
    .selectAll()
    .where('state', '=', 'reserved')
    .where('lead_id', 'is', null)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toReservation);
}

/** A page of a site's reservations, newest first (see page-cursor.ts). */
export async function reservationPage(
  db: PlatformDb,
  siteId: number,
  page: Page,
): Promise<{ reservations: StoredReservation[]; next: PagePosition | null }> {
  let query = db.selectFrom('reservations').selectAll().where('site_id', '=', siteId);
  if (page.after) query = query.where(pastPosition('created_at', 'desc', page.after));
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const { rows: reservations, next } = pageOf(rows.map(toReservation), page.limit, (row) => ({ key: row.created_at, id: row.id }));
  return { reservations, next };
}
