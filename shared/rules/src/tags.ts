import type { Car, CarStatus } from '@dealer/contracts/car';
import type { SiteConfig, SiteFeatures } from '@dealer/contracts/site';

export const secondsPerDay = 86_400;
/** SPEC §9 just-arrived window when a site sets none. */
export const defaultJustArrivedDays = 8;
/** SPEC §4/§9: sold cars stay listed this many days (259200 s) when a site sets none. */
export const defaultIncludeSoldCarsDays = 3;
/** SPEC names no default just-arrived text; upper case to match 'JUST SOLD' and 'COMING SOON'. */
export const defaultJustArrivedTagName = 'JUST ARRIVED';
export const defaultSoldTagName = 'JUST SOLD';

export type CardTagKind = 'fuel' | 'reserved' | 'on-hold' | 'certified' | 'custom' | 'coming-soon' | 'just-arrived' | 'sold';
export type CardTag = { text: string; kind: CardTagKind };

export type TagCar = Pick<
  Car,
  'status' | 'sold' | 'reserved' | 'on_hold_until_timestamp' | 'certified' | 'tag' | 'simple_fuel' | 'created_at_timestamp'
>;
/** Specifications are optional here so a partly configured site falls back to SPEC defaults. */
export type TagSite = {
  features: Pick<SiteFeatures, 'fuel_tags'>;
  specifications: { [K in keyof SiteConfig['specifications']]?: SiteConfig['specifications'][K] | null };
};

/** Feed fuel values (lower case) that earn a fuel tag, with the text shown. */
const fuelTagText: Record<string, string> = {
  electric: 'Electric',
  hybrid: 'Hybrid',
  'plug-in hybrid': 'Plug-in Hybrid',
  phev: 'Plug-in Hybrid',
};

const nonEmpty = (text: string | null | undefined): text is string => typeof text === 'string' && text.trim() !== '';

/** The feed's flag and status can disagree; either one means the car is gone. */
export function isSold(car: Pick<Car, 'status' | 'sold'>): boolean {
  return car.status === 'sold' || car.sold;
}

/**
 * The single banner on a vehicle card (SPEC §4).
 *
 * Sold comes first: the precedence list is written for cars that are for sale, and a sold
 * car still carrying 'Reserved' or a custom tag must not look available. The just-arrived
 * window is inclusive of its last second; a just_arrived_days of 0 or less turns the tag off.
 */
export function cardTag(car: TagCar, site: TagSite, now: number): CardTag | null {
  const spec = site.specifications;
  if (isSold(car)) return { text: nonEmpty(spec.sold_tag_name) ? spec.sold_tag_name : defaultSoldTagName, kind: 'sold' };

  const fuel = fuelTagText[car.simple_fuel.trim().toLowerCase()];
  if (site.features.fuel_tags && fuel) return { text: fuel, kind: 'fuel' };
  if (car.reserved) return { text: 'Reserved', kind: 'reserved' };
  // A shopper is paying the deposit: not to be had for now, and available again if the hold runs out.
  if (car.on_hold_until_timestamp != null && car.on_hold_until_timestamp > now) return { text: 'On hold', kind: 'on-hold' };
  if (car.certified) return { text: 'Certified', kind: 'certified' };
  if (nonEmpty(car.tag)) return { text: car.tag.trim(), kind: 'custom' };
  if (car.status === 'coming_soon') return { text: 'COMING SOON', kind: 'coming-soon' };

  const days = spec.just_arrived_days ?? defaultJustArrivedDays;
  if (days > 0 && now - car.created_at_timestamp <= days * secondsPerDay) {
    return { text: nonEmpty(spec.just_arrived_tag_name) ? spec.just_arrived_tag_name : defaultJustArrivedTagName, kind: 'just-arrived' };
  }
  return null;
}

/** SPEC §3 tag values: 'Test Drive Only' and its starred variant mark a car that is booked, not sold, online. */
export function isTestDriveOnly(car: Pick<Car, 'tag'>): boolean {
  const tag = car.tag?.trim();
  return tag === 'Test Drive Only' || tag === 'Test Drive Only*';
}

export function isEnquirable(status: CarStatus): boolean {
  return status === 'in_stock' || status === 'coming_soon';
}

/** Oldest sold_date_timestamp still listed; the search service filters with `>=` this value. */
export function soldListingCutoff(includeSoldCarsDays: number | null | undefined, now: number): number {
  return now - (includeSoldCarsDays ?? defaultIncludeSoldCarsDays) * secondsPerDay;
}

/**
 * SPEC §4/§9 search visibility: hidden cars never list; sold cars list until the window after
 * their sold date closes (inclusive). A sold car without a sold date cannot be placed in the
 * window, so it is not listed.
 */
export function isListedInSearch(
  car: Pick<Car, 'status' | 'sold' | 'sold_date_timestamp' | 'show_on_dealer_website'>,
  includeSoldCarsDays: number | null | undefined,
  now: number,
): boolean {
  if (!car.show_on_dealer_website) return false;
  if (isSold(car)) {
    return car.sold_date_timestamp !== null && car.sold_date_timestamp >= soldListingCutoff(includeSoldCarsDays, now);
  }
  return isEnquirable(car.status);
}
