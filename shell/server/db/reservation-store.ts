/**
 * Reservations (a shopper's hold on a car while paying its deposit, then the reservation it
 * becomes) and the one rule the database keeps for them: a car has at most one row whose
 * `active_car_id` is set. Every change that gives a car to a reservation sets it under that
 * unique index, so however many shoppers race for a car, one wins.
 */
import type { Selectable } from 'kysely';
import type { ReservationState } from '@dealer/rules/reservation';
import type { PlatformDb } from './database';
import type { ReservationsTable } from './schema';

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
};

export type HoldOutcome = { ok: true; reservation: StoredReservation } | { ok: false; takenBy: 'holding' | 'reserved' };

/**
 * Holds a car for a shopper: first lets go of a hold on it that has run out, then inserts the new
 * hold unless another row holds the car (the unique `active_car_id` decides, also between
 * concurrent transactions on PostgreSQL).
 */
export async function holdCar(db: PlatformDb, hold: NewHold, now: number): Promise<HoldOutcome> {
  return db.transaction().execute(async (trx) => {
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
    .set((eb) => ({ state: to, updated_at: now, ...extra, ...(keepsCar ? {} : { active_car_id: null }), ...(to === 'reserved' ? { active_car_id: eb.ref('car_id') } : {}) }))
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
