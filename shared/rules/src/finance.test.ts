import { describe, expect, it } from 'vitest';
import { defaultInterestRate, financeLink, financeRepayment, showsFinanceCalculator } from './finance';

describe('finance calculator (SPEC §9: default rate 10%)', () => {
  it('defaults to 10% a year', () => expect(defaultInterestRate).toBe(10));

  it.each([
    // price, deposit, term, frequency → repayment (standard amortisation at 10% p.a.)
    [30_000, 0, 60, 'monthly', 637.42],
    [30_000, 5_000, 60, 'monthly', 531.18],
    [30_000, 0, 36, 'monthly', 968.02],
    [30_000, 0, 60, 'weekly', 146.74],
    [30_000, 0, 60, 'fortnightly', 293.69],
    [20_000, 20_000, 60, 'monthly', 0],
    [20_000, 25_000, 60, 'monthly', 0],
  ] as const)('$%i with $%i deposit over %i months, %s → $%d', (price, deposit, termMonths, frequency, expected) => {
    expect(financeRepayment({ price, deposit, termMonths, frequency })).toBeCloseTo(expected, 2);
  });

  it('a larger deposit lowers the repayment', () => {
    const low = financeRepayment({ price: 40_000, deposit: 2_000, termMonths: 48, frequency: 'monthly' });
    const high = financeRepayment({ price: 40_000, deposit: 10_000, termMonths: 48, frequency: 'monthly' });
    expect(high).toBeLessThan(low);
  });

  it('a 0% rate divides evenly', () => {
    expect(financeRepayment({ price: 12_000, deposit: 0, termMonths: 12, frequency: 'monthly', ratePercent: 0 })).toBe(1000);
  });
});

describe('where the finance option shows (SPEC §6)', () => {
  it.each([
    [8, null, true],
    [9, null, true],
    [27, null, true],
    [1, null, false],
    [null, null, false],
    [null, 'Angle', true],
    [3, 'Other', false],
  ])('manufacturer %s, provider %s → %s', (manufacturer_id, finance_provider, shown) => {
    expect(showsFinanceCalculator({ manufacturer_id, finance_provider })).toBe(shown);
  });
});

describe('finance link (SPEC §2)', () => {
  it('carries the car to the finance form', () => {
    const link = financeLink(
      { finance_path: '/finance-enquiry' },
      { id: 42, car_type: 'used', vin: 'JTNKU3JE60J123456', price: 27990.5, dealership_slug: 'metro-toyota' },
    );
    const url = new URL(link, 'https://dealer.example');
    expect(url.pathname).toBe('/finance-enquiry');
    expect(url.hash).toBe('#finance-form');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      preferredDealership: 'metro-toyota',
      vehiclePriceBudget: '27991',
      car_id: '42',
      car_type: 'used',
      vin: 'JTNKU3JE60J123456',
    });
  });
});
