import type { Transaction } from 'kysely';
import type { BookingKind } from '@dealer/rules/booking-slots';
import type { PlatformDb } from './database';
import type { PlatformDatabase } from './schema';

type Trx = Transaction<PlatformDatabase>;

/** The start time was taken by someone else between showing it and saving it. */
export class BookingTaken extends Error {
  constructor() {
    super('booking time taken');
  }
}

/** Seats taken per start time (epoch ms) at a location: confirmed bookings and holds still live. */
export async function takenSeats(
  db: PlatformDb | Trx,
  where: { locationId: number; kind: BookingKind; from: number; to: number; now: number; exceptLeadId?: number },
): Promise<Map<number, number>> {
  let query = db
    .selectFrom('bookings')
    .select(['starts_at', (eb) => eb.fn.countAll().as('taken')])
    .where('location_id', '=', where.locationId)
    .where('kind', '=', where.kind)
    .where('starts_at', '>=', where.from)
    .where('starts_at', '<=', where.to)
    .where((eb) => eb.or([eb('held_until', 'is', null), eb('held_until', '>', where.now)]));
  if (where.exceptLeadId !== undefined) query = query.where('lead_id', '<>', where.exceptLeadId);
  const rows = await query.groupBy('starts_at').execute();
  return new Map(rows.map((row) => [Number(row.starts_at), Number(row.taken)]));
}

/** The live booking a lead holds (a confirmed one or an unexpired hold), if any. */
export async function bookingOfLead(db: PlatformDb | Trx, leadId: number, kind: BookingKind, now: number) {
  const row = await db
    .selectFrom('bookings')
    .select(['location_id', 'starts_at', 'held_until'])
    .where('lead_id', '=', leadId)
    .where('kind', '=', kind)
    .where((eb) => eb.or([eb('held_until', 'is', null), eb('held_until', '>', now)]))
    .executeTakeFirst();
  return row ? { locationId: Number(row.location_id), startsAt: Number(row.starts_at), heldUntil: row.held_until === null ? null : Number(row.held_until) } : null;
}

/** Which of the leads still hold a seat that is not confirmed (an unexpired hold of a partial lead). */
export async function leadsHoldingSeats(db: PlatformDb | Trx, leadIds: readonly number[], now: number): Promise<Set<number>> {
  if (leadIds.length === 0) return new Set();
  const rows = await db.selectFrom('bookings').select('lead_id').distinct().where('lead_id', 'in', [...leadIds]).where('held_until', '>', now).execute();
  return new Set(rows.map((row) => Number(row.lead_id)));
}

/**
 * Takes a seat at the start time for the lead, inside the lead's own transaction: its earlier
 * booking of that kind is given up first, expired holds at that time are cleared, then the first
 * free seat (1..capacity) is inserted. The unique (location, kind, start, seat) index settles a
 * race for the last seat; the loser gets BookingTaken and its transaction rolls back.
 */
export async function claimBooking(
  trx: Trx,
  booking: { siteId: number; leadId: number; locationId: number; kind: BookingKind; startsAt: number; capacity: number; heldUntil: number | null },
  now: number,
): Promise<void> {
  await trx.deleteFrom('bookings').where('lead_id', '=', booking.leadId).where('kind', '=', booking.kind).execute();
  await trx
    .deleteFrom('bookings')
    .where('location_id', '=', booking.locationId)
    .where('kind', '=', booking.kind)
    .where('starts_at', '=', booking.startsAt)
    .where('held_until', 'is not', null)
    .where('held_until', '<=', now)
    .execute();
  for (let seat = 1; seat <= booking.capacity; seat += 1) {
    const inserted = await trx
      .insertInto('bookings')
      .values({
        site_id: booking.siteId,
        lead_id: booking.leadId,
        location_id: booking.locationId,
        kind: booking.kind,
        starts_at: booking.startsAt,
        seat,
        held_until: booking.heldUntil,
        created_at: now,
      })
      .onConflict((oc) => oc.columns(['location_id', 'kind', 'starts_at', 'seat']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return;
  }
  throw new BookingTaken();
}

/** Frees whatever the lead held (it no longer asks for a time). */
export async function releaseBookings(trx: Trx, leadId: number): Promise<void> {
  await trx.deleteFrom('bookings').where('lead_id', '=', leadId).execute();
  await trx.deleteFrom('car_holds').where('lead_id', '=', leadId).execute();
}

/** The half-hour blocks (epoch ms) a car is out on test drives between two times, other leads' only. */
export async function busyCarBlocks(db: PlatformDb | Trx, where: { carId: number; from: number; to: number; now: number; exceptLeadId?: number }): Promise<Set<number>> {
  let query = db
    .selectFrom('car_holds')
    .select('block_start')
    .where('car_id', '=', where.carId)
    .where('block_start', '>=', where.from)
    .where('block_start', '<=', where.to)
    .where((eb) => eb.or([eb('held_until', 'is', null), eb('held_until', '>', where.now)]));
  if (where.exceptLeadId !== undefined) query = query.where('lead_id', '<>', where.exceptLeadId);
  return new Set((await query.execute()).map((row) => Number(row.block_start)));
}

/**
 * Takes the car for the blocks of its test drive, in the lead's transaction (after its seat):
 * the lead's earlier blocks are given up, expired holds on these blocks cleared, then each block
 * inserted; a block another lead has means the car is out then (BookingTaken, rolled back).
 */
export async function claimCar(
  trx: Trx,
  hold: { siteId: number; leadId: number; carId: number; blocks: readonly number[]; heldUntil: number | null },
  now: number,
): Promise<void> {
  await trx.deleteFrom('car_holds').where('lead_id', '=', hold.leadId).execute();
  await trx
    .deleteFrom('car_holds')
    .where('car_id', '=', hold.carId)
    .where('block_start', 'in', [...hold.blocks])
    .where('held_until', 'is not', null)
    .where('held_until', '<=', now)
    .execute();
  for (const block of hold.blocks) {
    const inserted = await trx
      .insertInto('car_holds')
      .values({ site_id: hold.siteId, lead_id: hold.leadId, car_id: hold.carId, block_start: block, held_until: hold.heldUntil, created_at: now })
      .onConflict((oc) => oc.columns(['car_id', 'block_start']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) throw new BookingTaken();
  }
}
