import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@dealer/testing/free-port';
import { startFakeStripe, type FakeStripe } from '@dealer/testing/fake-stripe-server';
import { PaymentNoticeRefused, PaymentProviderFailed, PaymentProviderRefused, type PaymentRequest } from './payment-provider';
import { StripePaymentProvider } from './stripe-provider';

const secretKey = 'sk_test_51DealerFakeKey0000000000000000';
const webhookSecret = 'whsec_dealer_test_secret';

const deposit = (overrides: Partial<PaymentRequest> = {}): PaymentRequest => ({
  reservationId: 42,
  amountCents: 50_000,
  currency: 'AUD',
  description: 'Deposit on 2021 Mazda CX-5 (stock 1234)',
  customerEmail: 'ana@example.com',
  returnUrl: 'https://dealer.example/reserve/42',
  idempotencyKey: 'reservation-42-start',
  ...overrides,
});

describe('deposits through Stripe', () => {
  let fake: FakeStripe;
  let provider: StripePaymentProvider;
  beforeAll(async () => {
    fake = await startFakeStripe({ secretKey });
    provider = new StripePaymentProvider({ secretKey, webhookSecret, api: fake.api });
  });
  afterAll(() => fake.close());

  const sent = (key: string) => fake.requests.filter((request) => request.idempotencyKey === key);
  const created = (object: string) => [...fake.objects.values()].filter((entry) => entry.object === object);

  it('starts one PaymentIntent for the deposit, however often the request is retried', async () => {
    const intentsBefore = created('payment_intent').length;
    const first = await provider.start(deposit());
    expect(first.ref).toMatch(/^pi_/);
    expect(first.clientSecret).toMatch(new RegExp(`^${first.ref}_secret_`));
    expect(first.redirectUrl).toBeNull();
    expect(await provider.start(deposit())).toEqual(first);
    expect(created('payment_intent').length).toBe(intentsBefore + 1);
    expect(sent('reservation-42-start')).toEqual([
      {
        method: 'POST',
        path: '/v1/payment_intents',
        idempotencyKey: 'reservation-42-start',
        body: {
          amount: '50000',
          currency: 'aud',
          description: 'Deposit on 2021 Mazda CX-5 (stock 1234)',
          receipt_email: 'ana@example.com',
          metadata: { reservation_id: '42' },
          automatic_payment_methods: { enabled: 'true' },
        },
      },
      expect.objectContaining({ path: '/v1/payment_intents', idempotencyKey: 'reservation-42-start' }),
    ]);
    expect((await provider.start(deposit({ reservationId: 43, idempotencyKey: 'reservation-43-start' }))).ref).not.toBe(first.ref);
  });

  it('will not reuse one reservation’s key for a different amount', async () => {
    await provider.start(deposit({ idempotencyKey: 'reservation-44-start' }));
    const changed = provider.start(deposit({ amountCents: 60_000, idempotencyKey: 'reservation-44-start' }));
    await expect(changed).rejects.toBeInstanceOf(PaymentProviderFailed);
    await expect(changed).rejects.toThrow(/idempotency_error/);
  });

  it('refunds the deposit against its PaymentIntent, once however often the refund is retried', async () => {
    const { ref } = await provider.start(deposit({ idempotencyKey: 'reservation-45-start' }));
    const refund = await provider.refund(ref, 50_000, 'reservation-45-refund');
    expect(refund.ref).toMatch(/^re_/);
    expect(await provider.refund(ref, 50_000, 'reservation-45-refund')).toEqual(refund);
    expect(sent('reservation-45-refund')).toHaveLength(2);
    expect(sent('reservation-45-refund')[0]).toEqual({
      method: 'POST',
      path: '/v1/refunds',
      idempotencyKey: 'reservation-45-refund',
      body: { payment_intent: ref, amount: '50000' },
    });
    expect(created('refund').filter((entry) => entry.payment_intent === ref)).toHaveLength(1);
  });

  it('says so when Stripe does not know the payment being refunded', async () => {
    await expect(provider.refund('pi_unknown', 50_000, 'reservation-46-refund')).rejects.toThrow(PaymentProviderFailed);
  });

  it('asks Stripe again, with the same key, when it has a bad moment', async () => {
    fake.failNext(1);
    const started = await provider.start(deposit({ idempotencyKey: 'reservation-47-start' }));
    expect(started.ref).toMatch(/^pi_/);
    expect(sent('reservation-47-start').map((request) => request.path)).toEqual(['/v1/payment_intents', '/v1/payment_intents']);
    expect(created('payment_intent').filter((intent) => intent.id === started.ref)).toHaveLength(1);
  });

  it('tells the shopper to try again when Stripe keeps failing, after two retries', async () => {
    fake.failNext(3);
    const failing = provider.start(deposit({ idempotencyKey: 'reservation-48-start' }));
    await expect(failing).rejects.toBeInstanceOf(PaymentProviderFailed);
    await expect(failing).rejects.toThrow('Stripe refused to start the payment (api_error, HTTP 500)');
    expect(sent('reservation-48-start')).toHaveLength(3);
    fake.failNext(0);
  });

  it('says Stripe refused to start the payment, with Stripe’s reason for the log, when Stripe answers 400', async () => {
    fake.failNext(1, {
      status: 400,
      type: 'invalid_request_error',
      message: 'Amount must be at least $0.50 aud',
      code: 'amount_too_small',
      param: 'amount',
    });
    const error: unknown = await provider.start(deposit({ idempotencyKey: 'reservation-51-start' })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PaymentProviderRefused);
    const refused = error as PaymentProviderRefused;
    expect(refused.message).toBe('Stripe refused to start the payment (invalid_request_error, amount_too_small, HTTP 400)');
    expect(refused.reason).toMatch(/^Amount must be at least \$0\.50 aud \(param amount, request req_\w+\)$/);
    expect(sent('reservation-51-start'), 'a refusal is not asked again').toHaveLength(1);
  });

  it('does not take Stripe failing on its side, or being unreachable, for a refusal', async () => {
    fake.failNext(3);
    expect(await provider.start(deposit({ idempotencyKey: 'reservation-52-start' })).catch((caught: unknown) => caught)).not.toBeInstanceOf(
      PaymentProviderRefused,
    );
    fake.failNext(0);
    const unreachable = new StripePaymentProvider({
      secretKey,
      webhookSecret,
      api: { host: '127.0.0.1', port: await freePort(), protocol: 'http' },
    });
    const error: unknown = await unreachable.start(deposit({ idempotencyKey: 'reservation-53-start' })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PaymentProviderFailed);
    expect(error).not.toBeInstanceOf(PaymentProviderRefused);
  });

  it('keeps the cause but never the secret key in the message when the key is wrong', async () => {
    const wrongKey = 'sk_test_51WrongDealerKey999999999999999';
    const misconfigured = new StripePaymentProvider({ secretKey: wrongKey, webhookSecret, api: fake.api });
    const error: unknown = await misconfigured
      .start(deposit({ idempotencyKey: 'reservation-49-start' }))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PaymentProviderFailed);
    const failure = error as PaymentProviderFailed;
    expect(failure.message).toMatch(/HTTP 401/);
    expect(failure.message).not.toContain(wrongKey);
    expect(failure.cause).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
  });

  it('tells the shopper to try again when Stripe cannot be reached', async () => {
    const port = await freePort();
    const unreachable = new StripePaymentProvider({ secretKey, webhookSecret, api: { host: '127.0.0.1', port, protocol: 'http' } });
    const failing = unreachable.refund('pi_123', 50_000, 'reservation-50-refund');
    await expect(failing).rejects.toBeInstanceOf(PaymentProviderFailed);
    await expect(failing).rejects.toThrow('Stripe could not be reached to refund the payment');
  });
});

describe('Stripe’s notifications about a deposit', () => {
  const provider = new StripePaymentProvider({ secretKey, webhookSecret, api: { host: '127.0.0.1', port: 9, protocol: 'http' } });

  const event = (type: string, object: Record<string, unknown>) =>
    JSON.stringify({ id: 'evt_1', object: 'event', api_version: Stripe.API_VERSION, created: 1_700_000_000, type, data: { object } });
  const signed = (payload: string, options: { secret?: string; timestamp?: number } = {}) => ({
    'stripe-signature': Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? webhookSecret,
      timestamp: options.timestamp,
    }),
  });
  const read = (payload: string, headers: Record<string, string | undefined>) => provider.readNotice(Buffer.from(payload), headers);

  it('reads a paid deposit and the reservation it is for', () => {
    const payload = event('payment_intent.succeeded', { id: 'pi_paid', object: 'payment_intent', metadata: { reservation_id: '42' } });
    expect(read(payload, signed(payload))).toEqual({ kind: 'paid', ref: 'pi_paid', reservationId: 42 });
  });

  it('reads a declined card with the bank’s reason, or Stripe’s usual words when there is none', () => {
    const withReason = event('payment_intent.payment_failed', {
      id: 'pi_failed',
      object: 'payment_intent',
      metadata: { reservation_id: '42' },
      last_payment_error: { message: 'Your card has insufficient funds.' },
    });
    expect(read(withReason, signed(withReason))).toEqual({
      kind: 'failed',
      ref: 'pi_failed',
      reservationId: 42,
      message: 'Your card has insufficient funds.',
    });
    const noReason = event('payment_intent.payment_failed', {
      id: 'pi_failed',
      object: 'payment_intent',
      metadata: { reservation_id: '42' },
      last_payment_error: null,
    });
    expect(read(noReason, signed(noReason))).toMatchObject({ kind: 'failed', message: 'Your card was declined.' });
  });

  it('says a payment taken outside the site belongs to no reservation', () => {
    for (const metadata of [{}, { reservation_id: 'abc' }, { reservation_id: '0' }, { reservation_id: '99999999999999999999' }]) {
      const payload = event('payment_intent.succeeded', { id: 'pi_other', object: 'payment_intent', metadata });
      expect(read(payload, signed(payload))).toEqual({ kind: 'paid', ref: 'pi_other', reservationId: null });
    }
  });

  it('ignores what Stripe says about anything else', () => {
    const payload = event('charge.refunded', { id: 'ch_1', object: 'charge' });
    expect(read(payload, signed(payload))).toEqual({ kind: 'ignored', type: 'charge.refunded' });
  });

  it('refuses a notification signed with another secret, changed on the way, unsigned or old', () => {
    const payload = event('payment_intent.succeeded', { id: 'pi_paid', object: 'payment_intent', metadata: { reservation_id: '42' } });
    expect(() => read(payload, signed(payload, { secret: 'whsec_someone_else' }))).toThrow(PaymentNoticeRefused);
    expect(() => read(payload.replace('"42"', '"43"'), signed(payload))).toThrow(PaymentNoticeRefused);
    expect(() => read(payload, {})).toThrow(PaymentNoticeRefused);
    expect(() => read(payload, { 'stripe-signature': 'garbage' })).toThrow(PaymentNoticeRefused);
    expect(() => read(payload, signed(payload, { timestamp: Math.floor(Date.now() / 1000) - 600 }))).toThrow(PaymentNoticeRefused);
  });

  it('refuses every notification while the dealership has no webhook secret', () => {
    const unconfigured = new StripePaymentProvider({ secretKey, webhookSecret: null });
    const payload = event('payment_intent.succeeded', { id: 'pi_paid', object: 'payment_intent', metadata: { reservation_id: '42' } });
    expect(() => unconfigured.readNotice(Buffer.from(payload), signed(payload))).toThrow(/not configured/);
  });
});
