/**
 * The shopper's details of a server-side ad event, normalised and hashed the way the Meta
 * Conversions API matches them (SHA-256, lower-case hex, of the normalised value), on receipt: the
 * raw values never reach the database, a log or a file.
 *
 * Normalisation, per field (Meta's "customer information parameters"):
 * - em: trimmed, lower-case; only something shaped like an address (`a@b`) is kept.
 * - ph: E.164 digits without the '+' ('61412345678'), by SPEC §5's `toE164` for the site's
 *   region. AU sites use its AU rule (04… → +614…), US sites its US rule. NZ sites are not treated
 *   like AU: that rule would turn a Wellington landline (04 xxx xxxx) into an Australian mobile,
 *   so on NZ sites `toE164` only takes numbers already written with a '+'. A number `toE164` does
 *   not take (a landline '02 9876 5432', an NZ national number, '0061 …') is read by
 *   libphonenumber-js for the site's country and kept only if valid there. Anything else is
 *   dropped: a hash of a number Meta cannot match is worth nothing.
 * - fn, ln: trimmed, lower-case, punctuation removed (Meta: "lowercase letters, no punctuation"),
 *   Unicode NFC so 'é' hashes alike whichever way it was typed.
 * - zp: lower-case without spaces or dashes; on US sites the first five digits of a ZIP+4.
 * - external_id: trimmed, hashed as it is (Meta recommends hashing it; its case is kept).
 */
import { createHash } from 'node:crypto';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import type { SiteLocale } from '@dealer/contracts/site';
import { toE164 } from '@dealer/rules/phone';

/** What the browser may send about the shopper (every field optional; empty means absent). */
export type AdUserInput = {
  email?: string | null;
  phone?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  postcode?: string | null;
  external_id?: string | null;
};

/** Conversions API `user_data`: hashes, plus what Meta takes unhashed (the client's address, browser and Meta cookies). */
export type AdUserData = {
  em?: string[];
  ph?: string[];
  fn?: string;
  ln?: string;
  zp?: string;
  external_id?: string;
  client_ip_address?: string;
  client_user_agent?: string;
  fbp?: string;
  fbc?: string;
};

export const sha256Hex = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

const present = (value: string | null | undefined): value is string => typeof value === 'string' && value.trim() !== '';

export function normaliseEmail(email: string): string | null {
  const value = email.trim().toLowerCase();
  return /^[^\s@]+@[^\s@]+$/.test(value) ? value : null;
}

type Country = 'AU' | 'NZ' | 'US';
const countryOf = (locale: SiteLocale): Country => (locale === 'en-US' ? 'US' : locale === 'en-NZ' ? 'NZ' : 'AU');

/** The phone number as Meta wants it hashed: E.164 digits without the '+', or null when it is no usable number. */
export function normalisePhoneForAds(phone: string, locale: SiteLocale): string | null {
  const country = countryOf(locale);
  const compact = phone.replace(/[^\d+]/g, '');
  if (!compact) return null;
  if (country !== 'NZ' || compact.startsWith('+')) {
    const e164 = toE164(phone, country === 'US' ? 'US' : 'AU');
    if (e164.ok) return e164.e164.slice(1);
  }
  // The international prefixes shoppers type (00, Australia's 0011) become '+', as for display.
  const parsed = parsePhoneNumberFromString(compact.replace(/^(?:0011|00)(?=[1-9])/, '+'), country);
  return parsed?.isValid() ? parsed.number.slice(1) : null;
}

export function normaliseName(name: string): string | null {
  const value = name
    .normalize('NFC')
    .trim()
    .toLowerCase()
    .replace(/[\p{P}\p{S}]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
  return value || null;
}

export function normalisePostcode(postcode: string, locale: SiteLocale): string | null {
  const value = postcode.trim().toLowerCase().replace(/[\s-]/g, '');
  if (!value) return null;
  if (locale === 'en-US' && /^\d{5}(\d{4})?$/.test(value)) return value.slice(0, 5);
  return value;
}

/**
 * The hashed user data of one event. The raw input is not kept anywhere: only what this returns
 * is stored. `client` is the request's own (IP address, User-Agent, Meta's `_fbp`/`_fbc` cookies).
 */
export function hashedUserData(
  user: AdUserInput,
  locale: SiteLocale,
  client: { ip?: string; userAgent?: string; fbp?: string; fbc?: string } = {},
): AdUserData {
  const data: AdUserData = {};
  const email = present(user.email) ? normaliseEmail(user.email) : null;
  if (email) data.em = [sha256Hex(email)];
  const phone = present(user.phone) ? normalisePhoneForAds(user.phone, locale) : null;
  if (phone) data.ph = [sha256Hex(phone)];
  const firstName = present(user.first_name) ? normaliseName(user.first_name) : null;
  if (firstName) data.fn = sha256Hex(firstName);
  const lastName = present(user.last_name) ? normaliseName(user.last_name) : null;
  if (lastName) data.ln = sha256Hex(lastName);
  const postcode = present(user.postcode) ? normalisePostcode(user.postcode, locale) : null;
  if (postcode) data.zp = sha256Hex(postcode);
  if (present(user.external_id)) data.external_id = sha256Hex(user.external_id.trim());
  if (client.ip) data.client_ip_address = client.ip;
  if (client.userAgent) data.client_user_agent = client.userAgent;
  if (client.fbp) data.fbp = client.fbp;
  if (client.fbc) data.fbc = client.fbc;
  return data;
}

// Meta's cookies: `fb.<subdomain index>.<creation time>.<random or fbclid>`.
const fbCookie = /^fb\.\d\.\d{10,13}\.[A-Za-z0-9_.-]{1,500}$/;

/** The `_fbp` and `_fbc` cookies the pixel set on the site's own host, if well formed. */
export function metaCookies(cookieHeader: string | undefined): { fbp?: string; fbc?: string } {
  const found: { fbp?: string; fbc?: string } = {};
  if (!cookieHeader || cookieHeader.length > 8192) return found;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if ((name === '_fbp' || name === '_fbc') && fbCookie.test(value)) found[name === '_fbp' ? 'fbp' : 'fbc'] = value;
  }
  return found;
}

// Query parameters that name the shopper: never forwarded (nor stored) with the page address.
const personalParams = /^(e-?mail|phone|mobile|tel|name|first_?name|last_?name|full_?name|surname|postcode|zip|address|dob)$/i;

/**
 * The page address Meta is told the event happened on, without what could identify the shopper:
 * no fragment, no credentials, and no query parameter named like a personal field, holding an
 * address ('@'), or equal to one of `personal` (the values the shopper sent, raw).
 */
export function scrubbedPageUrl(url: string, personal: readonly string[]): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  parsed.hash = '';
  parsed.username = '';
  parsed.password = '';
  const raw = new Set(personal.map((value) => value.trim().toLowerCase()).filter((value) => value.length >= 3));
  const digits = new Set(personal.map((value) => value.replace(/\D/g, '')).filter((value) => value.length >= 6));
  const personalParam = (key: string, value: string) => {
    const valueDigits = value.replace(/\D/g, '');
    return (
      personalParams.test(key) ||
      value.includes('@') ||
      raw.has(value.trim().toLowerCase()) ||
      (valueDigits.length >= 6 && digits.has(valueDigits))
    );
  };
  const params = [...parsed.searchParams];
  const kept = params.filter(([key, value]) => !personalParam(key, value));
  if (kept.length < params.length) parsed.search = new URLSearchParams(kept).toString();
  const text = parsed.toString();
  return text.length <= 2000 ? text : null;
}
