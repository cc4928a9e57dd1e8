import type { SiteLocale } from '@dealer/contracts/site';

/** What a vehicle register tells about a plate (the fields a trade-in form fills in). */
export type RegisteredVehicle = { make: string; model: string; year: string; badge?: string; body?: string; colour?: string; vin?: string };

export const regoLookupMessages = {
  regoMissing: 'Please enter your registration.',
  stateMissing: 'Please choose the state it is registered in.',
  notFound: 'We couldn’t find that registration. Please enter your car’s details below.',
  unavailable: 'We couldn’t look up that registration just now. Please enter your car’s details below.',
} as const;

export const australianStates = ['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT'] as const;
export const usStates = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'DC',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
] as const;

export type RegoRule = { pattern: RegExp; message: string; states: readonly string[]; label: string; stateLabel: string };

/**
 * Plates by country: Australian plates (custom ones included) have up to 9 letters and digits and
 * a state; New Zealand plates up to 6 and no state; US plates up to 8 and a state.
 */
export function regoRuleFor(locale: SiteLocale): RegoRule {
  if (locale === 'en-NZ')
    return {
      pattern: /^[A-Z0-9]{1,6}$/,
      message: 'Please enter a plate of up to 6 letters and numbers.',
      states: [],
      label: 'Registration (plate)',
      stateLabel: '',
    };
  if (locale === 'en-US')
    return {
      pattern: /^[A-Z0-9]{1,8}$/,
      message: 'Please enter a plate of up to 8 letters and numbers.',
      states: usStates,
      label: 'License plate',
      stateLabel: 'State',
    };
  return {
    pattern: /^[A-Z0-9]{1,9}$/,
    message: 'Please enter a registration of up to 9 letters and numbers.',
    states: australianStates,
    label: 'Registration (rego)',
    stateLabel: 'State',
  };
}

/** 'abc 123', 'ABC-123' → 'ABC123'; anything not a string → ''. */
export function normaliseRego(value: unknown): string {
  return typeof value === 'string' ? value.replace(/[\s-]/g, '').toUpperCase() : '';
}

/** The trade-in fields a found vehicle fills (the names the ADF and the dealer read). */
export function tradeInFieldsOf(vehicle: RegisteredVehicle): Record<string, string> {
  return {
    'Vehicle Make': vehicle.make,
    'Vehicle Model': vehicle.model,
    'Vehicle Year': vehicle.year,
    ...(vehicle.badge ? { 'Vehicle Badge': vehicle.badge } : {}),
    ...(vehicle.colour ? { 'Vehicle Colour': vehicle.colour } : {}),
  };
}
