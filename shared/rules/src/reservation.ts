import type { Car, PaymentProcessor } from '@dealer/contracts/car';
import type { SiteLocale } from '@dealer/contracts/site';

/**
 * Reserving a car with a card deposit (SPEC §2 checkout, §3 payment processor, §9 reserve rules):
 * what the deposit is, how long a shopper may hold the car while paying, and the states a
 * reservation moves through. The server decides the amount; the browser only shows it.
 */

/** A shopper holds the car this long while paying; when it runs out, anyone may reserve it. */
export const reservationHoldMinutes = 15;

export type PaymentProviderKind = PaymentProcessor['authorization_type'];

/** The currency of a site's deposits, from its country. */
export const currencyOfLocale: Record<SiteLocale, 'AUD' | 'NZD' | 'USD'> = { 'en-AU': 'AUD', 'en-NZ': 'NZD', 'en-US': 'USD' };

export type Deposit = { amountCents: number; currency: 'AUD' | 'NZD' | 'USD'; provider: PaymentProviderKind };

export type DepositCar = Pick<Car, 'price' | 'payment_processors'>;

/**
 * The deposit a car takes: its payment processor's `deposit_amount` (dollars) in cents, in the
 * site's currency. None when the car has no processor, or the processor's deposit is not a
 * positive amount below the car's price (a set-up mistake the dealer must fix, not a charge to try).
 */
export function depositFor(car: DepositCar, locale: SiteLocale): Deposit | null {
  const processor = car.payment_processors[0];
  if (!processor) return null;
  const amount = processor.deposit_amount;
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0 || amount >= car.price) return null;
  return { amountCents: Math.round(amount * 100), currency: currencyOfLocale[locale], provider: processor.authorization_type };
}

/**
 * A reservation's life:
 * - `holding`: the car is held for the shopper while they pay (until `held_until`);
 * - `reserved`: the deposit is paid; the car shows "Reserved" until the dealer releases it;
 * - `expired`: the hold ran out unpaid; `declined`: the card was refused and the hold given up;
 * - `released`: the dealer gave the car back (the deposit refunded);
 * - `refunded`: paid after the car had gone to someone else, so the deposit went straight back.
 */
export const reservationStates = ['holding', 'reserved', 'expired', 'declined', 'released', 'refunded'] as const;
export type ReservationState = (typeof reservationStates)[number];

export type ReservationEvent = 'paid' | 'paid-too-late' | 'declined' | 'hold-ran-out' | 'dealer-released';

const transitions: Record<ReservationState, Partial<Record<ReservationEvent, ReservationState>>> = {
  holding: { paid: 'reserved', 'paid-too-late': 'refunded', declined: 'declined', 'hold-ran-out': 'expired', 'dealer-released': 'released' },
  // A payment that lands after the hold ran out reserves the car if it is still free, else is refunded.
  expired: { paid: 'reserved', 'paid-too-late': 'refunded' },
  declined: { paid: 'reserved', 'paid-too-late': 'refunded' },
  reserved: { 'dealer-released': 'released' },
  released: {},
  refunded: {},
};

/** The state after an event, or null when the event cannot happen in that state. */
export function nextReservationState(state: ReservationState, event: ReservationEvent): ReservationState | null {
  return transitions[state][event] ?? null;
}

/** States in which the reservation holds the car (no one else may hold or reserve it). */
export const holdsTheCar = (state: ReservationState) => state === 'holding' || state === 'reserved';
