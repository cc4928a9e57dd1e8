import type { Car, PaymentProcessor } from '@dealer/contracts/car';
import type { SiteLocale } from '@dealer/contracts/site';
import type { FieldRule } from './lead-validation';

/**
 * Reserving a car with a card deposit (SPEC §2 checkout, §3 payment processor, §9 reserve rules):
 * what the deposit is, how long a shopper may hold the car while paying, and the states a
 * reservation moves through. The server decides the amount; the browser only shows it.
 */

/** SPEC §9's "reserve" form submission, as the dealer's lead is filed. */
export const reservationLeadCategory = 'Reserve Enquiry';

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
 * - `expired`: the hold ran out unpaid; `cancelled`: the shopper gave the hold up before paying
 *   (a declined card does neither: the shopper keeps the hold and may try another card);
 * - `released`: the dealer gave the car back (the deposit refunded);
 * - `refunded`: paid after the car had gone to someone else, so the deposit went straight back.
 */
export const reservationStates = ['holding', 'reserved', 'expired', 'cancelled', 'released', 'refunded'] as const;
export type ReservationState = (typeof reservationStates)[number];

export type ReservationEvent = 'paid' | 'paid-too-late' | 'shopper-cancelled' | 'hold-ran-out' | 'dealer-released';

const transitions: Record<ReservationState, Partial<Record<ReservationEvent, ReservationState>>> = {
  holding: { paid: 'reserved', 'paid-too-late': 'refunded', 'shopper-cancelled': 'cancelled', 'hold-ran-out': 'expired' },
  // A payment that lands after the hold ran out reserves the car if it is still free, else is refunded.
  expired: { paid: 'reserved', 'paid-too-late': 'refunded' },
  cancelled: { paid: 'reserved', 'paid-too-late': 'refunded' },
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

/** What the checkout asks of the shopper before taking the deposit (SPEC §5 rules and messages). */
export const checkoutFormRules: readonly FieldRule[] = [
  { name: 'first_name', type: 'string', label: 'First name' },
  { name: 'last_name', type: 'string', label: 'Last name' },
  { name: 'email', type: 'email', label: 'Email address' },
  { name: 'phone', type: 'phone', label: 'Mobile number' },
  { name: 'terms_accepted', type: 'check', label: 'I agree to the reservation terms' },
];

/** The checkout's contact fields, as the server stores them on the reservation and its lead. */
export type CheckoutContact = { first_name: string; last_name: string; email: string; phone: string };

/**
 * The reservation terms the shopper ticks: what the deposit does, for how long the car is held
 * while paying, and how the deposit comes back. One text for the page and the dealer's lead.
 */
export function reservationTerms(dealerName: string): string {
  return `The deposit holds this car for you with ${dealerName} and comes off the price when you buy it. The car is held for ${reservationHoldMinutes} minutes while you pay. If the dealership releases your reservation, the deposit is refunded to your card in full.`;
}

/** Shopper-facing checkout texts, one wording for the page and the API. */
export const checkoutMessages = {
  heldByOther: `Someone else is reserving this car right now. If they do not finish paying within ${reservationHoldMinutes} minutes, it becomes available again.`,
  holdRanOut: `Your ${reservationHoldMinutes} minutes to pay ran out, so the car was released. Please start again.`,
  noCheckout: 'This site does not take deposits online.',
  noDeposit: 'This car has no deposit set up for online reserving. Please call us to reserve it.',
  notYours: 'This reservation could not be found. Please start again from the car.',
  payingFailed: 'We could not reach the payment provider. Your card has not been charged; please try again.',
  paymentNotStarted: 'The payment could not be started. Your card has not been charged; please call the dealership to reserve this car.',
} as const;

/** The states an event can move a reservation out of: what a guarded update may move it from. */
export function statesAllowing(event: ReservationEvent): ReservationState[] {
  return reservationStates.filter((state) => nextReservationState(state, event) !== null);
}
