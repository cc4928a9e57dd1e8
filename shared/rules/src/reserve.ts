import type { Car } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';
import { isSold } from './tags';

/** SPEC §9: a deposit is only worth taking on a car priced above this. */
export const minReservePrice = 200;

/** Shopper-facing reasons, exported so screens and tests compare against one text. */
export const reserveBlockReasons = {
  noOnlinePayment: 'This site does not take online payments.',
  price: 'Only cars priced above $200 can be reserved.',
  sold: 'This car has been sold.',
  reserved: 'This car is already reserved.',
  status: 'This car is not in stock.',
  notReservable: 'This car cannot be reserved online.',
  noPaymentProcessor: 'This dealership does not take deposits online.',
} as const;

export type ReserveCar = Pick<
  Car,
  'price' | 'status' | 'sold' | 'reserved' | 'reservable' | 'payment_processors' | 'has_checkout_payment_processor'
>;
export type ReserveDecision = { ok: true } | { ok: false; reason: string };

/**
 * SPEC §6/§9 reserve eligibility. Checks run site first, then the car's state, then its
 * price and set-up, so the reason names the most basic blocker. reservable null means
 * "not set", which allows reserving; only an explicit false blocks. Either a processor on the
 * car or the dealership's checkout processor counts as "a payment processor present".
 */
export function canReserve(car: ReserveCar, opts: { siteSupportsOnlinePayment: boolean; allowComingSoon?: boolean }): ReserveDecision {
  const block = (reason: string): ReserveDecision => ({ ok: false, reason });
  if (!opts.siteSupportsOnlinePayment) return block(reserveBlockReasons.noOnlinePayment);
  if (isSold(car)) return block(reserveBlockReasons.sold);
  if (car.reserved) return block(reserveBlockReasons.reserved);
  const statusAllowed = car.status === 'in_stock' || (car.status === 'coming_soon' && opts.allowComingSoon === true);
  if (!statusAllowed) return block(reserveBlockReasons.status);
  if (!(car.price > minReservePrice)) return block(reserveBlockReasons.price);
  if (car.reservable === false) return block(reserveBlockReasons.notReservable);
  if (car.payment_processors.length === 0 && !car.has_checkout_payment_processor) {
    return block(reserveBlockReasons.noPaymentProcessor);
  }
  return { ok: true };
}

/**
 * SPEC §2/§6: whether a site takes card deposits at all. Subscription and rental sites have no
 * checkout; any other site does once it has a payment provider.
 */
export function siteTakesDeposits(site: Pick<SiteConfig, 'template' | 'payment_provider'>): boolean {
  return site.template !== 'subscription-cars' && site.template !== 'rental-cars' && Boolean(site.payment_provider);
}

/** The site's side of SPEC §9's reserve rules, for `canReserve`: whether it takes deposits, and on coming-soon cars too. */
export function reserveOptionsFor(site: Pick<SiteConfig, 'template' | 'payment_provider' | 'features'>): {
  siteSupportsOnlinePayment: boolean;
  allowComingSoon: boolean;
} {
  return { siteSupportsOnlinePayment: siteTakesDeposits(site), allowComingSoon: site.features.reserve_coming_soon === true };
}
