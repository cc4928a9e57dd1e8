import Stripe from 'stripe';
import {
  PaymentNoticeRefused,
  PaymentProviderFailed,
  PaymentProviderRefused,
  type PaymentNotice,
  type PaymentProvider,
  type PaymentRequest,
  type StartedPayment,
} from './payment-provider';

export type StripeProviderOptions = {
  /** The dealership's `sk_…` key: server-side only, never in a message or a log line. */
  secretKey: string;
  /** The `whsec_…` secret of the dealership's webhook endpoint; null: notifications are refused. */
  webhookSecret: string | null;
  /** Where Stripe's API is, when not api.stripe.com (a local fake in tests and demos). */
  api?: { host: string; port: number; protocol: 'http' | 'https' };
};

/** A shopper waits on "Pay deposit" while we call Stripe: better told to try again than left hanging 80 s (stripe-node's default). */
const callTimeoutMs = 10_000;

/** What a failed payment says when Stripe gives no reason, in Stripe's own words. */
const declinedMessage = 'Your card was declined.';

/**
 * Deposits through Stripe PaymentIntents: the server creates the intent for the amount it decided,
 * the browser's Payment Element confirms it with the client secret, and Stripe's signed webhook
 * says whether it was paid. stripe-node retries a failed call twice with the same Idempotency-Key,
 * so a retry never charges twice.
 */
export class StripePaymentProvider implements PaymentProvider {
  readonly kind = 'stripe' as const;
  private readonly stripe: Stripe;
  private readonly webhookSecret: string | null;

  constructor(options: StripeProviderOptions) {
    this.stripe = new Stripe(options.secretKey, { maxNetworkRetries: 2, timeout: callTimeoutMs, ...options.api });
    this.webhookSecret = options.webhookSecret;
  }

  async start(request: PaymentRequest): Promise<StartedPayment> {
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: request.amountCents,
          currency: request.currency.toLowerCase(),
          description: request.description,
          receipt_email: request.customerEmail,
          metadata: { reservation_id: String(request.reservationId) },
          automatic_payment_methods: { enabled: true },
        },
        { idempotencyKey: request.idempotencyKey },
      );
      return { ref: intent.id, clientSecret: intent.client_secret, redirectUrl: null };
    } catch (error) {
      throw failed('start the payment', error);
    }
  }

  async refund(ref: string, amountCents: number, idempotencyKey: string): Promise<{ ref: string }> {
    try {
      const refund = await this.stripe.refunds.create({ payment_intent: ref, amount: amountCents }, { idempotencyKey });
      return { ref: refund.id };
    } catch (error) {
      throw failed('refund the payment', error);
    }
  }

  readNotice(rawBody: Buffer, headers: Readonly<Record<string, string | string[] | undefined>>): PaymentNotice {
    if (!this.webhookSecret) throw new PaymentNoticeRefused('Stripe notifications are not configured for this dealership');
    const signature = headers['stripe-signature'];
    if (typeof signature !== 'string' || !signature) throw new PaymentNoticeRefused('The notification has no Stripe-Signature header');
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret);
    } catch (error) {
      throw new PaymentNoticeRefused("The notification is not signed with this dealership's Stripe webhook secret", { cause: error });
    }
    switch (event.type) {
      case 'payment_intent.succeeded': {
        const intent = event.data.object;
        return { kind: 'paid', ref: intent.id, reservationId: reservationIdOf(intent) };
      }
      case 'payment_intent.payment_failed': {
        const intent = event.data.object;
        return {
          kind: 'failed',
          ref: intent.id,
          reservationId: reservationIdOf(intent),
          message: intent.last_payment_error?.message ?? declinedMessage,
        };
      }
      default:
        return { kind: 'ignored', type: event.type };
    }
  }
}

/** The reservation `start` wrote into the intent's metadata; null for a payment taken some other way (the dashboard, another app). */
function reservationIdOf(intent: Stripe.PaymentIntent): number | null {
  const value = intent.metadata?.reservation_id;
  if (typeof value !== 'string' || !/^[1-9]\d{0,15}$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : null;
}

/**
 * Stripe's errors, as the shopper-facing failures: refused (a 4xx about the request itself, which
 * asking again will not change; 409 and 429 are Stripe being busy) or "try again". The message
 * names the kind of error only: Stripe's own message can quote the request, so it goes in a
 * refusal's `reason` and in `cause`, for the log.
 */
function failed(doing: string, error: unknown): unknown {
  if (error instanceof Stripe.errors.StripeConnectionError)
    return new PaymentProviderFailed(`Stripe could not be reached to ${doing}`, { cause: error });
  if (error instanceof Stripe.errors.StripeError) {
    const why = [error.rawType ?? error.type, error.code, error.statusCode && `HTTP ${error.statusCode}`].filter(Boolean).join(', ');
    const message = `Stripe refused to ${doing} (${why})`;
    const status = error.statusCode ?? 0;
    if (status >= 400 && status < 500 && status !== 409 && status !== 429) {
      const details = [error.param && `param ${error.param}`, error.requestId && `request ${error.requestId}`].filter(Boolean).join(', ');
      return new PaymentProviderRefused(message, details ? `${error.message} (${details})` : error.message, { cause: error });
    }
    return new PaymentProviderFailed(message, { cause: error });
  }
  return error;
}
