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

const formats = new Map<string, Intl.NumberFormat>();

/**
 * A number format, made once per locale and options: making one costs far more than using it
 * (on a phone, the prices of a results page took tens of milliseconds when each made its own).
 */
export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    // Locales and options come from this code, so few; bounded all the same.
    if (formats.size >= 64) formats.clear();
    formats.set(key, format);
  }
  return format;
}

const kmPerMile = 1.609344;

/** Odometer text: US sites show miles (SPEC §9), the rest kilometres; whole units with grouping. */
export function formatDistance(km: number, locale: SiteLocale): string {
  const [value, unit] = locale === 'en-US' ? [km / kmPerMile, 'mi'] : [km, 'km'];
  return `${numberFormat(locale, { maximumFractionDigits: 0 }).format(Math.round(value))} ${unit}`;
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
