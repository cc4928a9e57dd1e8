import type { Location } from '@dealer/contracts/location';
import type { SiteConfig } from '@dealer/contracts/site';
import {
  availableBookingDays,
  heldUntilOf,
  bookingMessages,
  bookingDateRange,
  bookingDayOf,
  bookingPolicies,
  carBlocksOf,
  daysOffer,
  describeBookingTime,
  locationTimeZone,
  parseBookingTime,
  type BookingDay,
  type BookingKind,
  type BookingPolicy,
} from '@dealer/rules/booking-slots';
import { positiveId } from '@dealer/rules/ids';
import { validateFields, type FieldRule } from '@dealer/rules/lead-validation';
import { isTestPhoneNumber, normalisePhone } from '@dealer/rules/phone';
import { publicHolidayDates } from '@dealer/rules/public-holidays';
import { bookableLocations as bookableOf, bookingKindOf, bookingLocationFor } from '@dealer/rules/booking-locations';
import type { PlatformDb } from '@dealer/db/database';
import { bookingOfLead, busyCarBlocks, takenSeats, type Booker, type BookingLimitReached } from '@dealer/db/booking-store';
import { findCarById } from '@dealer/db/car-store';
import { phoneRuleOfSite } from './lead-schema';

/** The lead fields a booking time may come in (the form's dateTime first). */
const timeFields = ['dateTime', 'date_time', 'test_drive_date'] as const;

/** The locations of a dealership that take this kind of booking, the primary one first. */
export const bookableLocations = (site: SiteConfig, kind: BookingKind, dealershipId?: number): Location[] =>
  bookableOf(site.locations, kind, dealershipId);

export function bookingPolicyOf(site: SiteConfig, kind: BookingKind): BookingPolicy {
  const capacity = site.lead_settings?.booking_capacity?.[kind];
  return capacity ? { ...bookingPolicies[kind], capacity } : bookingPolicies[kind];
}

export type Availability = { location: Location; zone: string; policy: BookingPolicy; days: BookingDay[] };

/** The times a location offers now, less the seats taken (a lead's own booking does not count against it). */
export async function availabilityAt(
  db: PlatformDb,
  site: SiteConfig,
  location: Location,
  kind: BookingKind,
  now: number,
  opts: { exceptLeadId?: number; carId?: number } = {},
): Promise<Availability> {
  const basis = slotBasis(site, location, kind, now);
  const window = { from: now, to: now + (basis.policy.daysAhead + 1) * 86_400_000, now, exceptLeadId: opts.exceptLeadId };
  const taken = await takenSeats(db, { locationId: location.id, kind, ...window });
  // A car already out on another test drive over any part of a slot's hour is not offered then.
  const carBusy =
    opts.carId !== undefined && basis.policy.carOutMinutes > 0 ? await busyCarBlocks(db, { carId: opts.carId, ...window }) : undefined;
  return { location, zone: basis.zone, policy: basis.policy, days: availableBookingDays({ ...basis, taken, carBusy }) };
}

/** The car a lead is about when it is this site's own (the only car whose test drives are tracked). */
export async function siteCarId(db: PlatformDb, site: SiteConfig, value: unknown): Promise<number | undefined> {
  const id = positiveId(value);
  if (id === undefined) return undefined;
  const found = await findCarById(db, id);
  return found?.siteId === site.id ? id : undefined;
}

export type BookingRequest =
  | { kind: 'none' }
  | { kind: 'refused'; status: 400 | 409 | 429; field: string; message: string }
  | {
      kind: 'book';
      /** The lead field the time came in (its errors go beside it). */
      field: string;
      booking: {
        kind: BookingKind;
        locationId: number;
        startsAt: number;
        capacity: number;
        heldUntil: number | null;
        booker: Booker;
        /** The location's local day of the start, which the per-day limits count. */
        day: { from: number; to: number };
      };
      /** The dealer's car the test drive takes out, block by block. */
      car: { carId: number; blocks: number[] } | null;
      fields: Record<string, unknown>;
    };

/**
 * What a lead asks of the diary: nothing (no booking time, or a lead that is not a test drive or
 * service), a refusal with the field's message, or a seat to take, with the fields the lead gains
 * (the time normalised to the location's local time and described for the dealer).
 *
 * A time is accepted when the location offers it now, or when this lead already holds it (a
 * multi-step form completing after the notice period passed keeps its time).
 */
export async function bookingRequestOf(
  db: PlatformDb,
  site: SiteConfig,
  lead: Record<string, unknown>,
  opts: {
    now: number;
    leadId?: number;
    complete: boolean;
    leadStartedAt?: number;
    /** The client's address key, which the per-address limit counts; null for a lead the platform raised itself. */
    client: string | null;
  },
): Promise<BookingRequest> {
  const kind = bookingKindOf(lead);
  const field = timeFields.find((name) => typeof lead[name] === 'string' && (lead[name] as string).trim() !== '');
  if (!kind || !field) return { kind: 'none' };
  const location = bookingLocationFor(site.locations, kind, lead);
  if (!location) return { kind: 'none' };
  const zone = locationTimeZone(site.locale, location.address.state);
  const startsAt = parseBookingTime(lead[field], zone);
  if (startsAt === null) return { kind: 'refused', status: 400, field, message: bookingMessages.unreadable };

  const policy = bookingPolicyOf(site, kind);
  const carId = policy.carOutMinutes > 0 ? await siteCarId(db, site, lead.car_id) : undefined;
  const held = opts.leadId !== undefined ? await bookingOfLead(db, opts.leadId, kind, opts.now) : null;
  const keepsItsTime = held !== null && held.locationId === location.id && held.startsAt === startsAt;
  if (!keepsItsTime) {
    const availability = await availabilityAt(db, site, location, kind, opts.now, { exceptLeadId: opts.leadId, carId });
    if (!daysOffer(availability.days, startsAt)) {
      // Offered to nobody at all, or only taken meanwhile: the shopper is told which.
      const wouldBeOffered = daysOffer(availableBookingDays(slotBasis(site, location, kind, opts.now)), startsAt);
      return wouldBeOffered
        ? { kind: 'refused', status: 409, field, message: bookingMessages.taken }
        : { kind: 'refused', status: 400, field, message: bookingMessages.notOffered };
    }
  }
  // A partial lead saved past its hold's lifetime keeps its time as asked, with no seat, until it completes.
  const heldUntil = opts.complete ? null : heldUntilOf(opts.now, opts.leadStartedAt ?? opts.now);
  if (!opts.complete && heldUntil === null) return { kind: 'none' };
  return {
    kind: 'book',
    field,
    booking: {
      kind,
      locationId: location.id,
      startsAt,
      capacity: policy.capacity,
      heldUntil,
      booker: bookerOf(site, lead, opts.client),
      day: bookingDayOf(startsAt, zone, site.locale),
    },
    car: carId !== undefined ? { carId, blocks: carBlocksOf(startsAt, policy) } : null,
    fields: { booking_time: `${describeBookingTime(startsAt, zone, site.locale)} at ${location.name}`, booking_location_id: location.id },
  };
}

const contactRules: FieldRule[] = [
  { name: 'email', type: 'email' },
  { name: 'phone', type: 'phone' },
];

/**
 * Whom a lead's seat counts against: its e-mail in lower case and its phone in the national form,
 * each only when it passes the form's own rule (the fixed test number is nobody's), and the client.
 */
export function bookerOf(site: SiteConfig, lead: Record<string, unknown>, client: string | null): Booker {
  const phoneRule = phoneRuleOfSite(site);
  const errors = validateFields(contactRules, lead, { phoneRule, locale: site.locale });
  const phone = errors.phone ? null : String(lead.phone);
  return {
    email: errors.email ? null : String(lead.email).trim().toLowerCase(),
    phone: phone === null || isTestPhoneNumber(phone) ? null : normalisePhone(phone, phoneRule),
    address: client,
  };
}

/**
 * The refusal of a seat past one of the booker's limits, beside the time picker like a time just
 * taken: what they already have and how to change it. The lead is not saved; the form keeps what
 * the shopper typed, to pick another day or send the enquiry without a time.
 */
export function overLimitRefusal(
  site: SiteConfig,
  field: string,
  reached: BookingLimitReached,
): Extract<BookingRequest, { kind: 'refused' }> {
  const location = site.locations.find((entry) => entry.id === reached.asked.locationId);
  const where = location?.name ?? 'this dealership';
  const call = location?.contact_detail.phone ? `call us on ${location.contact_detail.phone}` : 'call us';
  const day = bookingDayOf(reached.asked.startsAt, locationTimeZone(site.locale, location?.address.state ?? ''), site.locale).label;
  const { max } = reached;
  switch (reached.limit) {
    case 'contact-day':
      return {
        kind: 'refused',
        status: 409,
        field,
        message: `You already have ${max === 1 ? 'a booking' : `${max} bookings`} at ${where} on ${day}. Please choose another day, or ${call} to change ${max === 1 ? 'it' : 'them'}.`,
      };
    case 'contact-upcoming':
      return {
        kind: 'refused',
        status: 409,
        field,
        message: `You already have ${max === 1 ? 'an upcoming booking' : `${max} upcoming bookings`} with us. Please ${call} to change ${max === 1 ? 'it' : 'one of them'}.`,
      };
    case 'address-day':
      return {
        kind: 'refused',
        status: 429,
        field,
        message: `${max === 1 ? 'A booking' : `${max} bookings`} at ${where} on ${day} ${max === 1 ? 'has' : 'have'} already been made from your connection. Please choose another day, or ${call} to book.`,
      };
  }
}

/** What a location's times are made of: its hours, zone, the site's policy and its public holidays (unless the site books on them). */
function slotBasis(site: SiteConfig, location: Location, kind: BookingKind, now: number) {
  const zone = locationTimeZone(site.locale, location.address.state);
  const policy = bookingPolicyOf(site, kind);
  const range = bookingDateRange(now, zone, policy);
  const closedDates = site.lead_settings?.bookings_on_public_holidays
    ? undefined
    : publicHolidayDates(site.locale, location.address.state, range.from, range.to);
  return { hours: location.contact_detail.opening_hours, zone, locale: site.locale, now, policy, closedDates };
}
