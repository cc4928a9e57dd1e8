import type { Car } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';

/** SPEC §9: the finance calculator's default interest rate, in percent a year. */
export const defaultInterestRate = 10;
export const repaymentFrequencies = { weekly: 52, fortnightly: 26, monthly: 12 } as const;
export type RepaymentFrequency = keyof typeof repaymentFrequencies;
export const financeTermsMonths = [12, 24, 36, 48, 60, 72, 84] as const;

/** SPEC §6: the finance option shows for manufacturer ids 8, 9 or 27, or the Angle finance provider. */
export const financeManufacturerIds = [8, 9, 27] as const;
export function showsFinanceCalculator(site: Pick<SiteConfig, 'manufacturer_id' | 'finance_provider'>): boolean {
  return (
    (site.manufacturer_id !== null && (financeManufacturerIds as readonly number[]).includes(site.manufacturer_id)) ||
    site.finance_provider === 'Angle'
  );
}

/**
 * An amortised loan's repayment per period: the amount financed (price less deposit) over the
 * term at the yearly rate, compounded per repayment period. Whole cents, rounded up.
 */
export function financeRepayment(input: {
  price: number;
  deposit: number;
  ratePercent?: number;
  termMonths: number;
  frequency: RepaymentFrequency;
}): number {
  const principal = Math.max(0, input.price - Math.max(0, input.deposit));
  const perYear = repaymentFrequencies[input.frequency];
  const periods = Math.round((input.termMonths / 12) * perYear);
  if (principal === 0 || periods <= 0) return 0;
  const rate = (input.ratePercent ?? defaultInterestRate) / 100 / perYear;
  const payment = rate === 0 ? principal / periods : (principal * rate) / (1 - (1 + rate) ** -periods);
  return Math.ceil(payment * 100 - 1e-9) / 100;
}

/**
 * SPEC §2: the finance page with the car's context in the query and the form anchor.
 * The link click is event 58.
 */
export function financeLink(
  site: Pick<SiteConfig, 'finance_path'>,
  car: Pick<Car, 'id' | 'car_type' | 'vin' | 'price' | 'dealership_slug'>,
): string {
  const params = new URLSearchParams({
    preferredDealership: car.dealership_slug,
    vehiclePriceBudget: String(Math.round(car.price)),
    car_id: String(car.id),
    car_type: car.car_type,
    vin: car.vin,
  });
  return `${site.finance_path}?${params.toString()}#finance-form`;
}
