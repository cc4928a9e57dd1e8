// Server-side rules: date-holidays carries every country's holiday data, so no browser bundle should import this file.
import Holidays from 'date-holidays';
import type { SiteLocale } from '@dealer/contracts/site';

const countries: Record<SiteLocale, 'AU' | 'NZ' | 'US'> = { 'en-AU': 'AU', 'en-NZ': 'NZ', 'en-US': 'US' };

// New Zealand's regional anniversary days, by the region names our locations use.
const nzRegions: Record<string, string> = {
  auckland: 'AUK',
  'bay of plenty': 'BOP',
  canterbury: 'CAN',
  gisborne: 'GIS',
  "hawke's bay": 'HKB',
  marlborough: 'MBH',
  'manawatu-whanganui': 'MWT',
  nelson: 'NSN',
  northland: 'NTL',
  otago: 'OTA',
  southland: 'STL',
  taranaki: 'TKI',
  waikato: 'WKO',
  wellington: 'WGN',
  'west coast': 'WTC',
};

/** The region code date-holidays knows the state or region by, or undefined for country-wide holidays only. */
function regionOf(locale: SiteLocale, state: string): string | undefined {
  const key = state.trim();
  if (!key) return undefined;
  if (locale === 'en-NZ') return nzRegions[key.toLowerCase()];
  return key.toUpperCase();
}

/** A holiday from the evening only (Christmas Eve from 7 pm in SA and NT) leaves the day's times open. */
const closesTheDay = (date: string) => date.slice(11) === '' || date.slice(11) === '00:00:00';

/**
 * US dealerships trade on most federal holidays (Presidents' Day and Columbus Day are sale days);
 * these are the days they close. Substitute days count ('Independence Day (substitute day)').
 */
const usClosures = ["New Year's Day", 'Memorial Day', 'Independence Day', 'Labor Day', 'Thanksgiving Day', 'Christmas Day'];

/** A year's public holiday dates per country and region: date-holidays takes milliseconds to work a year out. */
const byYear = new Map<string, readonly string[]>();

function holidaysOf(country: 'AU' | 'NZ' | 'US', region: string | undefined, year: number): readonly string[] {
  const key = `${country}|${region ?? ''}|${year}`;
  let dates = byYear.get(key);
  if (!dates) {
    const calendar = new Holidays();
    if (!(region && calendar.init(country, region))) calendar.init(country);
    dates = (calendar.getHolidays(year) ?? [])
      .filter(
        (holiday) =>
          holiday.type === 'public' &&
          closesTheDay(holiday.date) &&
          (country !== 'US' || usClosures.some((name) => holiday.name.startsWith(name))),
      )
      .map((holiday) => holiday.date.slice(0, 10));
    byYear.set(key, dates);
  }
  return dates;
}

/**
 * The public holidays (ISO dates, local to the state) a location keeps between two dates: the
 * country's and its state's or region's, e.g. Melbourne Cup Day in Victoria only. Observances
 * and bank holidays are not closures, nor holidays that start in the evening; in the US only the
 * days dealerships close (usClosures).
 */
export function publicHolidayDates(locale: SiteLocale, state: string, from: string, to: string): Set<string> {
  const country = countries[locale];
  const region = regionOf(locale, state);
  const dates = new Set<string>();
  for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year += 1) {
    for (const date of holidaysOf(country, region, year)) if (date >= from && date <= to) dates.add(date);
  }
  return dates;
}
