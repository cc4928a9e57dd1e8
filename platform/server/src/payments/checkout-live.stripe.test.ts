import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reservationLeadCategory } from '@dealer/rules/reservation';
import { skipPostgres } from '@dealer/testing/postgres';
import { siteRequest, testAdminKey, type TestPlatform } from '../testing/test-platform';
import type { FakeStripe, FakeStripeObject } from '@dealer/testing/fake-stripe-server';
import { liveCheckoutOn, shopper, site, stripeSecretKey, webhookSecret, type Held } from '../testing/live-checkout';

// Reserving a car with a card deposit through Stripe: starting the payment, Stripe's signed
// notifications (paid, again, forged, declined), a payment that lands too late and is refunded, and
// the dealer's release. Payments that cannot start and the banks' gateways are in
// checkout-live.failures-and-bank-gateways.test.ts.

describe.each(['sqlite', 'postgres'] as const)('reserving a car with a real card deposit (live payments) on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let fake: FakeStripe;
  let platform: TestPlatform;
  const { open, close, nextCar, hold, holdOk, carPage, stored, leadsOfCar, paymentRef } = liveCheckoutOn(engine);
  beforeAll(async () => {
    ({ fake, platform } = await open());
  });
  afterAll(close);

  const stripeCalls = (path: string, idempotencyKey: string) =>
    fake.requests.filter((request) => request.path === path && request.idempotencyKey === idempotencyKey);
  const refundsOf = (paymentIntent: string) =>
    [...fake.objects.values()].filter((entry) => entry.object === 'refund' && entry.payment_intent === paymentIntent);
  /** A hold's hold runs out (as 15 minutes later): the next shopper's hold lets it go. */
  const runOut = (id: number) =>
    platform.ctx.db
      .updateTable('reservations')
      .set({ held_until: Date.now() - 1 })
      .where('id', '=', id)
      .execute();

  /** Stripe's event about the hold's PaymentIntent, as Stripe would send it. */
  let events = 0;
  const stripeEvent = (held: Held, type = 'payment_intent.succeeded', change: Partial<FakeStripeObject> = {}) => {
    const intent = [...fake.objects.values()].find(
      (entry) =>
        entry.object === 'payment_intent' && (entry.metadata as Record<string, string>).reservation_id === String(held.reservation.id),
    )!;
    const paid = type === 'payment_intent.succeeded' ? { status: 'succeeded', amount_received: intent.amount } : {};
    return JSON.stringify({
      id: `evt_${++events}_${randomBytes(4).toString('hex')}`,
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object: { ...intent, ...paid, ...change } },
    });
  };
  const signed = (payload: string, secret = webhookSecret) => ({
    'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }),
  });
  const webhook = (payload: string, headers: Record<string, string> = signed(payload)) =>
    siteRequest(platform.app, site, 'POST', '/api/payments/stripe/webhook', {
      payload,
      headers: { 'content-type': 'application/json', ...headers },
    });
  /** The hold's payment lands at Stripe, and Stripe says so. */
  const paidOnStripe = async (held: Held) => {
    const res = await webhook(stripeEvent(held));
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };

  it('starts one Stripe payment for the deposit and gives the browser what it needs to pay, never the dealer’s secret keys', async () => {
    const car = nextCar('stripe');
    const intentsBefore = [...fake.objects.values()].filter((entry) => entry.object === 'payment_intent').length;
    const ana = shopper();
    const res = await hold(car, ana);
    expect(res.statusCode).toBe(201);
    expect(res.body).not.toContain(stripeSecretKey);
    expect(res.body).not.toContain(webhookSecret);
    expect(res.body).not.toContain('DEMO_SECRET');
    const held = res.json<Held>();
    const amount = car.payment_processors[0]!.deposit_amount * 100;
    expect(held.reservation).toMatchObject({
      state: 'holding',
      deposit: { amount_cents: amount, currency: 'AUD' },
      payment_reference: null,
    });

    const started = stripeCalls('/v1/payment_intents', `reservation-${held.reservation.id}-payment`);
    expect(started).toHaveLength(1);
    expect(started[0]!.body).toMatchObject({
      amount: String(amount),
      currency: 'aud',
      metadata: { reservation_id: String(held.reservation.id) },
      receipt_email: ana.email,
    });
    expect([...fake.objects.values()].filter((entry) => entry.object === 'payment_intent')).toHaveLength(intentsBefore + 1);
    const intent = [...fake.objects.values()].find(
      (entry) =>
        entry.object === 'payment_intent' && (entry.metadata as Record<string, string>).reservation_id === String(held.reservation.id),
    )!;

    expect(held.payment).toEqual({
      provider: 'stripe',
      client_secret: intent.client_secret,
      redirect_url: null,
      publishable_key: car.payment_processors[0]!.authorization_key,
    });
    expect(held.payment.publishable_key).toMatch(/^pk_/);
    expect(await paymentRef(held)).toBe(intent.id);
    expect((await carPage(car)).reserved, 'held, not yet reserved').toBe(false);
  });

  it('reserves the car when Stripe says the deposit is paid: the car says Reserved and the dealer gets one lead with the payment reference', async () => {
    const car = nextCar('stripe');
    const held = await holdOk(car);
    const ref = await paymentRef(held);
    const res = await paidOnStripe(held);
    expect(res.json()).toEqual({ received: true, state: 'reserved' });

    expect((await carPage(car)).reserved).toBe(true);
    expect(await stored(held.reservation.id)).toMatchObject({ state: 'reserved', payment_ref: ref, last_error: null });
    const leads = await leadsOfCar(car.id);
    expect(leads).toHaveLength(1);
    expect(leads[0]!.category).toBe(reservationLeadCategory);
    expect(leads[0]!.category).toBe('Reserve Enquiry');
    const payload = JSON.parse(leads[0]!.payload) as { message: string; reservation: Record<string, unknown> };
    expect(ref).toMatch(/^pi_/);
    expect(payload.message).toContain(ref);
    expect(payload.reservation).toMatchObject({ id: held.reservation.id, payment_provider: 'stripe', payment_reference: ref });
    expect((await stored(held.reservation.id)).lead_id).toBe(leads[0]!.id);

    const own = await siteRequest(platform.app, site, 'GET', `/api/reservations/${held.reservation.id}`, {
      headers: { 'x-reservation-token': held.token },
    });
    expect(own.json<Held>().reservation).toMatchObject({ state: 'reserved', payment_reference: ref });
  });

  it('reserves once and raises one lead when Stripe sends the same notification again, or ten at once', async () => {
    const car = nextCar('stripe');
    const held = await holdOk(car);
    const payload = stripeEvent(held);
    const headers = signed(payload);
    expect((await webhook(payload, headers)).statusCode).toBe(200);
    const again = await webhook(payload, headers);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ received: true, state: 'reserved' });
    expect(await leadsOfCar(car.id)).toHaveLength(1);

    const other = nextCar('stripe');
    const concurrent = await holdOk(other);
    const burst = stripeEvent(concurrent);
    const answers = await Promise.all(Array.from({ length: 10 }, () => webhook(burst)));
    expect(answers.map((res) => res.statusCode)).toEqual(Array(10).fill(200));
    expect(answers.every((res) => res.json<{ state: string }>().state === 'reserved')).toBe(true);
    const leads = await leadsOfCar(other.id);
    expect(leads).toHaveLength(1);
    expect(await stored(concurrent.reservation.id)).toMatchObject({ state: 'reserved', lead_id: leads[0]!.id });
    expect((await carPage(other)).reserved).toBe(true);
    const rows = await platform.ctx.db.selectFrom('reservations').select('state').where('car_id', '=', other.id).execute();
    expect(rows).toEqual([{ state: 'reserved' }]);
  });

  it('refuses a notification not signed with the dealer’s webhook secret, changed on the way or unsigned, and changes nothing', async () => {
    const car = nextCar('stripe');
    const held = await holdOk(car);
    const payload = stripeEvent(held);
    const tampered = payload.replace(`"reservation_id":"${held.reservation.id}"`, `"reservation_id":"${held.reservation.id + 1}"`);
    expect(tampered).not.toBe(payload);
    const refused = [
      await webhook(payload, signed(payload, 'whsec_someone_else')),
      await webhook(tampered, signed(payload)),
      await webhook(payload, {}),
      await webhook(payload, { 'stripe-signature': 'garbage' }),
    ];
    for (const res of refused) {
      expect(res.statusCode).toBe(400);
      expect(res.body).not.toContain(webhookSecret);
    }
    expect(await stored(held.reservation.id)).toMatchObject({ state: 'holding', lead_id: null });
    expect((await carPage(car)).reserved).toBe(false);
    expect(await leadsOfCar(car.id)).toHaveLength(0);
  });

  it('takes no action on an event it does not handle, and keeps the hold when the card is declined', async () => {
    const car = nextCar('stripe');
    const held = await holdOk(car);
    const unrelated = JSON.stringify({
      id: 'evt_unrelated',
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: Math.floor(Date.now() / 1000),
      type: 'charge.refunded',
      data: { object: { id: 'ch_1', object: 'charge' } },
    });
    const ignored = await webhook(unrelated);
    expect(ignored.statusCode).toBe(200);
    expect(ignored.json()).toEqual({ received: true, ignored: 'charge.refunded' });

    const declined = stripeEvent(held, 'payment_intent.payment_failed', {
      status: 'requires_payment_method',
      last_payment_error: { message: 'Your card has insufficient funds.' },
    });
    const res = await webhook(declined);
    expect(res.statusCode).toBe(200);
    expect(await stored(held.reservation.id)).toMatchObject({
      state: 'holding',
      last_error: 'Your card has insufficient funds.',
      lead_id: null,
    });
    expect((await carPage(car)).reserved).toBe(false);
    expect(await leadsOfCar(car.id)).toHaveLength(0);
    // Another card then pays: the hold it kept becomes the reservation.
    await paidOnStripe(held);
    expect(await stored(held.reservation.id)).toMatchObject({ state: 'reserved', last_error: null });
  });

  it('refunds, once, a payment that lands after the hold ran out and the car went to another shopper', async () => {
    const car = nextCar('stripe');
    const late = await holdOk(car);
    const lateRef = await paymentRef(late);
    await runOut(late.reservation.id);
    const second = await holdOk(car, shopper('Bea'));
    expect((await stored(late.reservation.id)).state).toBe('expired');
    await paidOnStripe(second);

    const payload = stripeEvent(late);
    const [a, b] = await Promise.all([webhook(payload), webhook(payload)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json()).toEqual({ received: true, state: 'refunded' });
    expect(b.json()).toEqual({ received: true, state: 'refunded' });

    const refunds = refundsOf(lateRef);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.amount).toBe(late.reservation.deposit.amount_cents);
    const asked = stripeCalls('/v1/refunds', `reservation-${late.reservation.id}-late-refund`);
    expect(asked.length).toBeGreaterThanOrEqual(1);
    for (const request of asked)
      expect(request.body).toEqual({ payment_intent: lateRef, amount: String(late.reservation.deposit.amount_cents) });
    expect(
      fake.requests
        .filter((request) => request.path === '/v1/refunds' && request.body.payment_intent === lateRef)
        .every((request) => request.idempotencyKey === `reservation-${late.reservation.id}-late-refund`),
    ).toBe(true);

    expect(await stored(late.reservation.id)).toMatchObject({
      state: 'refunded',
      refund_ref: refunds[0]!.id,
      payment_ref: lateRef,
      active_car_id: null,
    });
    expect(await stored(second.reservation.id)).toMatchObject({ state: 'reserved', active_car_id: car.id });
    const leads = await leadsOfCar(car.id);
    expect(leads, 'only the shopper who has the car is a lead').toHaveLength(1);
    expect(leads[0]!.payload).toContain(await paymentRef(second));
    expect(leads[0]!.payload).not.toContain(lateRef);
  });

  it('asks Stripe to send the notification again when the late refund fails, and refunds on the retry', async () => {
    const car = nextCar('stripe');
    const late = await holdOk(car);
    const lateRef = await paymentRef(late);
    await runOut(late.reservation.id);
    await paidOnStripe(await holdOk(car, shopper('Bea')));

    const payload = stripeEvent(late);
    // stripe-node asks twice more by itself before giving up: Stripe has a bad moment three times over.
    fake.failNext(3);
    const failed = await webhook(payload);
    fake.failNext(0);
    expect(failed.statusCode).toBe(502);
    expect(failed.json<{ message: string }>().message).toMatch(/send this notification again/);
    expect(refundsOf(lateRef)).toHaveLength(0);
    expect(await stored(late.reservation.id)).toMatchObject({
      state: 'expired',
      refund_ref: null,
      last_error: expect.stringMatching(/^late payment not refunded yet/),
    });

    const retried = await webhook(payload);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toEqual({ received: true, state: 'refunded' });
    expect(refundsOf(lateRef)).toHaveLength(1);
    expect(await stored(late.reservation.id)).toMatchObject({ state: 'refunded', refund_ref: refundsOf(lateRef)[0]!.id, last_error: null });
    expect(stripeCalls('/v1/refunds', `reservation-${late.reservation.id}-late-refund`)).toHaveLength(4);
  });

  it('lets the dealer release a reserved car: the deposit refunded on Stripe, the car free again', async () => {
    const car = nextCar('stripe');
    const held = await holdOk(car);
    const ref = await paymentRef(held);
    await paidOnStripe(held);
    expect((await carPage(car)).reserved).toBe(true);

    const release = () =>
      platform.app.inject({
        method: 'POST',
        url: `/api/admin/reservations/${held.reservation.id}/release`,
        headers: { authorization: `Bearer ${testAdminKey}` },
      });
    const res = await release();
    expect(res.statusCode, res.body).toBe(200);
    const refunds = refundsOf(ref);
    expect(refunds).toHaveLength(1);
    expect(stripeCalls('/v1/refunds', `reservation-${held.reservation.id}-release`)).toEqual([
      {
        method: 'POST',
        path: '/v1/refunds',
        idempotencyKey: `reservation-${held.reservation.id}-release`,
        body: { payment_intent: ref, amount: String(held.reservation.deposit.amount_cents) },
      },
    ]);
    expect(res.json<{ reservation: Record<string, unknown> }>().reservation).toMatchObject({
      state: 'released',
      refund_ref: refunds[0]!.id,
    });
    expect(await stored(held.reservation.id)).toMatchObject({ state: 'released', refund_ref: refunds[0]!.id, active_car_id: null });
    expect((await carPage(car)).reserved).toBe(false);
    expect(res.body).not.toContain(stripeSecretKey);

    // Releasing again (a double click) refunds nothing more.
    expect((await release()).statusCode).toBe(200);
    expect(refundsOf(ref)).toHaveLength(1);
    expect((await hold(car, shopper('Bea'))).statusCode, 'the next shopper can reserve it').toBe(201);
  });
});
