import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { OpeningHoursEntry } from '@dealer/contracts/location';
import { bookingKindOf, bookingLocationFor, bookableLocations, bookingTimesPath } from './booking-locations';
import {
  availableBookingDays,
  bookingDateRange,
  bookingDayOf,
  bookingPolicies,
  carBlocksOf,
  daysOffer,
  describeBookingTime,
  heldUntilOf,
  locationTimeZone,
  parseBookingTime,
  type SlotQuery,
} from './booking-slots';

const open = (weekday: number, from: string, to: string): OpeningHoursEntry => ({
  weekday,
  status: 'Open',
  formated_hours: `${from} - ${to}`,
  open: from,
  close: to,
});
const closed = (weekday: number): OpeningHoursEntry => ({ weekday, status: 'Closed', formated_hours: 'Closed', open: null, close: null });

// As the demo dealers keep them: a showroom open every day, a workshop closed on Sundays.
const showroom = [open(0, '10:00', '16:00'), ...[1, 2, 3, 4, 5, 6].map((d) => open(d, '08:30', '17:30'))];
const workshop = [closed(0), ...[1, 2, 3, 4, 5].map((d) => open(d, '07:30', '17:00')), open(6, '08:00', '12:00')];

const sydney = 'Australia/Sydney';
const at = (local: string, zone = sydney) => DateTime.fromISO(local, { zone }).toMillis();
// Saturday 21 November 2026, 10 am in Sydney.
const saturdayMorning = at('2026-11-21T10:00');

const query = (over: Partial<SlotQuery>): SlotQuery => ({
  hours: showroom,
  zone: sydney,
  locale: 'en-AU',
  now: saturdayMorning,
  policy: bookingPolicies.appointment,
  ...over,
});
const times = (days: ReturnType<typeof availableBookingDays>, date: string) =>
  days.find((day) => day.date === date)?.slots.map((slot) => slot.start.slice(11, 16)) ?? [];

describe('test drive times (available_appointment_bookings)', () => {
  const days = availableBookingDays(query({}));

  it('offers today from two hours ahead until an hour before closing, every 30 minutes', () => {
    expect(times(days, '2026-11-21')).toEqual(['12:00', '12:30', '13:00', '13:30', '14:00', '14:30', '15:00', '15:30', '16:00', '16:30']);
  });

  it('follows each day’s own hours (Sunday 10 to 4) and covers 14 days', () => {
    expect(times(days, '2026-11-22')).toEqual([
      '10:00',
      '10:30',
      '11:00',
      '11:30',
      '12:00',
      '12:30',
      '13:00',
      '13:30',
      '14:00',
      '14:30',
      '15:00',
    ]);
    expect(days).toHaveLength(14);
    expect(days.at(-1)!.date).toBe('2026-12-04');
  });

  it('labels days and times the way the site’s country writes them', () => {
    expect(days[0]).toMatchObject({ label: 'Sat, 21 Nov' });
    expect(days[0]!.slots[0]).toEqual({ start: '2026-11-21T12:00:00+11:00', label: '12:00 pm' });
    const texas = availableBookingDays(query({ zone: 'America/Chicago', locale: 'en-US', now: at('2026-11-21T07:00', 'America/Chicago') }));
    expect(texas[0]!.label).toBe('Sat, Nov 21');
    expect(texas[0]!.slots[0]).toEqual({ start: '2026-11-21T09:00:00-06:00', label: '9:00 AM' });
  });

  it('leaves out a time once the location has its capacity booked, and keeps one with room', () => {
    const full = at('2026-11-23T09:00');
    const half = at('2026-11-23T09:30');
    const taken = new Map([
      [full, bookingPolicies.appointment.capacity],
      [half, bookingPolicies.appointment.capacity - 1],
    ]);
    const monday = times(availableBookingDays(query({ taken })), '2026-11-23');
    expect(monday).not.toContain('09:00');
    expect(monday).toContain('09:30');
    expect(monday[0]).toBe('08:30');
  });

  it('offers nothing on a closed day or a day with unreadable hours, and no day at all when closed all week', () => {
    const hours = showroom.map((entry) => (entry.weekday === 1 ? closed(1) : entry.weekday === 2 ? { ...entry, open: 'noon' } : entry));
    const result = availableBookingDays(query({ hours }));
    expect(result.map((day) => day.date)).not.toContain('2026-11-23');
    expect(result.map((day) => day.date)).not.toContain('2026-11-24');
    expect(availableBookingDays(query({ hours: [0, 1, 2, 3, 4, 5, 6].map(closed) }))).toEqual([]);
  });

  it('after closing time today starts tomorrow', () => {
    const evening = availableBookingDays(query({ now: at('2026-11-21T16:45') }));
    expect(evening[0]!.date).toBe('2026-11-22');
  });

  it('skips a start that daylight saving removes (Sydney, 4 October 2026, 2 am → 3 am)', () => {
    const night = [0, 1, 2, 3, 4, 5, 6].map((d) => open(d, '01:30', '05:00'));
    const result = availableBookingDays(
      query({ hours: night, now: at('2026-10-03T12:00'), policy: { ...bookingPolicies.appointment, lastStartBeforeCloseMinutes: 0 } }),
    );
    expect(times(result, '2026-10-04')).toEqual(['01:30', '03:00', '03:30', '04:00', '04:30', '05:00']);
    expect(result.find((day) => day.date === '2026-10-04')!.slots[1]!.start).toBe('2026-10-04T03:00:00+11:00');
  });
});

describe('service drop-off times (available_service_bookings)', () => {
  const days = availableBookingDays(query({ hours: workshop, policy: bookingPolicies.service }));

  it('starts tomorrow at the earliest and skips Sundays when the workshop is closed', () => {
    expect(days[0]!.date).toBe('2026-11-23');
    expect(days.map((day) => DateTime.fromISO(day.date).weekday)).not.toContain(7);
  });

  it('takes drop-offs from opening until 11 am, or two hours before an earlier close', () => {
    expect(times(days, '2026-11-23')).toEqual(['07:30', '08:00', '08:30', '09:00', '09:30', '10:00', '10:30', '11:00']);
    expect(times(days, '2026-11-28')).toEqual(['08:00', '08:30', '09:00', '09:30', '10:00']);
  });

  it('covers three weeks', () => {
    expect(days.at(-1)!.date).toBe('2026-12-11');
  });
});

describe('reading the time a form sent', () => {
  it.each([
    ['2026-11-23T09:00:00+11:00', at('2026-11-23T09:00')],
    ['2026-11-22T22:00:00Z', at('2026-11-23T09:00')],
    // A plain datetime-local value is the location's local time.
    ['2026-11-23T09:00', at('2026-11-23T09:00')],
    ['', null],
    ['next tuesday', null],
    [1234, null],
    [null, null],
  ])('%j → %j', (value, expected) => {
    expect(parseBookingTime(value, sydney)).toBe(expected);
  });

  it('accepts only a start the location offers now', () => {
    const q = query({});
    const offered = availableBookingDays(q);
    expect(daysOffer(offered, at('2026-11-23T09:00'))).toBe(true);
    expect(daysOffer(offered, at('2026-11-23T09:10'))).toBe(false);
    expect(daysOffer(offered, at('2026-11-21T10:30'))).toBe(false);
    expect(daysOffer(availableBookingDays(query({ taken: new Map([[at('2026-11-23T09:00'), 2]]) })), at('2026-11-23T09:00'))).toBe(false);
  });

  it('describes it for the dealer in the location’s own time', () => {
    expect(describeBookingTime(at('2026-11-23T09:00'), sydney, 'en-AU')).toBe('Mon, 23 Nov 2026, 9:00 am (Australia/Sydney)');
  });

  it('counts a shopper’s bookings by the location’s own day, named as the shopper reads it', () => {
    expect(bookingDayOf(at('2026-12-12T09:00'), sydney, 'en-AU')).toEqual({
      from: at('2026-12-12T00:00'),
      to: at('2026-12-13T00:00'),
      label: 'Saturday 12 December',
    });
    // The day daylight saving starts is 23 hours long.
    const changeover = bookingDayOf(at('2026-10-04T15:00'), sydney, 'en-US');
    expect(changeover.to - changeover.from).toBe(23 * 3_600_000);
    expect(changeover.label).toBe('Sunday, October 4');
  });
});

describe('where a location keeps its hours', () => {
  it.each([
    ['en-AU', 'NSW', 'Australia/Sydney'],
    ['en-AU', 'act', 'Australia/Sydney'],
    ['en-AU', 'VIC', 'Australia/Melbourne'],
    ['en-AU', 'QLD', 'Australia/Brisbane'],
    ['en-AU', 'SA', 'Australia/Adelaide'],
    ['en-AU', 'WA', 'Australia/Perth'],
    ['en-AU', 'TAS', 'Australia/Hobart'],
    ['en-AU', 'NT', 'Australia/Darwin'],
    ['en-NZ', 'Wellington', 'Pacific/Auckland'],
    ['en-US', 'TX', 'America/Chicago'],
    ['en-US', 'CA', 'America/Los_Angeles'],
    ['en-US', 'AZ', 'America/Phoenix'],
    ['en-US', '', 'America/New_York'],
  ] as const)('%s %s → %s', (locale, state, zone) => {
    expect(locationTimeZone(locale, state)).toBe(zone);
  });
});

describe('which booking a lead asks for', () => {
  it.each([
    [{ category: 'Service Enquiry' }, 'service'],
    [{ category: 'New Vehicle Enquiry', subcategory: 'Test Drive' }, 'appointment'],
    [{ category: 'Test Drive' }, 'appointment'],
    [{ category: 'General Enquiry' }, null],
    [{ category: 'New Vehicle Enquiry', subcategory: 'Request Photos' }, null],
    [{}, null],
  ])('%j → %s', (lead, kind) => {
    expect(bookingKindOf(lead)).toBe(kind);
  });
});

describe('where a booking is for', () => {
  const place = (
    id: number,
    over: Partial<{ dealership_id: number; visible: boolean; location_type: 'sales' | 'service' | 'parts'; primary: boolean }> = {},
  ) => ({
    id,
    dealership_id: 1,
    visible: true,
    location_type: 'sales' as const,
    primary: false,
    ...over,
  });
  const locations = [
    place(1, { location_type: 'parts' }),
    place(2),
    place(3, { primary: true }),
    place(4, { location_type: 'service' }),
    place(5, { visible: false }),
    place(6, { dealership_id: 2, location_type: 'service' }),
  ];

  it('lists the locations taking each kind, primary first, hidden and parts-only ones left out', () => {
    expect(bookableLocations(locations, 'appointment').map((l) => l.id)).toEqual([3, 2]);
    expect(bookableLocations(locations, 'service').map((l) => l.id)).toEqual([3, 2, 4, 6]);
    expect(bookableLocations(locations, 'service', 2).map((l) => l.id)).toEqual([6]);
  });

  it.each([
    [{ location: '4' }, 'service', 4],
    [{ location: 4, location_id: 2 }, 'service', 4],
    // A workshop does not take test drives: the site's first showroom does.
    [{ location: 4 }, 'appointment', 3],
    [{ location: 1 }, 'service', 3],
    [{ location_id: 2 }, 'appointment', 2],
    [{}, 'appointment', 3],
    [{}, 'service', 3],
    // A hidden or unknown location falls back to the site's first.
    [{ location: 5 }, 'appointment', 3],
    [{ location: 'abc' }, 'appointment', 3],
  ] as const)('%j for a %s → location %i', (lead, kind, id) => {
    expect(bookingLocationFor(locations, kind, lead)?.id).toBe(id);
  });

  it('asks for the SPEC §7 file of the location’s dealership', () => {
    expect(bookingTimesPath('/api', 'appointment', { id: 7, dealership_id: 3 })).toBe(
      '/api/dealerships/3/available_appointment_bookings.json?location_id=7',
    );
    expect(bookingTimesPath('/mock', 'service', { id: 7, dealership_id: 3 })).toBe(
      '/mock/dealerships/3/available_service_bookings.json?location_id=7',
    );
  });
});

describe('public holidays', () => {
  it('skips a date the location is closed on, whatever its weekly hours say', () => {
    const days = availableBookingDays(query({ closedDates: new Set(['2026-11-23']) }));
    expect(days.map((day) => day.date)).not.toContain('2026-11-23');
    expect(days.map((day) => day.date)).toContain('2026-11-24');
  });

  it('looks holidays up for the right dates in the location’s zone', () => {
    expect(bookingDateRange(saturdayMorning, sydney, bookingPolicies.appointment)).toEqual({ from: '2026-11-21', to: '2026-12-05' });
    // 11 pm on Friday in Sydney is already Saturday; in Perth it is still Friday 8 pm.
    expect(bookingDateRange(at('2026-11-20T23:00'), 'Australia/Perth', bookingPolicies.service).from).toBe('2026-11-20');
  });
});

describe('one car, one test drive at a time', () => {
  it('takes the car out for an hour of half-hour blocks; a service takes no car', () => {
    const start = at('2026-11-23T10:00');
    expect(carBlocksOf(start, bookingPolicies.appointment)).toEqual([start, at('2026-11-23T10:30')]);
    expect(carBlocksOf(start, bookingPolicies.service)).toEqual([]);
  });

  it('counts blocks on one half-hour grid, so drives starting off the grid still clash', () => {
    // A showroom opening at 8:45 and another at 9:00: the hour from 8:45 overlaps the one from 9:00.
    const early = carBlocksOf(at('2026-11-23T08:45'), bookingPolicies.appointment);
    expect(early).toEqual([at('2026-11-23T08:30'), at('2026-11-23T09:00'), at('2026-11-23T09:30')]);
    const late = carBlocksOf(at('2026-11-23T09:00'), bookingPolicies.appointment);
    expect(late.some((block) => early.includes(block))).toBe(true);
    expect(carBlocksOf(at('2026-11-23T09:45'), bookingPolicies.appointment).some((block) => late.includes(block))).toBe(true);
    expect(carBlocksOf(at('2026-11-23T10:00'), bookingPolicies.appointment).some((block) => late.includes(block))).toBe(false);
  });

  it('leaves out every start whose hour overlaps the car’s other test drive', () => {
    const carBusy = new Set(carBlocksOf(at('2026-11-23T10:00'), bookingPolicies.appointment));
    const monday = times(availableBookingDays(query({ carBusy })), '2026-11-23');
    expect(monday).not.toContain('09:30');
    expect(monday).not.toContain('10:00');
    expect(monday).not.toContain('10:30');
    expect(monday).toContain('09:00');
    expect(monday).toContain('11:00');
  });

  it('asks for the car’s times on test drives only', () => {
    expect(bookingTimesPath('/api', 'appointment', { id: 7, dealership_id: 3 }, 99)).toBe(
      '/api/dealerships/3/available_appointment_bookings.json?location_id=7&car_id=99',
    );
    expect(bookingTimesPath('/api', 'service', { id: 7, dealership_id: 3 }, 99)).toBe(
      '/api/dealerships/3/available_service_bookings.json?location_id=7',
    );
  });
});

describe('how long a partly filled form holds its time', () => {
  const minute = 60_000;
  const began = Date.UTC(2026, 10, 23, 9, 0);
  it.each([
    [0, began + 30 * minute],
    [60, began + 90 * minute],
    [100, began + 120 * minute],
    [119, began + 120 * minute],
  ])('saved %d minutes after the lead began, it holds until the renewal or the two-hour mark', (after, until) => {
    expect(heldUntilOf(began + after * minute, began)).toBe(until);
  });

  it('holds nothing once two hours have passed', () => {
    expect(heldUntilOf(began + 120 * minute, began)).toBeNull();
    expect(heldUntilOf(began + 500 * minute, began)).toBeNull();
  });
});
