import type { Transaction } from 'kysely';
import type { BookingKind } from '@dealer/rules/booking-slots';
import type { ListedBooking } from './admin-pages';
import type { DatabaseEngine } from './database-engine';
import type { PlatformDb } from './database';
import type { PlatformDatabase } from './schema';
import { lockSiteRow } from './site-store';

type Trx = Transaction<PlatformDatabase>;

/** The start time was taken by someone else between showing it and saving it. */
export class BookingTaken extends Error {
  constructor() {
    super('booking time taken');
  }
}

/**
 * Who takes a seat, each as the caller normalised it: the shopper's e-mail (lower case) and phone
 * (national form), null when not given or not valid, and the client's address key (null for a lead
 * the platform raised itself).
 */
export type Booker = { email: string | null; phone: string | null; address: string | null };

/**
 * Upcoming seats one booker may hold on a site (0: no limit): per e-mail or phone at one location on
 * one local day and in the whole diary, and per client address at one location on one day.
 */
export type SeatLimits = { engine: DatabaseEngine; perContactPerDay: number; perContactUpcoming: number; perAddressPerDay: number };

export type SeatLimit = 'contact-day' | 'contact-upcoming' | 'address-day';

/** The booker already holds `max` of the seats a limit allows, asking for a seat at this location and time: the lead's transaction rolls back. */
export class BookingLimitReached extends Error {
  constructor(
    readonly limit: SeatLimit,
    readonly max: number,
    readonly asked: { locationId: number; startsAt: number },
  ) {
    super(`booking limit reached: ${limit}`);
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
  return row
    ? {
        locationId: Number(row.location_id),
        startsAt: Number(row.starts_at),
        heldUntil: row.held_until === null ? null : Number(row.held_until),
      }
    : null;
}

/** Which of the leads still hold a seat that is not confirmed (an unexpired hold of a partial lead). */
export async function leadsHoldingSeats(db: PlatformDb | Trx, leadIds: readonly number[], now: number): Promise<Set<number>> {
  if (leadIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('bookings')
    .select('lead_id')
    .distinct()
    .where('lead_id', 'in', [...leadIds])
    .where('held_until', '>', now)
    .execute();
  return new Set(rows.map((row) => Number(row.lead_id)));
}

export type SeatClaim = {
  siteId: number;
  leadId: number;
  locationId: number;
  kind: BookingKind;
  startsAt: number;
  capacity: number;
  heldUntil: number | null;
  booker: Booker;
  /** The location's local day the start falls on (epoch ms, `to` excluded): what the per-day limits count. */
  day: { from: number; to: number };
};

/**
 * Takes a seat at the start time for the lead, inside the lead's own transaction: its earlier
 * booking of that kind is given up first, expired holds at that time are cleared, the booker's
 * other live upcoming seats are counted against `limits` (BookingLimitReached), then the first
 * free seat (1..capacity) is inserted. The unique (location, kind, start, seat) index settles a
 * race for the last seat; the loser gets BookingTaken and its transaction rolls back.
 */
export async function claimBooking(trx: Trx, booking: SeatClaim, now: number, limits: SeatLimits): Promise<void> {
  await trx.deleteFrom('bookings').where('lead_id', '=', booking.leadId).where('kind', '=', booking.kind).execute();
  await trx
    .deleteFrom('bookings')
    .where('location_id', '=', booking.locationId)
    .where('kind', '=', booking.kind)
    .where('starts_at', '=', booking.startsAt)
    .where('held_until', 'is not', null)
    .where('held_until', '<=', now)
    .execute();
  await checkSeatLimits(trx, booking, now, limits);
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
        booker_email: booking.booker.email,
        booker_phone: booking.booker.phone,
        booker_address: booking.booker.address,
      })
      .onConflict((oc) => oc.columns(['location_id', 'kind', 'starts_at', 'seat']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return;
  }
  throw new BookingTaken();
}

/**
 * Throws BookingLimitReached when the booker already holds as many live upcoming seats (of other
 * leads) as a limit allows. On PostgreSQL the site's row is locked first, so a booker's racing
 * leads are counted one after the other and cannot all pass (SQLite runs one write transaction
 * at a time anyway).
 */
async function checkSeatLimits(trx: Trx, booking: SeatClaim, now: number, limits: SeatLimits): Promise<void> {
  const { email, phone, address } = booking.booker;
  const contact: { column: 'booker_email' | 'booker_phone'; value: string }[] = [];
  if (limits.perContactPerDay > 0 || limits.perContactUpcoming > 0) {
    if (email) contact.push({ column: 'booker_email', value: email });
    if (phone) contact.push({ column: 'booker_phone', value: phone });
  }
  const byAddress = limits.perAddressPerDay > 0 && address !== null;
  if (contact.length === 0 && !byAddress) return;
  if (limits.engine === 'postgres') await lockSiteRow(trx, booking.siteId);
  const sameDay = (row: { location_id: number; starts_at: number }) =>
    Number(row.location_id) === booking.locationId && Number(row.starts_at) >= booking.day.from && Number(row.starts_at) < booking.day.to;
  const rows = await trx
    .selectFrom('bookings')
    .select(['location_id', 'starts_at', 'booker_email', 'booker_phone', 'booker_address'])
    .where('site_id', '=', booking.siteId)
    .where('lead_id', '<>', booking.leadId)
    .where('starts_at', '>', now)
    .where((eb) => eb.or([eb('held_until', 'is', null), eb('held_until', '>', now)]))
    .where((eb) =>
      eb.or([
        ...contact.map((key) => eb(key.column, '=', key.value)),
        ...(byAddress
          ? [
              eb.and([
                eb('booker_address', '=', address),
                eb('location_id', '=', booking.locationId),
                eb('starts_at', '>=', booking.day.from),
                eb('starts_at', '<', booking.day.to),
              ]),
            ]
          : []),
      ]),
    )
    .execute();
  // A seat under both the e-mail and the phone is one seat.
  const theirs = rows.filter((row) => contact.some((key) => row[key.column] === key.value));
  const asked = { locationId: booking.locationId, startsAt: booking.startsAt };
  if (limits.perContactPerDay > 0 && theirs.filter(sameDay).length >= limits.perContactPerDay)
    throw new BookingLimitReached('contact-day', limits.perContactPerDay, asked);
  if (limits.perContactUpcoming > 0 && theirs.length >= limits.perContactUpcoming)
    throw new BookingLimitReached('contact-upcoming', limits.perContactUpcoming, asked);
  if (byAddress && rows.filter((row) => row.booker_address === address && sameDay(row)).length >= limits.perAddressPerDay) {
    throw new BookingLimitReached('address-day', limits.perAddressPerDay, asked);
  }
}

/**
 * A dealer gives a booking's seat back (and the car its test drive took): others may book the
 * time again at once. The lead is kept as it is. Null: no such booking (on that site, when given).
 */
export async function releaseBooking(db: PlatformDb, where: { id: number; siteId: number | null }): Promise<ListedBooking | null> {
  return db.transaction().execute(async (trx) => {
    let query = trx.deleteFrom('bookings').where('id', '=', where.id);
    if (where.siteId !== null) query = query.where('site_id', '=', where.siteId);
    const row = await query.returning(['id', 'lead_id', 'location_id', 'kind', 'starts_at', 'held_until']).executeTakeFirst();
    if (!row) return null;
    if (row.kind === 'appointment') await trx.deleteFrom('car_holds').where('lead_id', '=', row.lead_id).execute();
    return {
      id: Number(row.id),
      lead_id: Number(row.lead_id),
      location_id: Number(row.location_id),
      kind: row.kind,
      starts_at: Number(row.starts_at),
      confirmed: row.held_until === null,
    };
  });
}

/** Frees whatever the lead held (it no longer asks for a time). */
export async function releaseBookings(trx: Trx, leadId: number): Promise<void> {
  await trx.deleteFrom('bookings').where('lead_id', '=', leadId).execute();
  await trx.deleteFrom('car_holds').where('lead_id', '=', leadId).execute();
}

/** The half-hour blocks (epoch ms) a car is out on test drives between two times, other leads' only. */
export async function busyCarBlocks(
  db: PlatformDb | Trx,
  where: { carId: number; from: number; to: number; now: number; exceptLeadId?: number },
): Promise<Set<number>> {
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
      .values({
        site_id: hold.siteId,
        lead_id: hold.leadId,
        car_id: hold.carId,
        block_start: block,
        held_until: hold.heldUntil,
        created_at: now,
      })
      .onConflict((oc) => oc.columns(['car_id', 'block_start']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) throw new BookingTaken();
  }
}
