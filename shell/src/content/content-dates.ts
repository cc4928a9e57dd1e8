import type { SiteLocale } from '@dealer/contracts/site';

const months = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/**
 * A day as the site writes it: "26 November 2026" ("November 26, 2026" on US sites). Fixed words and
 * no Intl, so the server's text and the browser's are the same and hydration keeps it; in UTC, because
 * the site config names no time zone and the browser's own would differ from the server's.
 */
export function formatDay(ms: number, locale: SiteLocale): string {
  const date = new Date(ms);
  const month = months[date.getUTCMonth()];
  return locale === 'en-US'
    ? `${month} ${date.getUTCDate()}, ${date.getUTCFullYear()}`
    : `${date.getUTCDate()} ${month} ${date.getUTCFullYear()}`;
}

/** The same day for `<time dateTime>`: 2026-11-26. */
export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
