// The `min` metadata build keeps libphonenumber-js small enough for the browser bundles that
// import this file; it knows every country's lengths and number ranges but not number types.
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import type { SiteLocale } from '@dealer/contracts/site';
import type { PhoneRegion } from './locale';

/**
 * Which numbers a phone field accepts (SPEC §5):
 * - 'au-any': any Australian number (02/03/04/05/07/08 + 8 digits).
 * - 'au-mobile': Australian mobiles only (04 + 8 digits), for mobile-only sites.
 * - 'au-nz': Australian, New Zealand and UK numbers.
 * - 'nz': New Zealand numbers, with the 15-character limit.
 * - 'us': US numbers.
 */
export type PhoneRule = 'au-any' | 'au-mobile' | 'au-nz' | 'nz' | 'us';

/** SPEC §5 phone messages, word for word. */
export const phoneMessages = {
  au: 'Invalid phone number. Must be an Australian number.',
  auMobile: 'Invalid phone number. Must be an Australian mobile number.',
  nz: 'Invalid phone number. Must be a New Zealand number.',
  us: 'Invalid phone number. Must be a US number.',
  tooManyCharacters: 'Invalid phone number. Too many characters.',
  e164Au: 'Invalid Australian mobile number format (E.164 required). For example, 0411 222 333 is valid.',
  e164Us: 'Invalid US phone number format (E.164 required). For example, (123) 456-7890 is valid.',
} as const;

/**
 * SPEC §5 "one fixed test number is always accepted", on every rule, so staff can send a test
 * lead from any site. 0400 000 000 looks like a mobile but is obviously not a shopper's.
 */
export const testPhoneNumber = '0400000000';

/** SPEC §5: on NZ sites 15 or more characters gives the 'Too many characters.' message. */
export const nzPhoneTooManyCharacters = 15;

const messageFor: Record<PhoneRule, string> = {
  'au-any': phoneMessages.au,
  'au-mobile': phoneMessages.auMobile,
  // SPEC has no message of its own for the combined rule; these are Australian sites that
  // also take NZ and UK callers, so the Australian message is the closest of the four.
  'au-nz': phoneMessages.au,
  nz: phoneMessages.nz,
  us: phoneMessages.us,
};

/** Digits, plus the plus signs: what every SPEC pattern is written against. */
function compactPhone(input: string): string {
  return input.trim().replace(/[^\d+]/g, '');
}

// Country prefix forms: '+', the '00' prefix of SPEC's 0061/0064 forms, Australia's own '0011',
// or bare when the length leaves no doubt. An optional trunk 0 after the country code is
// dropped because shoppers copy numbers written as '+61 (0)4…'.
const auPrefix = /^(?:\+|0011|00)610?([1-9]\d{8})$/;
const auBarePrefix = /^610?([1-9]\d{8})$/;
const nzPrefix = /^(?:\+|00)640?([1-9]\d{7,9})$/;
const nzBarePrefix = /^640?([1-9]\d{7,9})$/;
const usPrefix = /^\+1(\d{10})$/;

/**
 * SPEC §5 normalisation: digits (and a plus) only, then the 61, 64 and +1 country prefixes
 * become the national form ('+61 412 345 678' → '0412345678', '+1 212 555 0123' →
 * '2125550123').
 *
 * Only the prefixes of the countries the rule accepts are converted. Converting all three
 * everywhere would turn an NZ mobile '+64 21 123 4567' into '0211234567', which an
 * Australian site would then accept as a Sydney landline, and on a US site a bare '614…' or
 * '646…' is an area code (Columbus, Manhattan), not a country code.
 */
export function normalisePhone(input: string, rule: PhoneRule): string {
  const compact = compactPhone(input);
  const au = rule !== 'us' && rule !== 'nz';
  const nz = rule === 'nz' || rule === 'au-nz';
  const national = (pattern: RegExp) => {
    const match = pattern.exec(compact);
    return match ? `0${match[1]}` : null;
  };
  if (au) {
    const converted = national(auPrefix) ?? national(auBarePrefix);
    if (converted) return converted;
  }
  if (nz) {
    const converted = national(nzPrefix) ?? national(nzBarePrefix);
    if (converted) return converted;
  }
  if (rule === 'us') {
    const match = usPrefix.exec(compact);
    if (match) return match[1]!;
  }
  return compact;
}

// SPEC §5 patterns, as written there. Each is tried against the normalised national form and
// against the digits as typed, so the international forms SPEC lists (0061…, +614…, 0064…,
// 001…) are accepted whichever way normalisation treats them.
const auAny = [/^0[234578]\d{8}$/, /^0061[234578]\d{8}$/];
const auMobile = [/^04\d{8}$/, /^\+614\d{8}$/];
const nz = [/^0[234679]\d{7,9}$/, /^0064[234679]\d{7,9}$/];
const us = [/^\d{10}$/, /^1[2-9]\d{9}$/, /^001[2-9]\d{9}$/];

// SPEC names "a UK pattern" without giving it: 0 or +44/0044 (with an optional '(0)') and a
// 9 or 10 digit national number, which libphonenumber-js must then also call a valid +44
// number, so made-up numbers in the UK shape are refused.
const ukShape = /^(?:(?:\+|00)440?|0)([1-9]\d{8,9})$/;
function isUkNumber(compact: string): boolean {
  const match = ukShape.exec(compact);
  if (!match) return false;
  const parsed = parsePhoneNumberFromString(`+44${match[1]}`);
  return parsed !== undefined && parsed.countryCallingCode === '44' && parsed.isValid();
}

const matchesAny = (patterns: readonly RegExp[], candidates: readonly string[]) =>
  patterns.some((pattern) => candidates.some((candidate) => pattern.test(candidate)));

/** True for the SPEC §5 fixed test number in any usual spelling ('0400 000 000', '+61 400 000 000'). */
export function isTestPhoneNumber(input: string | number | null | undefined): boolean {
  if (input == null) return false;
  return normalisePhone(String(input), 'au-any') === testPhoneNumber;
}

/**
 * SPEC §5 phone check. Returns null when valid, otherwise the exact SPEC message for the rule.
 * An empty value is invalid here; whether the field may be left empty is the form's
 * required/optional rule (lead-validation.ts checks that first).
 *
 * The SPEC patterns decide. libphonenumber-js is only consulted for the UK part of 'au-nz',
 * which SPEC does not spell out. Where the two disagree SPEC wins, for example:
 * '05 1234 5678' and '08 1234 5678' (AU), '03 1234 5678' (NZ, 8 digits after 03) and
 * '(123) 456-7890' (US) pass here though libphonenumber calls them unallocated, and
 * '0800 123 456' (NZ freephone) is refused though libphonenumber accepts it.
 */
export function validatePhone(input: string | number | null | undefined, rule: PhoneRule): string | null {
  const raw = input == null ? '' : String(input);
  // "Always accepted": the test number is checked first, even against the NZ character limit.
  if (isTestPhoneNumber(raw)) return null;
  if (rule === 'nz' && raw.trim().length >= nzPhoneTooManyCharacters) return phoneMessages.tooManyCharacters;

  const compact = compactPhone(raw);
  const candidates = [normalisePhone(raw, rule), compact];
  const valid = (() => {
    switch (rule) {
      case 'au-any':
        return matchesAny(auAny, candidates);
      case 'au-mobile':
        return matchesAny(auMobile, candidates);
      case 'nz':
        return matchesAny(nz, candidates);
      case 'us':
        return matchesAny(us, candidates);
      case 'au-nz':
        return matchesAny(auAny, candidates) || matchesAny(nz, candidates) || isUkNumber(compact);
    }
  })();
  return valid ? null : messageFor[rule];
}

export type PhoneRuleSite = {
  locale: SiteLocale;
  /** au_nz_phone is optional until the site contract carries it; it selects the combined rule. */
  features: { mobile_only_phone: boolean; au_nz_phone?: boolean };
  /** lead_settings.mobile_only_phone, when set, overrides features.mobile_only_phone. */
  lead_settings?: { mobile_only_phone?: boolean } | null;
};

/**
 * The rule a site's phone fields use. US and NZ sites have one rule each (mobile_only_phone
 * has no NZ or US variant in SPEC); Australian sites take any number unless they are
 * mobile-only, or the combined AU+NZ rule when the site opts in.
 */
export function phoneRuleFor(site: PhoneRuleSite): PhoneRule {
  if (site.locale === 'en-US') return 'us';
  if (site.locale === 'en-NZ') return 'nz';
  if (site.features.au_nz_phone) return 'au-nz';
  const mobileOnly = site.lead_settings?.mobile_only_phone ?? site.features.mobile_only_phone;
  return mobileOnly ? 'au-mobile' : 'au-any';
}

/** The home region of a rule, for display formatting. */
export function phoneRuleRegion(rule: PhoneRule): PhoneRegion {
  return rule === 'us' ? 'US' : rule === 'nz' ? 'NZ' : 'AU';
}

const callingCodes: Record<PhoneRegion, string> = { AU: '61', NZ: '64', US: '1' };

/**
 * SPEC §5 "display formats vary by region": a number of the site's own country in its
 * national style ('0412 345 678', '(02) 9876 5432', '021 123 4567', '(212) 555-0123'), any
 * other country's in international style ('+44 7911 123456'). Text libphonenumber-js cannot
 * make a valid number of is returned trimmed but otherwise as typed, so nothing is lost.
 */
export function formatPhoneForDisplay(input: string, region: PhoneRegion): string {
  const key = `${region}|${input}`;
  const known = displayedPhones.get(key);
  if (known !== undefined) return known;
  const shown = formatPhone(input, region);
  // Bounded: the same few dealer numbers are shown on every page (the server builds them per request).
  if (displayedPhones.size >= displayedPhonesLimit) displayedPhones.delete(displayedPhones.keys().next().value!);
  displayedPhones.set(key, shown);
  return shown;
}

const displayedPhones = new Map<string, string>();
const displayedPhonesLimit = 2_000;

function formatPhone(input: string, region: PhoneRegion): string {
  const compact = compactPhone(input);
  if (!compact) return input.trim();
  // The '00' and Australian '0011' international prefixes become '+', so SPEC's 0061/0064/001
  // forms parse the same from any region (libphonenumber-js only knows each region's own).
  const international = compact.replace(/^(?:0011|00)(?=[1-9])/, '+');
  const parsed = parsePhoneNumberFromString(international, region);
  if (parsed?.isValid()) {
    return parsed.countryCallingCode === callingCodes[region] ? parsed.formatNational() : parsed.formatInternational();
  }
  if (isTestPhoneNumber(input)) return '0400 000 000';
  return input.trim();
}

export type E164Result = { ok: true; e164: string } | { ok: false; message: string };

// E.164: a plus, a nonzero digit, and at most 15 digits in all.
const e164Pattern = /^\+[1-9]\d{1,14}$/;

/**
 * SPEC §5 E.164 normalisation for chat and ad tracking. Everything but digits and plus is
 * stripped. AU: a number starting 04 becomes +614…; US: 11 digits starting 1 get a plus and
 * 10 digits get +1. The result must then be E.164.
 *
 * The final check is the generic E.164 shape, as SPEC says, not a per-country length; run
 * validatePhone first when the number must also be a real AU or US number. A number already
 * typed in international form ('+64 21 123 4567') passes on either region.
 */
export function toE164(input: string, region: 'AU' | 'US'): E164Result {
  const cleaned = input.replace(/[^\d+]/g, '');
  let candidate = cleaned;
  if (region === 'AU') {
    if (cleaned.startsWith('04')) candidate = `+614${cleaned.slice(2)}`;
  } else if (/^1\d{10}$/.test(cleaned)) {
    candidate = `+${cleaned}`;
  } else if (/^\d{10}$/.test(cleaned)) {
    candidate = `+1${cleaned}`;
  }
  if (e164Pattern.test(candidate)) return { ok: true, e164: candidate };
  return { ok: false, message: region === 'AU' ? phoneMessages.e164Au : phoneMessages.e164Us };
}
