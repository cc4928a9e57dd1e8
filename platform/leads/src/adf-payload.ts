/**
 * The lead payload as the ADF writer (adf.ts) reads it: fields found by any of their spellings, values as
 * dealer-readable text, and the keys that are tracking data or secrets and never shown.
 */
import { isRecord } from './is-record';

/** Payload keys that are tracking or routing data, not something the dealer reads. */
export const internalKeys = new Set(
  [
    'lead_id',
    'lead_status',
    'form_completed',
    'skipped_steps',
    'step_number',
    'source',
    'website_slug',
    'user_agent',
    'visited_pages',
    'page_id',
    'dealership_slug',
    'location_id',
    'booking_location_id',
    'car_id',
    'car_type',
    'stock_number',
    'manufacturer_slug',
    'vehicle_status',
    'has_files',
    'url',
    'linked_query_params',
  ].map(normKey),
);
/** Never copied into a document that goes by email or to a third party. */
export const sensitiveKey = /token|secret|password|passwd|cardnumber|creditcard|cvv|cvc|ccexpiration|expirydate|honeypot/;

export function normKey(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** A payload value as dealer-readable text: booleans as Yes/No, lists joined, objects as key: value. */
export function payloadText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') {
    const text = value.trim();
    return text === 'undefined' || text === 'null' || text === 'undefined undefined' ? '' : text;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.map(payloadText).filter(Boolean).join(', ');
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([key, inner]) => [key, payloadText(inner)] as const)
      .filter(([, text]) => text)
      .map(([key, text]) => `${key}: ${text}`)
      .join(', ');
  }
  return '';
}

/** Reads payload fields by any of their spellings ('Vehicle Make', vehicle_make, vehicleMake) and remembers what it used. */
export class PayloadReader {
  private readonly byNorm = new Map<string, string>();
  readonly used = new Set<string>();

  constructor(readonly payload: Record<string, unknown>) {
    for (const key of Object.keys(payload)) {
      const norm = normKey(key);
      if (!this.byNorm.has(norm)) this.byNorm.set(norm, key);
    }
  }

  /** The first of the names present with a non-empty value. */
  key(...names: string[]): string | undefined {
    for (const name of names) {
      const key = this.byNorm.get(normKey(name));
      if (key !== undefined && payloadText(this.payload[key]) !== '') return key;
    }
    return undefined;
  }

  peek(...names: string[]): string {
    const key = this.key(...names);
    return key === undefined ? '' : payloadText(this.payload[key]);
  }

  /** Like peek, and marks the field as shown so it is not listed again in the comments. */
  take(...names: string[]): string {
    const key = this.key(...names);
    if (key === undefined) return '';
    this.used.add(key);
    return payloadText(this.payload[key]);
  }

  consume(...names: string[]): void {
    for (const name of names) {
      const key = this.byNorm.get(normKey(name));
      if (key !== undefined) this.used.add(key);
    }
  }

  entries(): [string, unknown][] {
    return Object.entries(this.payload);
  }
}

/** The lead payload itself, also when it was stored still wrapped as `{ lead: {...} }`. */
export function unwrapPayload(payload: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(payload);
  const inner = payload.lead;
  if (keys.length === 1 && isRecord(inner)) return inner;
  return payload;
}
