import type { SiteLocale } from '@dealer/contracts/site';

/** SPEC §9: en-AU unless a site says otherwise. */
export const defaultLocale: SiteLocale = 'en-AU';

/**
 * SPEC §9 US spelling swaps, lower-case stems. Inflected forms are listed one by one because
 * a word-level lookup stays predictable where a suffix rule would also rewrite names and slugs.
 */
const usSwaps: Record<string, string> = {
  colour: 'color',
  colours: 'colors',
  enquiry: 'inquiry',
  enquiries: 'inquiries',
  enquire: 'inquire',
  enquired: 'inquired',
  enquiring: 'inquiring',
  petrol: 'gas',
};

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** Every swap in lower, Capitalised and UPPER case, so headings and buttons swap too. */
const usWording: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(usSwaps).flatMap(([from, to]) => [
    [from, to],
    [capitalise(from), capitalise(to)],
    [from.toUpperCase(), to.toUpperCase()],
  ]),
);

const noSwaps: Readonly<Record<string, string>> = {};

/** The word swaps a locale applies; AU and NZ English are the source wording, so they swap nothing. */
export function localeWording(locale: SiteLocale): Readonly<Record<string, string>> {
  return locale === 'en-US' ? usWording : noSwaps;
}

/**
 * Applies the locale's swaps to every whole word of a text, so both a single word ('Enquire')
 * and a sentence ('Submit an enquiry') can be passed. Mixed-case words are left alone.
 */
export function t(locale: SiteLocale, text: string): string {
  const wording = localeWording(locale);
  return text.replace(/[A-Za-z]+/g, (word) => wording[word] ?? word);
}

/**
 * A number as every site locale writes it (en-AU, en-NZ and en-US alike: "1,234,567.50"), with
 * `fractionDigits` decimals. Not Intl.NumberFormat: a page's first one loads the locale's data,
 * ~50 ms of a phone's main thread while the page hydrates (measured on the car page), for a
 * format these three locales share. Tests hold it to Intl's output for each.
 */
export function formatNumber(value: number, fractionDigits = 0): string {
  const fixed = Math.abs(value).toFixed(fractionDigits);
  const [whole = '0', fraction] = fixed.split('.');
  const sign = value < 0 && Number(fixed) !== 0 ? '-' : '';
  return `${sign}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction ? `.${fraction}` : ''}`;
}

/** A name as it is compared in a list: accents and case aside ('Škoda' beside 'Skoda', 'mg' beside 'MG'). */
const comparable = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/**
 * The order a shopper reads a list of names in (makes, colours, body types): alphabetical with
 * accents and case aside, then as written. Not localeCompare or Intl.Collator: a page's first
 * collation loads ICU's data, about 12 ms of Chromium's main thread on this machine (~47 ms at a
 * phone's 4×), paid while the search page hydrates its filters. Tests hold it to localeCompare's
 * order for the names stock is listed under.
 */
export function compareNames(a: string, b: string): number {
  const x = comparable(a);
  const y = comparable(b);
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

const kmPerMile = 1.609344;

/** Odometer text: US sites show miles (SPEC §9), the rest kilometres; whole units with grouping. */
export function formatDistance(km: number, locale: SiteLocale): string {
  const [value, unit] = locale === 'en-US' ? [km / kmPerMile, 'mi'] : [km, 'km'];
  return `${formatNumber(Math.round(value))} ${unit}`;
}

const currencies = { 'en-AU': 'AUD', 'en-NZ': 'NZD', 'en-US': 'USD' } as const satisfies Record<SiteLocale, string>;
export type CurrencyCode = (typeof currencies)[SiteLocale];

export function currencyCode(locale: SiteLocale): CurrencyCode {
  return currencies[locale];
}

const phoneRegions = { 'en-AU': 'AU', 'en-NZ': 'NZ', 'en-US': 'US' } as const satisfies Record<SiteLocale, string>;
export type PhoneRegion = (typeof phoneRegions)[SiteLocale];

/** The region phone validation starts from (SPEC §5); mobile-only and AU+NZ variants are site flags on top. */
export function phoneRegion(locale: SiteLocale): PhoneRegion {
  return phoneRegions[locale];
}
