import { describe, expect, it } from 'vitest';
import { compareBands, priceBand, priceBandLabel } from './price-bands';

describe('price bands (SPEC §3 price_range, weekly_price_range)', () => {
  it.each([
    [9_999, '0-10000'],
    [10_000, '10000-20000'],
    [28_990, '20000-30000'],
    [74_999, '50000-75000'],
    [100_000, '100000+'],
    [249_000, '100000+'],
  ])('a car at $%d is in the %s price band', (price, band) => {
    expect(priceBand('price_range', price)).toBe(band);
  });

  it.each([
    [149, '0-150'],
    [199, '150-200'],
    [299, '250-300'],
    [459, '400+'],
  ])('a subscription at $%d a week is in the %s weekly band', (price, band) => {
    expect(priceBand('weekly_price_range', price)).toBe(band);
  });

  it.each([null, undefined, 0, 10, Number.NaN])('a car with no shown price (%s) is in no band', (price) => {
    expect(priceBand('price_range', price)).toBeNull();
  });

  it.each([
    ['price_range', '0-10000', 'Under $10,000'],
    ['price_range', '20000-30000', '$20,000 – $30,000'],
    ['price_range', '100000+', '$100,000 and over'],
    ['weekly_price_range', '0-150', 'Under $150 a week'],
    ['weekly_price_range', '250-300', '$250 – $300 a week'],
    ['weekly_price_range', '400+', '$400 and over a week'],
    ['price_range', 'cheap', 'cheap'],
  ] as const)('%s %s reads "%s"', (facet, value, label) => {
    expect(priceBandLabel(facet, value)).toBe(label);
  });

  it('orders bands by price, not as text', () => {
    expect(['100000+', '20000-30000', '0-10000', '10000-20000'].sort(compareBands)).toEqual([
      '0-10000',
      '10000-20000',
      '20000-30000',
      '100000+',
    ]);
  });
});
