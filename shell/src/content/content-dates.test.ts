import { describe, expect, it } from 'vitest';
import { formatDay, isoDay } from './content-dates';

describe('the days a content page shows', () => {
  it.each([
    [Date.UTC(2026, 10, 26, 9, 30), 'en-AU', '26 November 2026', '2026-11-26'],
    [Date.UTC(2026, 0, 1, 0, 0), 'en-NZ', '1 January 2026', '2026-01-01'],
    [Date.UTC(2026, 11, 31, 23, 59), 'en-US', 'December 31, 2026', '2026-12-31'],
  ] as const)('%i reads %s: %s', (ms, locale, text, iso) => {
    expect(formatDay(ms, locale)).toBe(text);
    expect(isoDay(ms)).toBe(iso);
  });
});
