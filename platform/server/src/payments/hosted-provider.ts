/**
 * Deposits through a hosted payment page (Till, St.George): the shopper pays on the gateway's own
 * page, so card details never reach our servers. The gateway speaks this protocol (ours), with the
 * dealership's merchant key from the site's secrets:
 *
 * - Start: `POST {url}/payments` with `Authorization: Bearer {key}`, `Idempotency-Key` and JSON
 *   `{ amount, currency, reference, description, email, return_url }` (amount in cents, currency
 *   ISO 4217 upper case, reference `reservation-<id>`). It answers 2xx JSON `{ id, redirect_url }`:
 *   its payment id and the http(s) page to send the shopper to.
 * - Refund: `POST {url}/payments/{id}/refunds` with the same headers and JSON `{ amount }`. It
 *   answers 2xx JSON `{ id }`, the refund's id.
 * - Notification: the gateway POSTs JSON `{ type: 'payment.succeeded' | 'payment.failed', id,
 *   reference, message? }` to our webhook, signed in header `x-gateway-signature:
 *   t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" under the key>` (Stripe's scheme).
 *   A notification signed more than 5 minutes from now is refused, so a captured one cannot be
 *   replayed later. Other types are ignored, so the gateway can add some.
 *
 * The same Idempotency-Key on a retry must get the same payment (or refund) back, not a second one.
 */

import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { HostedGatewaySettings } from '@dealer/contracts/site';
import { bodyAtMost } from '@dealer/leads/response-body';
import {
  PaymentNoticeRefused,
  PaymentProviderFailed,
  type PaymentNotice,
  type PaymentProvider,
  type PaymentProviderKind,
  type PaymentRequest,
  type StartedPayment,
} from './payment-provider';

/** The processors whose deposits are taken on a hosted payment page: every one but Stripe. */
export type HostedPageKind = Exclude<PaymentProviderKind, 'test' | 'stripe'>;

export type HostedPageProviderOptions = {
  kind: HostedPageKind;
  gateway: HostedGatewaySettings;
  /** Tests hand in their own; the global fetch otherwise. */
  fetch?: typeof fetch;
};

/** How the dealer and the shopper know each gateway. */
const gatewayNames: Record<HostedPageKind, string> = { till: 'Till', st_george: 'St.George' };

/** A shopper waits on "Pay deposit" while we call the gateway: better told to try again than left hanging. */
const callTimeoutMs = 10_000;

/** The gateway's answers are a few ids and a URL; anything far bigger is not an answer we read. */
const maxAnswerBytes = 64 * 1024;

/** How far a notification's signing time may be from our clock, either way (Stripe's tolerance). */
const noticeToleranceSeconds = 300;

/** What a failed payment says when the gateway gives no reason. */
const declinedMessage = 'Your card was declined.';

const gatewayId = z.string().min(1).max(200);
const startedAnswer = z.object({ id: gatewayId, redirect_url: z.url({ protocol: /^https?$/ }) });
const refundAnswer = z.object({ id: gatewayId });
const noticeBody = z.object({
  type: z.string().min(1),
  id: gatewayId.optional(),
  reference: z.string().optional(),
  message: z.string().optional(),
});

export class HostedPagePaymentProvider implements PaymentProvider {
  readonly kind: HostedPageKind;
  private readonly name: string;
  private readonly baseUrl: string;
  private readonly key: string;
  private readonly fetch: typeof fetch;

  constructor(options: HostedPageProviderOptions) {
    this.kind = options.kind;
    this.name = gatewayNames[options.kind];
    this.baseUrl = options.gateway.url.replace(/\/+$/, '');
    this.key = options.gateway.key;
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  async start(request: PaymentRequest): Promise<StartedPayment> {
    const body = {
      amount: request.amountCents,
      currency: request.currency,
      reference: `reservation-${request.reservationId}`,
      description: request.description,
      email: request.customerEmail,
      return_url: request.returnUrl,
    };
    const answer = await this.post('/payments', body, request.idempotencyKey, startedAnswer, 'start the payment');
    return { ref: answer.id, clientSecret: null, redirectUrl: answer.redirect_url };
  }

  async refund(ref: string, amountCents: number, idempotencyKey: string): Promise<{ ref: string }> {
    const answer = await this.post(
      `/payments/${encodeURIComponent(ref)}/refunds`,
      { amount: amountCents },
      idempotencyKey,
      refundAnswer,
      'refund the payment',
    );
    return { ref: answer.id };
  }

  readNotice(rawBody: Buffer, headers: Readonly<Record<string, string | string[] | undefined>>): PaymentNotice {
    const signature = headers['x-gateway-signature'];
    if (typeof signature !== 'string' || !signature) throw new PaymentNoticeRefused(`The notification has no ${this.name} signature`);
    checkSignature(rawBody, signature, this.key, this.name);
    let notice: z.infer<typeof noticeBody>;
    try {
      notice = noticeBody.parse(JSON.parse(rawBody.toString('utf8')));
    } catch (error) {
      throw new PaymentNoticeRefused(`The ${this.name} notification is not one we know`, { cause: error });
    }
    if (notice.type !== 'payment.succeeded' && notice.type !== 'payment.failed') return { kind: 'ignored', type: notice.type };
    if (!notice.id) throw new PaymentNoticeRefused(`The ${this.name} notification names no payment`);
    const reservationId = reservationIdOf(notice.reference);
    if (notice.type === 'payment.succeeded') return { kind: 'paid', ref: notice.id, reservationId };
    return { kind: 'failed', ref: notice.id, reservationId, message: notice.message || declinedMessage };
  }

  /** One call to the gateway; whatever goes wrong on the way is PaymentProviderFailed, never with the key in it. */
  private async post<Answer>(
    path: string,
    body: object,
    idempotencyKey: string,
    answer: z.ZodType<Answer>,
    doing: string,
  ): Promise<Answer> {
    let response: Response;
    let text: string | null;
    try {
      response = await this.fetch(`${this.baseUrl}${path}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          Authorization: `Bearer ${this.key}`,
          'Idempotency-Key': idempotencyKey,
        },
        body: JSON.stringify(body),
        // A redirect would carry the key elsewhere; the gateway answers where it was asked.
        redirect: 'manual',
        signal: AbortSignal.timeout(callTimeoutMs),
      });
      text = await bodyAtMost(response, maxAnswerBytes);
    } catch (error) {
      throw new PaymentProviderFailed(`${this.name} could not be reached to ${doing}`, { cause: error });
    }
    if (!response.ok) throw new PaymentProviderFailed(`${this.name} refused to ${doing} (HTTP ${response.status})`);
    if (text === null)
      throw new PaymentProviderFailed(`${this.name} answered with more than ${maxAnswerBytes} bytes when asked to ${doing}`);
    try {
      return answer.parse(JSON.parse(text));
    } catch (error) {
      throw new PaymentProviderFailed(`${this.name} gave an answer we cannot read when asked to ${doing}`, { cause: error });
    }
  }
}

/**
 * The `x-gateway-signature` header for a notification `body` signed with `key` at `at` (unix
 * seconds, now by default): what a gateway sends, and what tests and the fake gateway sign with.
 */
export function signGatewayNotice(body: string, key: string, at: number = Math.floor(Date.now() / 1000)): string {
  return `t=${at},v1=${createHmac('sha256', key).update(`${at}.${body}`).digest('hex')}`;
}

/** Throws PaymentNoticeRefused unless `header` signs `rawBody` with `key`, recently. */
function checkSignature(rawBody: Buffer, header: string, key: string, name: string): void {
  const parts = new Map<string, string>();
  for (const part of header.split(',')) {
    const equals = part.indexOf('=');
    if (equals > 0) parts.set(part.slice(0, equals).trim(), part.slice(equals + 1).trim());
  }
  const at = parts.get('t') ?? '';
  const given = parts.get('v1') ?? '';
  if (!/^\d{1,12}$/.test(at) || !/^[0-9a-f]{64}$/i.test(given))
    throw new PaymentNoticeRefused(`The ${name} signature is not one we can read`);
  if (Math.abs(Date.now() / 1000 - Number(at)) > noticeToleranceSeconds)
    throw new PaymentNoticeRefused(`The ${name} notification was signed too long ago (or in the future)`);
  const expected = createHmac('sha256', key).update(`${at}.`).update(rawBody).digest();
  if (!timingSafeEqual(expected, Buffer.from(given, 'hex')))
    throw new PaymentNoticeRefused(`The ${name} notification is not signed with this dealership's key`);
}

/** The reservation `start` named in the payment's reference; null for a payment that is not ours. */
function reservationIdOf(reference: string | undefined): number | null {
  const digits = /^reservation-([1-9]\d{0,15})$/.exec(reference ?? '')?.[1];
  if (!digits) return null;
  const id = Number(digits);
  return Number.isSafeInteger(id) ? id : null;
}
