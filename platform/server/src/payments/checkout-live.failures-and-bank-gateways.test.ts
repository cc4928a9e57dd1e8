import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Car } from '@dealer/contracts/car';
import { canReserve } from '@dealer/rules/reserve';
import { checkoutMessages, depositFor, reservationLeadCategory } from '@dealer/rules/reservation';
import { listSiteCars } from '@dealer/db/car-store';
import { findSiteIdBySlug, loadSiteConfig } from '@dealer/db/site-store';
import { skipPostgres } from '@dealer/testing/postgres';
import { freePort } from '@dealer/testing/free-port';
import { siteRequest, type TestPlatform } from '../testing/test-platform';
import type { FakeStripe } from '@dealer/testing/fake-stripe-server';
import { signGatewayNotice } from './hosted-provider';
import { PaymentNotConfigured } from './payment-provider';
import { PaymentProviders } from './payment-providers';
import { ReservationService } from './reservation-service';
import { gatewayKeys, liveCheckoutOn, shopper, site, unsetSite, type FakeGateway, type Held } from '../testing/live-checkout';

// Reserving a car with a card deposit when the payment cannot start (Stripe refuses, cannot be
// reached, or the dealer has not set it up), and through the banks' hosted payment pages (Till and
// St.George) with their signed notices. Paying through Stripe is in checkout-live.stripe.test.ts.

describe.each(['sqlite', 'postgres'] as const)('reserving a car with a real card deposit (live payments) on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let fake: FakeStripe;
  let gateway: FakeGateway;
  let platform: TestPlatform;
  let siteId: number;
  const { open, close, cars, nextCar, changeSecrets, hold, carPage, stored, leadsOfCar, paymentRef } = liveCheckoutOn(engine);
  beforeAll(async () => {
    ({ fake, gateway, platform, siteId } = await open());
  });
  afterAll(close);

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
