import type { SiteLocale } from '@dealer/contracts/site';
import { defaultLocale, formatNumber, t } from './locale';

/** SPEC §5/§9: a price of 10 or less is a placeholder in the feed, not a real price. */
export const minShownPrice = 10;
/** SPEC §9: the below-market indicator needs a gap of more than this many dollars. */
export const belowMarketThreshold = 499;

export function isPriceShown(price: number | null | undefined): price is number {
  return typeof price === 'number' && Number.isFinite(price) && price > minShownPrice;
}

/**
 * Card and detail price text (SPEC §5).
 *
 * - Whole dollars show no cents: 25990 → '$25,990'.
 * - Any cents show two places: 1234.5 → '$1,234.50' (the SPEC's padding rule) and
 *   1234.56 → '$1,234.56'; more places are rounded to the cent, and a value that rounds to
 *   whole dollars (1234.999) shows as whole dollars.
 * - A preorder car with a real price shows the price; PREORDER only replaces the placeholder.
 * - All three locales use '$' and comma grouping; the locale only swaps the placeholder's
 *   wording (en-US 'Inquire for price.').
 */
export function formatPrice(price: number | null | undefined, opts: { preorder?: boolean; locale?: SiteLocale } = {}): string {
  const locale = opts.locale ?? defaultLocale;
  if (!isPriceShown(price)) return opts.preorder ? 'PREORDER' : t(locale, 'Enquire for price.');
  // Integer cents avoid float noise such as 1234.5 * 100 !== 123450 for other values.
  const cents = Math.round(price * 100);
  const fractionDigits = cents % 100 === 0 ? 0 : 2;
  const amount = formatNumber(cents / 100, fractionDigits);
  return `$${amount}`;
}

/**
 * Whole dollars under the market average, or null when the indicator should not show
 * (no shown price, no average, or not more than 499 under).
 */
export function belowMarketAmount(price: number | null | undefined, marketAverage: number | null | undefined): number | null {
  if (!isPriceShown(price) || typeof marketAverage !== 'number' || !Number.isFinite(marketAverage)) return null;
  const gap = marketAverage - price;
  return gap > belowMarketThreshold ? Math.round(gap) : null;
}

export function isBelowMarket(price: number | null | undefined, marketAverage: number | null | undefined): boolean {
  return belowMarketAmount(price, marketAverage) !== null;
}
