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
}

/** A dealer's view: the bookings of a location between two times, with their leads. */
export async function listBookings(db: PlatformDb, siteId: number, where: { from: number; to: number; now: number }) {
  const rows = await db
    .selectFrom('bookings')
    .select(['lead_id', 'location_id', 'kind', 'starts_at', 'held_until'])
    .where('site_id', '=', siteId)
    .where('starts_at', '>=', where.from)
    .where('starts_at', '<=', where.to)
    .where((eb) => eb.or([eb('held_until', 'is', null), eb('held_until', '>', where.now)]))
    .orderBy('starts_at')
    .execute();
  return rows.map((row) => ({
    lead_id: Number(row.lead_id),
    location_id: Number(row.location_id),
    kind: row.kind,
    starts_at: Number(row.starts_at),
    confirmed: row.held_until === null,
  }));
}
