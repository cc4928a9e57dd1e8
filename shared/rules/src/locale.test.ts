import { describe, it, expect } from 'vitest';
import { compareNames, currencyCode, formatDistance, formatNumber, localeWording, phoneRegion, t } from './locale';

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

describe('numbers as the site locales write them', () => {
  const values = [0, 7, 42, 999, 1000, 1234.5, 12_345.67, 99_999.99, 100_000, 1_234_567.89, 43_990, 250_000.05, 0.5, -1500];
  it.each(['en-AU', 'en-NZ', 'en-US'] as const)('are what Intl writes in %s, whole and in cents', (locale) => {
    for (const value of values) {
      for (const digits of [0, 2]) {
        const intl = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(
          Number(value.toFixed(digits)),
        );
        expect(formatNumber(value, digits), `${value} with ${digits} decimals`).toBe(intl);
      }
    }
  });

  it('writes a negative amount that rounds to nothing as 0 (Intl writes -0)', () => {
    expect(formatNumber(-0.001)).toBe('0');
  });
});

describe('compareNames', () => {
  // The names stock is listed under: makes, body types, colours, fuels, seats, features.
  const names = [
    ...['Toyota', 'Abarth', 'Alfa Romeo', 'Aston Martin', 'Audi', 'BMW', 'BYD', 'Chery', 'Citroën', 'Cupra', 'Ford', 'GWM', 'Haval'],
    ...['Honda', 'Hyundai', 'Isuzu', 'Jeep', 'Kia', 'Land Rover', 'LDV', 'Lexus', 'Mahindra', 'Mazda', 'Mercedes-Benz', 'Mercedes AMG'],
    ...['MG', 'MINI', 'Mitsubishi', 'Nissan', 'Peugeot', 'Polestar', 'Porsche', 'RAM', 'Renault', 'Škoda', 'SsangYong', 'Subaru'],
    ...['Suzuki', 'Tesla', 'Volkswagen', 'Volvo', 'Cab Chassis', 'Hatch', 'People Mover', 'SUV', 'Sedan', 'Ute', 'Van', 'Wagon'],
    ...['Crystal White Pearl', 'Soul Red', 'Blue', 'grey', 'Diesel', 'Electric', 'Hybrid', 'Petrol', 'Plug-in Hybrid', '2', '5', '7'],
    ...['360° camera', 'Apple CarPlay', 'Bluetooth', 'Cruise control', 'Heated seats', 'Lane keep assist', 'Reversing camera'],
  ];

  it('lists names in the order localeCompare gives them, without loading a collator', () => {
    expect([...names].sort(compareNames)).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it('sets accents and case aside, then orders names that differ only in them the same way every time', () => {
    expect(['Skoda', 'Seat', 'Škoda', 'Smart'].sort(compareNames)).toEqual(['Seat', 'Skoda', 'Škoda', 'Smart']);
    expect(compareNames('mg', 'MG')).toBe(-compareNames('MG', 'mg'));
    expect(compareNames('MG', 'MG')).toBe(0);
    expect(compareNames('Mazda', 'MG')).toBeLessThan(0);
  });
});
