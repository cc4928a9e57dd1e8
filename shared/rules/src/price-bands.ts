import { isPriceShown } from './price';
import { compareNames, formatNumber } from './locale';

/**
 * SPEC §3 facets `price_range` and `weekly_price_range`: a car's price (or weekly subscription
 * price) put in a band a shopper ticks, instead of typing a range. A band's value is
 * `min-max` (max exclusive) or `min+` for the top band, so it reads the same in a URL, a filter
 * and the index; the shopper sees {@link priceBandLabel}.
 */
export const priceBandFacets = ['price_range', 'weekly_price_range'] as const;
export type PriceBandFacet = (typeof priceBandFacets)[number];

/** Lower bounds of the bands; each band runs to the next bound, the last one open. */
const bounds: Record<PriceBandFacet, readonly number[]> = {
  price_range: [0, 10_000, 20_000, 30_000, 40_000, 50_000, 75_000, 100_000],
  weekly_price_range: [0, 150, 200, 250, 300, 400],
};

export const isPriceBandFacet = (facet: string): facet is PriceBandFacet => (priceBandFacets as readonly string[]).includes(facet);

/** The band a price falls in, or null when no price is shown for it (SPEC §5: 10 or less is a placeholder). */
export function priceBand(facet: PriceBandFacet, price: number | null | undefined): string | null {
  if (!isPriceShown(price)) return null;
  const list = bounds[facet];
  for (let i = list.length - 1; i >= 0; i -= 1) {
    const min = list[i]!;
    if (price >= min) return i === list.length - 1 ? `${min}+` : `${min}-${list[i + 1]}`;
  }
  return null;
}

const bandPattern = /^(\d+)(?:-(\d+)|\+)$/;
const dollars = (amount: number) => `$${formatNumber(amount)}`;

/** '10000-20000' → '$10,000 – $20,000', '0-150' on weekly prices → 'Under $150 a week'; other values unchanged. */
export function priceBandLabel(facet: PriceBandFacet, value: string): string {
  const match = bandPattern.exec(value);
  if (!match) return value;
  const min = Number(match[1]);
  const max = match[2] === undefined ? null : Number(match[2]);
  const text = max === null ? `${dollars(min)} and over` : min === 0 ? `Under ${dollars(max)}` : `${dollars(min)} – ${dollars(max)}`;
  return facet === 'weekly_price_range' ? `${text} a week` : text;
}

/** Bands in price order (a plain string sort would put '$100,000' before '$20,000'). */
export function compareBands(a: string, b: string): number {
  const lower = (value: string) => Number(bandPattern.exec(value)?.[1] ?? Number.POSITIVE_INFINITY);
  return lower(a) - lower(b) || compareNames(a, b);
}
