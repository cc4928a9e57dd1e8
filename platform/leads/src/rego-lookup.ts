import { z } from 'zod';
import type { SiteLocale } from '@dealer/contracts/site';
import { regoLookupMessages, regoRuleFor, normaliseRego, type RegisteredVehicle } from '@dealer/rules/rego';
import { isRecord } from './is-record';

/** A vehicle register: finds the car behind a plate, or null when it has none. Throws when it cannot answer. */
export interface RegoRegister {
  readonly name: string;
  lookup(query: { rego: string; state: string | null; country: 'AU' | 'NZ' | 'US' }): Promise<RegisteredVehicle | null>;
}

const countries: Record<SiteLocale, 'AU' | 'NZ' | 'US'> = { 'en-AU': 'AU', 'en-NZ': 'NZ', 'en-US': 'US' };

/**
 * The embedded default, like a payment provider's test mode: a few documented test plates answer
 * with a car, every other plate is "not found". Nothing is made up for a real shopper's plate.
 */
export const demoPlates: readonly (RegisteredVehicle & { rego: string; state: string | null; country: 'AU' | 'NZ' | 'US' })[] = [
  {
    rego: 'TEST01',
    state: 'NSW',
    country: 'AU',
    make: 'Toyota',
    model: 'Corolla',
    year: '2019',
    badge: 'Ascent Sport',
    body: 'Hatchback',
    colour: 'Silver',
    vin: 'JTNK4RBE903012345',
  },
  {
    rego: 'DEMO123',
    state: 'VIC',
    country: 'AU',
    make: 'Mazda',
    model: 'CX-5',
    year: '2021',
    badge: 'Maxx Sport',
    body: 'SUV',
    colour: 'Soul Red',
    vin: 'JM0KF4W7A00123456',
  },
  {
    rego: 'TRADE1',
    state: 'QLD',
    country: 'AU',
    make: 'Ford',
    model: 'Ranger',
    year: '2018',
    badge: 'XLT 3.2 (4x4)',
    body: 'Ute',
    colour: 'White',
    vin: 'MNAUMFF50JW812345',
  },
  {
    rego: 'KIWI01',
    state: null,
    country: 'NZ',
    make: 'Suzuki',
    model: 'Swift',
    year: '2020',
    badge: 'GLX',
    body: 'Hatchback',
    colour: 'Blue',
    vin: 'JSAZC72S000123456',
  },
  {
    rego: 'TEST123',
    state: 'TX',
    country: 'US',
    make: 'Ford',
    model: 'F-150',
    year: '2020',
    badge: 'XLT',
    body: 'Pickup',
    colour: 'Black',
    vin: '1FTEW1EP0LFA12345',
  },
];

export const demoRegister: RegoRegister = {
  name: 'demo register',
  async lookup({ rego, state, country }) {
    const plate = demoPlates.find(
      (entry) => entry.country === country && entry.rego === rego && (entry.state === null || entry.state === state),
    );
    if (!plate) return null;
    const { rego: _rego, state: _state, country: _country, ...vehicle } = plate;
    return vehicle;
  },
};

const registerAnswer = z.object({
  make: z.string().min(1),
  model: z.string().min(1),
  year: z.union([z.string(), z.number()]).transform(String),
  badge: z.string().nullish(),
  body: z.string().nullish(),
  colour: z.string().nullish(),
  vin: z.string().nullish(),
});

/**
 * A register behind an HTTP API: POST {rego, state, country} with the server-only key; 200 with
 * the vehicle, 404 for no such plate. Anything else (or no answer in 5 s) is a failure.
 */
export function httpRegister(url: string, key: string | null, timeoutMs = 5_000): RegoRegister {
  return {
    name: new URL(url).host,
    async lookup(query) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...(key ? { Authorization: `Bearer ${key}` } : {}) },
        body: JSON.stringify(query),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (response.status === 404) return null;
      if (!response.ok) throw new Error(`register answered ${response.status}`);
      const parsed = registerAnswer.safeParse(await response.json());
      if (!parsed.success) throw new Error('register answered in an unknown shape');
      const { badge, body, colour, vin, ...rest } = parsed.data;
      return { ...rest, ...(badge ? { badge } : {}), ...(body ? { body } : {}), ...(colour ? { colour } : {}), ...(vin ? { vin } : {}) };
    },
  };
}

export type RegoLookupReply =
  | { status: 200; body: { found: true; vehicle: RegisteredVehicle } | { found: false; message: string } }
  | { status: 400 | 502; body: { message: string; fields?: Record<string, string> } };

/** SPEC §7 "Rego lookup for trade-in": checks the plate and state as the form does, then asks the register. */
export async function lookupRego(
  register: RegoRegister,
  locale: SiteLocale,
  input: unknown,
  log?: (error: unknown) => void,
): Promise<RegoLookupReply> {
  const rule = regoRuleFor(locale);
  const body: { rego?: unknown; regoState?: unknown } = isRecord(input) ? input : {};
  const rego = normaliseRego(body.rego);
  const state = typeof body.regoState === 'string' ? body.regoState.trim().toUpperCase() : '';
  const fields: Record<string, string> = {};
  if (!rego) fields.rego = regoLookupMessages.regoMissing;
  else if (!rule.pattern.test(rego)) fields.rego = rule.message;
  if (rule.states.length && !rule.states.includes(state)) fields.regoState = regoLookupMessages.stateMissing;
  if (Object.keys(fields).length) return { status: 400, body: { message: 'Please check the highlighted fields.', fields } };
  try {
    const found = await register.lookup({ rego, state: rule.states.length ? state : null, country: countries[locale] });
    if (!found) return { status: 200, body: { found: false, message: regoLookupMessages.notFound } };
    // Anyone can ask about any plate: the VIN (what cloned plates are made from) stays on the server.
    const { vin: _vin, ...vehicle } = found;
    return { status: 200, body: { found: true, vehicle } };
  } catch (error) {
    log?.(error);
    return { status: 502, body: { message: regoLookupMessages.unavailable } };
  }
}
