import { describe, expect, it } from 'vitest';
import { publicHolidayDates } from './public-holidays';

describe('the public holidays a dealership closes on', () => {
  it.each([
    // Melbourne Cup Day is Victoria's alone.
    ['en-AU', 'VIC', '2026-11-03', true],
    ['en-AU', 'NSW', '2026-11-03', false],
    ['en-AU', 'NSW', '2026-12-25', true],
    ['en-AU', 'NSW', '2026-12-28', true], // Boxing Day falls on a Saturday: the Monday is the substitute.
    ['en-AU', 'QLD', '2026-10-05', true], // Queensland's King's Birthday is in October.
    ['en-AU', 'VIC', '2026-10-05', false],
    ['en-NZ', 'Auckland', '2026-01-26', true], // Auckland Anniversary Day.
    ['en-NZ', 'Wellington', '2026-01-26', false],
    ['en-NZ', 'Wellington', '2026-01-19', true], // Wellington Anniversary Day.
    ['en-NZ', 'Somewhere new', '2026-02-06', true], // Waitangi Day, country-wide, whatever the region.
    ['en-US', 'TX', '2026-07-03', true], // Independence Day on a Saturday: observed on the Friday.
    ['en-US', 'TX', '2026-11-26', true], // Thanksgiving.
    ['en-US', 'TX', '2026-02-16', false], // Presidents' Day: a sale day, not a closure.
    ['en-US', 'TX', '2026-11-27', false], // Black Friday.
    ['en-US', 'TX', '2026-12-24', false],
    ['en-AU', 'SA', '2026-12-24', false], // Christmas Eve is a holiday in SA only from 7 pm.
    ['en-AU', 'SA', '2026-12-31', false],
  ] as const)('%s %s on %s: %s', (locale, state, date, closed) => {
    expect(publicHolidayDates(locale, state, '2026-01-01', '2026-12-31').has(date)).toBe(closed);
  });

  it('leaves out observances and keeps to the dates asked for, across a new year', () => {
    const dates = publicHolidayDates('en-AU', 'NSW', '2026-12-20', '2027-01-10');
    expect([...dates].sort()).toEqual(['2026-12-25', '2026-12-26', '2026-12-28', '2027-01-01']);
  });
});
