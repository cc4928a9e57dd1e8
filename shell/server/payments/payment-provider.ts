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
  currency: string;
  /** What the shopper's statement and the dealer's dashboard show. */
  description: string;
  customerEmail: string;
  /** The same key for every retry of one request, so the provider starts one payment, not two. */
  idempotencyKey: string;
};

export type StartedPayment = {
  /** The provider's id of the payment (a PaymentIntent's `pi_…`). */
  ref: string;
  /** What the browser needs to complete it: Stripe's client secret, a hosted page, or nothing. */
  clientSecret: string | null;
  redirectUrl: string | null;
};

export type PaymentOutcome = { paid: true } | { paid: false; message: string };

export interface PaymentProvider {
  readonly kind: PaymentProviderKind;
  start(request: PaymentRequest): Promise<StartedPayment>;
  refund(ref: string, amountCents: number, idempotencyKey: string): Promise<{ ref: string }>;
}

/** A dealership whose payment provider has no keys set: said plainly to the shopper, never a 500. */
export class PaymentNotConfigured extends Error {
  constructor(readonly provider: PaymentProviderKind) {
    super('Online deposits are not set up for this dealership yet. Please call us to reserve this car.');
  }
}
