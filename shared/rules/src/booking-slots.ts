// Server-side rules: luxon does the time-zone arithmetic, so no browser bundle should import this file.
import { DateTime } from 'luxon';
import type { OpeningHoursEntry } from '@dealer/contracts/location';
import type { SiteLocale } from '@dealer/contracts/site';
import type { BookingDay, BookingSlot } from '@dealer/contracts/booking-values';

import type { BookingKind } from './booking-locations';

export type { BookingKind } from './booking-locations';

export type BookingPolicy = {
  /** Minutes between one start time and the next. */
  slotMinutes: number;
  /** The soonest bookable start, in minutes from now (a salesperson needs time to get the car ready). */
  noticeMinutes: number;
  /** Service drop-offs are never same-day: the workshop plans its day the evening before. */
  sameDay: boolean;
  /** How many days from today are offered, today included. */
  daysAhead: number;
  /** The last start is this many minutes before closing (a test drive takes about an hour). */
  lastStartBeforeCloseMinutes: number;
  /** Drop-offs end at this local time even on days the workshop stays open later. */
  latestStart: string | null;
  /** Bookings one location takes at the same start time. */
  capacity: number;
  /** How long the booked car is out (test drives); 0: the booking takes no car of the dealer's. */
  carOutMinutes: number;
};

export const bookingPolicies: Record<BookingKind, BookingPolicy> = {
  appointment: {
    slotMinutes: 30,
    noticeMinutes: 120,
    sameDay: true,
    daysAhead: 14,
    lastStartBeforeCloseMinutes: 60,
    latestStart: null,
    capacity: 2,
    carOutMinutes: 60,
  },
  service: {
    slotMinutes: 30,
    noticeMinutes: 0,
    sameDay: false,
    daysAhead: 21,
    lastStartBeforeCloseMinutes: 120,
    latestStart: '11:00',
    capacity: 3,
    carOutMinutes: 0,
  },
};

/** The first and last local dates (YYYY-MM-DD) a query can offer: what to look public holidays up for. */
export function bookingDateRange(now: number, zone: string, policy: BookingPolicy): { from: string; to: string } {
  const today = DateTime.fromMillis(now, { zone }).startOf('day');
  return { from: today.toISODate()!, to: today.plus({ days: policy.daysAhead }).toISODate()! };
}

/** A held (not yet completed) booking keeps its time this long; an abandoned form then frees it. */
export const bookingHoldMinutes = 30;
/** Saving a partly filled form renews its hold, but never past this long after the lead began: a form left open (or a script saving it) cannot keep a time forever. */
export const bookingHoldLifetimeMinutes = 120;

/** Until when a partly filled form's time is held, or null once its lifetime is over (it then holds no seat). */
export function heldUntilOf(now: number, leadStartedAt: number): number | null {
  const until = Math.min(now + bookingHoldMinutes * 60_000, leadStartedAt + bookingHoldLifetimeMinutes * 60_000);
  return until > now ? until : null;
}

export const bookingMessages = {
  taken: 'That time has just been booked. Please choose another time.',
  notOffered: 'Please choose one of the available times.',
  unreadable: 'Please choose a date and time from the list.',
} as const;

const auZones: Record<string, string> = {
  NSW: 'Australia/Sydney',
  ACT: 'Australia/Sydney',
  VIC: 'Australia/Melbourne',
  TAS: 'Australia/Hobart',
  QLD: 'Australia/Brisbane',
  SA: 'Australia/Adelaide',
  WA: 'Australia/Perth',
  NT: 'Australia/Darwin',
};

const usZones: Record<string, string> = {
  ...Object.fromEntries(
    [
      'CT',
      'DE',
      'DC',
      'FL',
      'GA',
      'ME',
      'MD',
      'MA',
      'MI',
      'NH',
      'NJ',
      'NY',
      'NC',
      'OH',
      'PA',
      'RI',
      'SC',
      'VT',
      'VA',
      'WV',
      'IN',
      'KY',
    ].map((s) => [s, 'America/New_York']),
  ),
  ...Object.fromEntries(
    ['AL', 'AR', 'IL', 'IA', 'KS', 'LA', 'MN', 'MS', 'MO', 'NE', 'ND', 'OK', 'SD', 'TN', 'TX', 'WI'].map((s) => [s, 'America/Chicago']),
  ),
  ...Object.fromEntries(['CO', 'ID', 'MT', 'NM', 'UT', 'WY'].map((s) => [s, 'America/Denver'])),
  AZ: 'America/Phoenix',
  ...Object.fromEntries(['CA', 'NV', 'OR', 'WA'].map((s) => [s, 'America/Los_Angeles'])),
  AK: 'America/Anchorage',
  HI: 'Pacific/Honolulu',
};

/** The IANA time zone a location keeps its hours in, from its site's locale and its state. */
export function locationTimeZone(locale: SiteLocale, state: string): string {
  const key = state.trim().toUpperCase();
  if (locale === 'en-NZ') return 'Pacific/Auckland';
  if (locale === 'en-US') return usZones[key] ?? 'America/New_York';
  return auZones[key] ?? 'Australia/Sydney';
}

// A slot's start is the location's local time with its offset (2026-11-23T09:00:00+11:00): what
// the form sends and the dealer reads. Labels: '9:00 am' (en-AU/NZ), '9:00 AM' (en-US).
export type { BookingDay, BookingSlot } from '@dealer/contracts/booking-values';

export type SlotQuery = {
  hours: readonly OpeningHoursEntry[];
  zone: string;
  locale: SiteLocale;
  now: number;
  policy: BookingPolicy;
  /** How many bookings hold each start (epoch ms), already filtered to live holds and confirmed bookings. */
  taken?: ReadonlyMap<number, number>;
  /** Local dates (YYYY-MM-DD) the location is closed whatever its weekly hours say: public holidays. */
  closedDates?: ReadonlySet<string>;
  /** Blocks (epoch ms) the car asked about is already out on other test drives. */
  carBusy?: ReadonlySet<number>;
};

/**
 * The blocks (epoch ms) a car is out for a test drive starting then: every cell of one fixed
 * half-hour grid that the drive touches, so two drives overlapping in time always share a block,
 * whichever locations' hours they started on.
 */
export function carBlocksOf(start: number, policy: BookingPolicy): number[] {
  const cell = 30 * 60_000;
  const end = start + policy.carOutMinutes * 60_000;
  const blocks: number[] = [];
  for (let block = Math.floor(start / cell) * cell; block < end; block += cell) blocks.push(block);
  return blocks;
}

/** 'HH:mm' → minutes after midnight; null for anything else. */
function minutesOf(time: string | null): number | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(time?.trim() ?? '');
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  return hours < 24 && minutes < 60 ? hours * 60 + minutes : null;
}

/**
 * The start times a location offers, day by day in its own time zone: from opening until the
 * policy's last start, every slotMinutes, not before the notice period, skipping closed days,
 * public holidays and full slots. Days without a free time are left out.
 */
export function availableBookingDays(query: SlotQuery): BookingDay[] {
  const { policy, zone, locale } = query;
  const today = DateTime.fromMillis(query.now, { zone }).startOf('day');
  const earliest = query.now + policy.noticeMinutes * 60_000;
  const days: BookingDay[] = [];
  for (let offset = policy.sameDay ? 0 : 1; offset < policy.daysAhead; offset += 1) {
    const day = today.plus({ days: offset });
    if (query.closedDates?.has(day.toISODate()!)) continue;
    const entry = query.hours.find((hours) => hours.weekday === day.weekday % 7);
    if (!entry || entry.status !== 'Open') continue;
    const open = minutesOf(entry.open);
    const close = minutesOf(entry.close);
    if (open === null || close === null || close <= open) continue;
    const latest = Math.min(close - policy.lastStartBeforeCloseMinutes, minutesOf(policy.latestStart) ?? Number.POSITIVE_INFINITY);
    const slots: BookingSlot[] = [];
    for (let minute = open; minute <= latest; minute += policy.slotMinutes) {
      const start = day.set({ hour: Math.floor(minute / 60), minute: minute % 60 });
      // A local time skipped by a daylight-saving change is not offered.
      if (start.hour * 60 + start.minute !== minute) continue;
      const ms = start.toMillis();
      if (ms < earliest) continue;
      if ((query.taken?.get(ms) ?? 0) >= policy.capacity) continue;
      const carBusy = query.carBusy;
      if (carBusy?.size && carBlocksOf(ms, policy).some((block) => carBusy.has(block))) continue;
      slots.push({
        start: start.toISO({ suppressMilliseconds: true })!,
        label: start.setLocale(locale).toLocaleString({ hour: 'numeric', minute: '2-digit' }),
      });
    }
    if (slots.length)
      days.push({
        date: day.toISODate()!,
        label: day.setLocale(locale).toLocaleString({ weekday: 'short', day: 'numeric', month: 'short' }),
        slots,
      });
  }
  return days;
}

/**
 * Reads a booking time a form sent: an ISO date-time with an offset, or a local date-time
 * (as a plain datetime-local input sends it) read in the location's zone. Null: unreadable.
 */
export function parseBookingTime(value: unknown, zone: string): number | null {
  if (typeof value !== 'string' || !value.trim()) return null;
  const parsed = DateTime.fromISO(value.trim(), { zone, setZone: false });
  return parsed.isValid ? parsed.toMillis() : null;
}

/** The booking time as the dealer reads it: 'Mon 23 Nov 2026, 9:00 am (Australia/Sydney)'. */
export function describeBookingTime(ms: number, zone: string, locale: SiteLocale): string {
  const local = DateTime.fromMillis(ms, { zone }).setLocale(locale);
  return `${local.toLocaleString({ weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' })}, ${local.toLocaleString({ hour: 'numeric', minute: '2-digit' })} (${zone})`;
}

/** The location's local day a start falls on: its bounds (epoch ms, `to` the next day's start) and its name ('Saturday 14 December'). */
export function bookingDayOf(ms: number, zone: string, locale: SiteLocale): { from: number; to: number; label: string } {
  const day = DateTime.fromMillis(ms, { zone }).startOf('day');
  return {
    from: day.toMillis(),
    to: day.plus({ days: 1 }).toMillis(),
    label: day.setLocale(locale).toLocaleString({ weekday: 'long', day: 'numeric', month: 'long' }),
  };
}

/** Whether these days offer a start at this instant (the same list a shopper was shown). */
export function daysOffer(days: readonly BookingDay[], ms: number): boolean {
  return days.some((day) => day.slots.some((slot) => DateTime.fromISO(slot.start).toMillis() === ms));
}
