import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Car } from '@dealer/contracts/car';
import type { SiteSecrets } from '@dealer/contracts/site';
import { canReserve } from '@dealer/rules/reserve';
import { checkoutMessages, depositFor, reservationLeadCategory } from '@dealer/rules/reservation';
import { listSiteCars } from '@dealer/db/car-store';
import { findReservation } from '@dealer/db/reservation-store';
import { findSiteIdBySlug, loadSiteConfig } from '@dealer/db/site-store';
import { skipPostgres } from '@dealer/testing/postgres';
import { freePort } from '@dealer/testing/free-port';
import { createTestPlatform, siteRequest, testAdminKey, type TestPlatform } from '../testing/test-platform';
import { startFakeStripe, type FakeStripe, type FakeStripeObject } from '@dealer/testing/fake-stripe-server';
import { signGatewayNotice } from './hosted-provider';
import { PaymentNotConfigured } from './payment-provider';
import { PaymentProviders } from './payment-providers';
import { ReservationService } from './reservation-service';

/** Takes deposits through Stripe (its demo keys) and, once set up below, Till and St.George. */
const site = 'metro-motor-group';
/** A site whose dealer has not given us a Stripe secret key yet. */
const unsetSite = 'harbour-used-cars';
/** The demo seed's keys for the site (demo-sites.ts): the fake Stripe insists on this one. */
const stripeSecretKey = `sk_test_DEMO_SECRET_${site}`;
const webhookSecret = `whsec_DEMO_SECRET_${site}`;
const gatewayKeys = { till: 'till-merchant-key-0123456789abcdef', st_george: 'stgeorge-merchant-key-0123456789ab' } as const;
type Gateway = keyof typeof gatewayKeys;

/** A shopper with an e-mail and a mobile of their own: one person may hold only so many cars at once. */
let shoppersMade = 0;
const shopper = (name = 'Ana') => {
  const n = ++shoppersMade;
  return {
    first_name: name,
    last_name: 'Shopper',
    email: `${name.toLowerCase()}.${n}@example.com`,
    phone: `0411 ${String(n).padStart(3, '0')} 333`,
    terms_accepted: true,
  };
};
type Held = {
  reservation: { id: number; state: string; deposit: { amount_cents: number; currency: string }; payment_reference: string | null };
  token: string;
  payment: { provider: string; client_secret: string | null; redirect_url: string | null; publishable_key: string | null };
};

type GatewayRequest = {
  method: string;
  path: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  body: Record<string, unknown>;
};

/**
 * A bank's hosted payment page gateway as hosted-provider.ts speaks to it, for Till at `/till` and
 * St.George at `/st_george`: one payment per Idempotency-Key, each sending the shopper to its page.
 */
async function startFakeGateway() {
  const requests: GatewayRequest[] = [];
  const answers = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const path = req.url ?? '/';
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
      requests.push({
        method: req.method ?? '',
        path,
        authorization: req.headers.authorization,
        idempotencyKey,
        body: JSON.parse(raw || '{}') as Record<string, unknown>,
      });
      const send = (status: number, body: string) => res.writeHead(status, { 'Content-Type': 'application/json' }).end(body);
      const kind = /^\/(till|st_george)\//.exec(path)?.[1] as Gateway | undefined;
      if (!kind || req.method !== 'POST') return send(404, '{"error":"not found"}');
      if (req.headers.authorization !== `Bearer ${gatewayKeys[kind]}`) return send(401, '{"error":"bad key"}');
      const answer = (make: () => object) => {
        const known = idempotencyKey ? answers.get(`${path} ${idempotencyKey}`) : undefined;
        const body = known ?? JSON.stringify(make());
        if (idempotencyKey) answers.set(`${path} ${idempotencyKey}`, body);
        send(201, body);
      };
      if (path === `/${kind}/payments`) {
        const id = `pay_${randomBytes(6).toString('hex')}`;
        return answer(() => ({ id, redirect_url: `https://pay.${kind}.example/checkout/${id}` }));
      }
      if (new RegExp(`^/${kind}/payments/[^/]+/refunds$`).test(path))
        return answer(() => ({ id: `ref_${randomBytes(6).toString('hex')}` }));
      send(404, '{"error":"not found"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    requests,
    settings: (kind: Gateway) => ({ url: `${origin}/${kind}`, key: gatewayKeys[kind] }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(['sqlite', 'postgres'] as const)('reserving a car with a real card deposit (live payments) on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let fake: FakeStripe;
  let gateway: Awaited<ReturnType<typeof startFakeGateway>>;
  let platform: TestPlatform;
  let siteId: number;
  /** The site's cars a shopper can reserve online, by who takes their deposit, handed out one per use. */
  const cars: Record<'stripe' | Gateway, Car[]> = { stripe: [], till: [], st_george: [] };
  const nextCar = (kind: 'stripe' | Gateway) => {
    const car = cars[kind].shift();
    if (!car) throw new Error(`the demo site has no ${kind} car left to reserve`);
    return car;
  };

  /** Changes a site's secrets as the CLI would (the stored config), and has the next request read them. */
  async function changeSecrets(slug: string, change: Partial<SiteSecrets>) {
    const row = await platform.ctx.db.selectFrom('sites').select(['id', 'config']).where('slug', '=', slug).executeTakeFirstOrThrow();
    const config = JSON.parse(row.config) as { secrets: SiteSecrets };
    config.secrets = { ...config.secrets, ...change };
    await platform.ctx.db
      .updateTable('sites')
      .set({ config: JSON.stringify(config) })
      .where('id', '=', row.id)
      .execute();
    platform.ctx.sites.clear();
  }

  beforeAll(async () => {
    fake = await startFakeStripe({ secretKey: stripeSecretKey });
    gateway = await startFakeGateway();
    platform = await createTestPlatform({ engine, env: { PAYMENTS: 'live', STRIPE_API_URL: `http://127.0.0.1:${fake.port}` } });
    siteId = (await findSiteIdBySlug(platform.ctx.db, site))!;
    const secrets = (await loadSiteConfig(platform.ctx.db, siteId))!.secrets;
    expect(secrets, 'the demo site takes Stripe deposits with these keys').toMatchObject({
      stripe_secret_key: stripeSecretKey,
      stripe_webhook_secret: webhookSecret,
    });
    await changeSecrets(site, { till: gateway.settings('till'), st_george: gateway.settings('st_george') });
    await changeSecrets(unsetSite, { stripe_secret_key: null, stripe_webhook_secret: null });
    for (const car of await listSiteCars(platform.ctx.db, siteId)) {
      const deposit = depositFor(car, 'en-AU');
      if (car.show_on_dealer_website && canReserve(car, { siteSupportsOnlinePayment: true }).ok && deposit)
        cars[deposit.provider].push(car);
    }
    expect(cars.stripe.length, 'Stripe cars to reserve').toBeGreaterThanOrEqual(10);
    expect(cars.till.length, 'Till cars to reserve').toBeGreaterThanOrEqual(2);
    expect(cars.st_george.length, 'St.George cars to reserve').toBeGreaterThanOrEqual(2);
  });
  afterAll(async () => {
    await platform?.close();
    await fake?.close();
    await gateway?.close();
  });

  // Each shopper from an address of their own, as the hold limit per address would otherwise count them together.
  let shoppers = 0;
  const hold = (car: Car, body: object = shopper(), onSite = site) =>
    siteRequest(platform.app, onSite, 'POST', `/api/cars/${car.slug}/reservations`, {
      payload: body as Record<string, unknown>,
      headers: { 'x-forwarded-for': `203.0.113.${(++shoppers % 250) + 1}` },
    });
  const holdOk = async (car: Car, body: object = shopper()) => {
    const res = await hold(car, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Held>();
  };
  const carPage = async (car: Car) => (await siteRequest(platform.app, site, 'GET', `/api/cars/${car.slug}`)).json<Car>();
  const stored = async (id: number) => (await findReservation(platform.ctx.db, id))!;
  const leadsOfCar = async (carId: number) => {
    const rows = await platform.ctx.db.selectFrom('leads').select(['id', 'category', 'payload']).where('site_id', '=', siteId).execute();
    return rows.filter((row) => (JSON.parse(row.payload) as { car_id?: number }).car_id === carId);
  };
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
  const paymentRef = async (held: Held) => (await stored(held.reservation.id)).payment_ref!;

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

  /** The checkout over this platform's store, paying through `payments`, its log kept in `logged`. */
  const checkoutWith = (payments: PaymentProviders) => {
    const logged: { obj: Record<string, unknown>; msg: string }[] = [];
    const log = { error: (obj: object, msg: string) => logged.push({ obj: obj as Record<string, unknown>, msg }), warn: () => {} };
    const { ctx } = platform;
    const service = new ReservationService({
      db: ctx.db,
      engine: ctx.dialect,
      holdsPerPerson: ctx.config.reservations.holdsPerPerson,
      indexer: ctx.indexer,
      leads: ctx.leads.service,
      providers: payments,
      siteOf: (id) => ctx.sites.forId(id),
      log,
    });
    const holdThrough = async (car: Car, requestLog = log) =>
      service.hold({
        site: (await platform.ctx.sites.forId(siteId))!,
        slug: car.slug,
        body: shopper(),
        clientAddress: '198.51.100.77',
        returnUrl: (id) => `http://${site}.localhost/checkout?reservation=${id}`,
        log: requestLog,
      });
    return { holdThrough, logged };
  };

  it('tells the shopper the payment could not be started when Stripe refuses to start it, logs Stripe’s reason, and lets the car go', async () => {
    const refusal = {
      status: 400,
      type: 'invalid_request_error',
      message: 'This account cannot currently make live charges.',
      param: 'amount',
    };
    const car = nextCar('stripe');
    fake.failNext(1, refusal);
    const res = await hold(car);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ message: checkoutMessages.paymentNotStarted });
    expect(await platform.ctx.db.selectFrom('reservations').select('state').where('car_id', '=', car.id).execute()).toEqual([
      { state: 'cancelled' },
    ]);

    // The reason goes to the request's log.
    const { holdThrough, logged } = checkoutWith(new PaymentProviders(platform.ctx.config.payments));
    const requestLogged: typeof logged = [];
    fake.failNext(1, refusal);
    const answer = await holdThrough(car, {
      error: (obj, msg) => requestLogged.push({ obj: obj as Record<string, unknown>, msg }),
      warn: () => {},
    });
    expect(answer).toEqual({ ok: false, reason: 'provider-failed', message: checkoutMessages.paymentNotStarted });
    expect(logged).toEqual([]);
    expect(requestLogged).toHaveLength(1);
    expect(requestLogged[0]!.msg).toBe('the payment provider refused to start the payment');
    expect(requestLogged[0]!.obj).toMatchObject({
      provider: 'stripe',
      reason: expect.stringMatching(/^This account cannot currently make live charges\. \(param amount, request req_\w+\)$/),
    });
    expect((await hold(car)).statusCode, 'the car is free for the next try').toBe(201);
  });

  it('still tells the shopper it could not reach the payment provider when Stripe cannot be reached', async () => {
    const { holdThrough, logged } = checkoutWith(
      new PaymentProviders({ mode: 'live', stripeApi: { host: '127.0.0.1', port: await freePort(), protocol: 'http' } }),
    );
    const answer = await holdThrough(nextCar('stripe'));
    expect(answer).toEqual({ ok: false, reason: 'provider-failed', message: checkoutMessages.payingFailed });
    expect(logged.map((entry) => entry.msg)).toEqual(['payment could not be started']);
  });

  it('tells the shopper to call when the dealer has not set up Stripe or the bank’s gateway, holding nothing', async () => {
    const notSetUp = new PaymentNotConfigured('stripe').message;
    const unsetSiteId = (await findSiteIdBySlug(platform.ctx.db, unsetSite))!;
    const unsetSiteConfig = (await loadSiteConfig(platform.ctx.db, unsetSiteId))!;
    const stripeCar = (await listSiteCars(platform.ctx.db, unsetSiteId)).find(
      (car) =>
        car.show_on_dealer_website &&
        canReserve(car, { siteSupportsOnlinePayment: true }).ok &&
        depositFor(car, unsetSiteConfig.locale)?.provider === 'stripe',
    )!;
    expect(stripeCar, 'a Stripe car on the site without a secret key').toBeDefined();
    const requestsBefore = fake.requests.length;
    const res = await hold(stripeCar, shopper(), unsetSite);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ message: notSetUp });
    expect(fake.requests.length, 'Stripe is not called').toBe(requestsBefore);
    expect(await platform.ctx.db.selectFrom('reservations').select('id').where('car_id', '=', stripeCar.id).execute()).toEqual([]);

    await changeSecrets(site, { till: null, st_george: null });
    try {
      for (const kind of ['till', 'st_george'] as const) {
        const car = cars[kind][0]!;
        const refused = await hold(car);
        expect(refused.statusCode, kind).toBe(503);
        expect(refused.json()).toEqual({ message: notSetUp });
        expect(await platform.ctx.db.selectFrom('reservations').select('id').where('car_id', '=', car.id).execute()).toEqual([]);
      }
    } finally {
      await changeSecrets(site, { till: gateway.settings('till'), st_george: gateway.settings('st_george') });
    }
  });

  it.each(['till', 'st_george'] as const)(
    'sends the shopper to the %s payment page and reserves the car when the gateway’s signed notice says it is paid',
    async (kind) => {
      const car = nextCar(kind);
      const ana = shopper();
      const res = await hold(car, ana);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.body).not.toContain(gatewayKeys[kind]);
      const held = res.json<Held>();
      const started = gateway.requests.filter(
        (request) => request.idempotencyKey === `reservation-${held.reservation.id}-payment` && request.path === `/${kind}/payments`,
      );
      expect(started).toHaveLength(1);
      expect(started[0]).toMatchObject({
        method: 'POST',
        authorization: `Bearer ${gatewayKeys[kind]}`,
        body: {
          amount: held.reservation.deposit.amount_cents,
          currency: 'AUD',
          reference: `reservation-${held.reservation.id}`,
          email: ana.email,
        },
      });
      const ref = await paymentRef(held);
      expect(ref).toMatch(/^pay_/);
      expect(held.payment).toEqual({
        provider: kind,
        client_secret: null,
        redirect_url: `https://pay.${kind}.example/checkout/${ref}`,
        publishable_key: null,
      });

      const notify = (body: string, signature: string) =>
        siteRequest(platform.app, site, 'POST', `/api/payments/${kind}/notify`, {
          payload: body,
          headers: { 'content-type': 'application/json', 'x-gateway-signature': signature },
        });
      const body = JSON.stringify({ type: 'payment.succeeded', id: ref, reference: `reservation-${held.reservation.id}` });
      const forged = await notify(body, signGatewayNotice(body, 'someone-elses-key-0123456789abcdef'));
      expect(forged.statusCode).toBe(400);
      expect((await notify(body, '')).statusCode).toBe(400);
      expect(await stored(held.reservation.id)).toMatchObject({ state: 'holding' });
      expect(await leadsOfCar(car.id)).toHaveLength(0);

      const paid = await notify(body, signGatewayNotice(body, gatewayKeys[kind]));
      expect(paid.statusCode, paid.body).toBe(200);
      expect(paid.json()).toEqual({ received: true, state: 'reserved' });
      expect((await carPage(car)).reserved).toBe(true);
      const leads = await leadsOfCar(car.id);
      expect(leads).toHaveLength(1);
      expect(leads[0]!.category).toBe(reservationLeadCategory);
      expect(JSON.parse(leads[0]!.payload)).toMatchObject({ reservation: { payment_provider: kind, payment_reference: ref } });
    },
  );
});
