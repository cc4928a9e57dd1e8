import { describe, it, expect } from 'vitest';
import { belowMarketAmount, formatPrice, isBelowMarket, isPriceShown } from './price';

describe('formatPrice', () => {
  it.each([
    [25990, {}, '$25,990'],
    [1234, {}, '$1,234'],
    [1234.5, {}, '$1,234.50'],
    [1234.56, {}, '$1,234.56'],
    [1234.567, {}, '$1,234.57'],
    [1234.999, {}, '$1,235'],
    [1234.0, {}, '$1,234'],
    [1000000, {}, '$1,000,000'],
    [999, {}, '$999'],
    [11, {}, '$11'],
    [10.5, {}, '$10.50'],
    [10, {}, 'Enquire for price.'],
    [0, {}, 'Enquire for price.'],
    [-5, {}, 'Enquire for price.'],
    [null, {}, 'Enquire for price.'],
    [undefined, {}, 'Enquire for price.'],
    [Number.NaN, {}, 'Enquire for price.'],
    [10, { preorder: true }, 'PREORDER'],
    [0, { preorder: true }, 'PREORDER'],
    [null, { preorder: true }, 'PREORDER'],
    [45990, { preorder: true }, '$45,990'],
    [0, { locale: 'en-US' }, 'Inquire for price.'],
    [0, { locale: 'en-NZ' }, 'Enquire for price.'],
    [0, { locale: 'en-US', preorder: true }, 'PREORDER'],
    [25990, { locale: 'en-US' }, '$25,990'],
    [1234.5, { locale: 'en-NZ' }, '$1,234.50'],
  ] as const)('%s %j → %s', (price, opts, expected) => {
    expect(formatPrice(price, opts)).toBe(expected);
  });

  it('defaults to no options', () => {
    expect(formatPrice(5)).toBe('Enquire for price.');
  });
});

describe('isPriceShown', () => {
  it.each([
    [10, false],
    [10.01, true],
    [11, true],
    [null, false],
  ] as const)('%s → %s', (price, expected) => {
    expect(isPriceShown(price)).toBe(expected);
  });
});

describe('below market', () => {
  it.each([
    [20000, 20500, true, 500],
    [20000, 20499, false, null],
    [19501, 20000, false, null],
    [19500, 20000, true, 500],
    [20000, 20499.5, true, 500],
    [20000, 20500.01, true, 500],
    [20000, 20501, true, 501],
    [20000, 25000, true, 5000],
    [20000, 19000, false, null],
    [20000, null, false, null],
    [20000, undefined, false, null],
    [0, 20000, false, null],
    [10, 20000, false, null],
    [null, 20000, false, null],
  ] as const)('price %s, market %s → %s (%s)', (price, market, below, amount) => {
    expect(isBelowMarket(price, market)).toBe(below);
    expect(belowMarketAmount(price, market)).toBe(amount);
  });
});
