import { describe, it, expect } from 'vitest';
import { currencyCode, formatDistance, localeWording, numberFormat, phoneRegion, t } from './locale';

describe('t', () => {
  it.each([
    ['en-US', 'colour', 'color'],
    ['en-US', 'Colour', 'Color'],
    ['en-US', 'enquiry', 'inquiry'],
    ['en-US', 'Enquiry', 'Inquiry'],
    ['en-US', 'Enquire', 'Inquire'],
    ['en-US', 'petrol', 'gas'],
    ['en-US', 'Petrol', 'Gas'],
    ['en-US', 'ENQUIRY', 'INQUIRY'],
    ['en-US', 'Submit an enquiry', 'Submit an inquiry'],
    ['en-US', 'Enquire for price.', 'Inquire for price.'],
    ['en-US', 'General Enquiry', 'General Inquiry'],
    ['en-US', 'Exterior colours', 'Exterior colors'],
    ['en-US', 'Diesel', 'Diesel'],
    ['en-AU', 'Enquire', 'Enquire'],
    ['en-AU', 'colour', 'colour'],
    ['en-NZ', 'petrol', 'petrol'],
    ['en-NZ', 'Submit an enquiry', 'Submit an enquiry'],
  ] as const)('%s %j → %j', (locale, text, expected) => {
    expect(t(locale, text)).toBe(expected);
  });
});

describe('localeWording', () => {
  it.each([
    ['en-AU', {}],
    ['en-NZ', {}],
  ] as const)('%s swaps nothing', (locale, expected) => {
    expect(localeWording(locale)).toEqual(expected);
  });

  it.each([
    ['colour', 'color'],
    ['Colour', 'Color'],
    ['enquiry', 'inquiry'],
    ['Enquiry', 'Inquiry'],
    ['Enquire', 'Inquire'],
    ['petrol', 'gas'],
    ['Petrol', 'Gas'],
  ])('en-US swaps %s → %s', (from, to) => {
    expect(localeWording('en-US')[from]).toBe(to);
  });
});

describe('formatDistance', () => {
  it.each([
    [0, 'en-AU', '0 km'],
    [12345, 'en-AU', '12,345 km'],
    [12345.6, 'en-NZ', '12,346 km'],
    [1000000, 'en-AU', '1,000,000 km'],
    [0, 'en-US', '0 mi'],
    [1.609344, 'en-US', '1 mi'],
    [100000, 'en-US', '62,137 mi'],
    [16093.44, 'en-US', '10,000 mi'],
  ] as const)('%d km in %s → %s', (km, locale, expected) => {
    expect(formatDistance(km, locale)).toBe(expected);
  });
});

describe('currencyCode and phoneRegion', () => {
  it.each([
    ['en-AU', 'AUD', 'AU'],
    ['en-NZ', 'NZD', 'NZ'],
    ['en-US', 'USD', 'US'],
  ] as const)('%s → %s, %s', (locale, currency, region) => {
    expect(currencyCode(locale)).toBe(currency);
    expect(phoneRegion(locale)).toBe(region);
  });
});

describe('number formats', () => {
  it('are made once per locale and options, and format as their locale does', () => {
    expect(numberFormat('en-AU', { maximumFractionDigits: 0 })).toBe(numberFormat('en-AU', { maximumFractionDigits: 0 }));
    expect(numberFormat('en-AU', { maximumFractionDigits: 0 })).not.toBe(numberFormat('en-AU', { maximumFractionDigits: 2 }));
    expect(numberFormat('en-US').format(1234567.5)).toBe('1,234,567.5');
    expect(numberFormat('en-NZ', { maximumFractionDigits: 0 }).format(42_001.4)).toBe('42,001');
  });
});
