/**
 * Card deposits behind one interface, whatever takes the payment: Stripe (PaymentIntents), Till and
 * St.George (hosted payment pages), or the built-in test provider that stands in for all of them
 * offline. The amount is always decided on the server; the browser only completes the payment the
 * server started.
 */

import type { PaymentProviderKind as ProcessorKind } from '@dealer/rules/reservation';

/** A car's payment processor (SPEC §3), or the built-in test provider standing in for it. */
export type PaymentProviderKind = 'test' | ProcessorKind;

export type PaymentRequest = {
  reservationId: number;
  amountCents: number;
  /** ISO 4217, upper case ('AUD'). */
  currency: string;
  /** What the shopper's statement and the dealer's dashboard show. */
  description: string;
  customerEmail: string;
  /** Where a hosted payment page sends the shopper back to (absolute URL). */
  returnUrl: string;
  /** The same key for every retry of one request, so the provider starts one payment, not two. */
  idempotencyKey: string;
};

export type StartedPayment = {
  /** The provider's id of the payment (a PaymentIntent's `pi_…`). */
  ref: string;
  /** What the browser needs to complete it: Stripe's client secret, or null. */
  clientSecret: string | null;
  /** A hosted payment page to send the shopper to, or null. */
  redirectUrl: string | null;
};

export type PaymentOutcome = { paid: true } | { paid: false; message: string };

/**
 * What a provider's signed notification (a webhook) says about one payment. `reservationId` is
 * the id given to `start` (carried in the payment's metadata), null when the payment is not ours.
 */
export type PaymentNotice =
  | { kind: 'paid'; ref: string; reservationId: number | null }
  | { kind: 'failed'; ref: string; reservationId: number | null; message: string }
  | { kind: 'ignored'; type: string };

/** A notification whose signature does not check out (or that is not one at all): a 400, never acted on. */
export class PaymentNoticeRefused extends Error {}

/** The provider could not be reached or refused a call; the shopper is told to try again. */
export class PaymentProviderFailed extends Error {}

/**
 * The provider answered and refused the request itself (Stripe's 4xx: a parameter, the key, the
 * account), so trying again will not help. `reason` is the provider's own account of why, for the
 * log only: it can quote the request.
 */
export class PaymentProviderRefused extends PaymentProviderFailed {
  constructor(
    message: string,
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export interface PaymentProvider {
  readonly kind: PaymentProviderKind;
  start(request: PaymentRequest): Promise<StartedPayment>;
  refund(ref: string, amountCents: number, idempotencyKey: string): Promise<{ ref: string }>;
  /**
   * Reads a signed notification from the provider, checking its signature first (throws
   * PaymentNoticeRefused when it does not check out). Absent for the test provider, which is paid
   * in process.
   */
  readNotice?(rawBody: Buffer, headers: Readonly<Record<string, string | string[] | undefined>>): PaymentNotice;
}

/** A dealership whose payment provider has no keys set: said plainly to the shopper, never a 500. */
export class PaymentNotConfigured extends Error {
  constructor(readonly provider: PaymentProviderKind) {
    super('Online deposits are not set up for this dealership yet. Please call us to reserve this car.');
  }
}
