import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Car } from '@dealer/contracts/car';
import { canReserve, reserveBlockReasons } from '@dealer/rules/reserve';
import { checkoutMessages, depositFor, reservationLeadCategory } from '@dealer/rules/reservation';
import { formMessages } from '@dealer/contracts/lead-values';
import { findCarById, listSiteCars, updateCar } from '@dealer/db/car-store';
import { findReservation } from '@dealer/db/reservation-store';
import { findSiteIdBySlug } from '@dealer/db/site-store';
import { carsIndexUid, searchKeyForSite } from '../search/site-search';
import { skipPostgres } from '@dealer/testing/postgres';
import { createTestPlatform, siteRequest, testAdminKey, testSearchKeySecret, type TestPlatform } from '../testing/test-platform';
import { PaymentProviders } from './payment-providers';
import { holdLimitMessage, ReservationService } from './reservation-service';
import { holdRateLimit } from '../routes/checkout';
import { testCardMessages } from './test-provider';

const site = 'metro-motor-group';
const minute = 60_000;
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
const card = (number = '4242 4242 4242 4242') => ({ card_number: number, expiry: '12/34', cvc: '123' });
type Held = {
  reservation: { id: number; state: string; deposit: { amount_cents: number; currency: string }; payment_reference: string | null };
  token: string;
  payment: { provider: string };
};

describe.each(['sqlite', 'postgres'] as const)('reserving a car with a deposit on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let platform: TestPlatform;
  let siteId: number;
  /** Cars of the site a shopper can reserve online, handed out one per test. */
  let reservable: Car[];
  const nextCar = () => reservable.shift()!;
  /** The service over the same store, for what depends on the clock (a hold running out). */
  let service: ReservationService;

  beforeAll(async () => {
    platform = await createTestPlatform({ engine });
    siteId = (await findSiteIdBySlug(platform.ctx.db, site))!;
    reservable = (await listSiteCars(platform.ctx.db, siteId)).filter(
      (car) => car.show_on_dealer_website && canReserve(car, { siteSupportsOnlinePayment: true }).ok && depositFor(car, 'en-AU'),
    );
    expect(reservable.length, 'the demo site has cars to reserve').toBeGreaterThanOrEqual(30);
    const { ctx } = platform;
    const log = { error: () => {}, warn: () => {} };
    service = new ReservationService({
      db: ctx.db,
      engine: ctx.dialect,
      holdsPerPerson: ctx.config.reservations.holdsPerPerson,
      indexer: ctx.indexer,
      leads: ctx.leads.service,
      providers: new PaymentProviders(ctx.config.payments),
      siteOf: (id) => ctx.sites.forId(id),
      log,
    });
  });
  afterAll(async () => {
    await platform?.close();
  });

  // Each shopper from an address of their own, as the hold limit per address would otherwise count them together.
  let shoppers = 0;
  const hold = (car: Car, body: object = shopper(), ip = `203.0.113.${++shoppers % 250}`) =>
    siteRequest(platform.app, site, 'POST', `/api/cars/${car.slug}/reservations`, {
      payload: body as Record<string, unknown>,
      headers: { 'x-forwarded-for': ip },
    });
  const pay = (held: Held, body: object = card()) =>
    siteRequest(platform.app, site, 'POST', `/api/reservations/${held.reservation.id}/test-payment`, {
      payload: body as Record<string, unknown>,
      headers: { 'x-reservation-token': held.token },
    });
  const giveUp = (held: Held) =>
    siteRequest(platform.app, site, 'DELETE', `/api/reservations/${held.reservation.id}`, {
      headers: { 'x-reservation-token': held.token },
    });
  const searchFor = async (car: Car) => {
    const res = await platform.app.inject({
      method: 'POST',
      url: `/meili/indexes/${carsIndexUid}/search`,
      headers: { authorization: `Bearer ${searchKeyForSite(siteId, testSearchKeySecret)}` },
      payload: { filter: `id = ${car.id}` },
    });
    return res.json<{ hits: Car[] }>().hits[0]!;
  };
  const leadsOfCar = (carId: number) =>
    platform.ctx.db
      .selectFrom('leads')
      .select(['id', 'category', 'payload'])
      .where('site_id', '=', siteId)
      .where('category', '=', reservationLeadCategory)
      .execute()
      .then((rows) => rows.filter((row) => (JSON.parse(row.payload) as { car_id?: number }).car_id === carId));

  it('reserves a car paid with the test card: the car says Reserved on its page and in search, and the dealer gets one lead with the payment reference', async () => {
    const car = nextCar();
    const ana = shopper();
    const res = await hold(car, ana);
    expect(res.statusCode).toBe(201);
    const held = res.json<Held>();
    expect(held.payment.provider).toBe('test');
    expect(held.reservation).toMatchObject({
      state: 'holding',
      deposit: { amount_cents: car.payment_processors[0]!.deposit_amount * 100, currency: 'AUD' },
      payment_reference: null,
    });

    const paid = await pay(held);
    expect(paid.statusCode).toBe(200);
    const reservation = paid.json<Held>().reservation;
    expect(reservation.state).toBe('reserved');
    expect(reservation.payment_reference).toMatch(/^test_pi_/);

    const page = await siteRequest(platform.app, site, 'GET', `/api/cars/${car.slug}`);
    expect(page.json<Car>().reserved).toBe(true);
    expect((await searchFor(car)).reserved).toBe(true);

    const leads = await leadsOfCar(car.id);
    expect(leads).toHaveLength(1);
    const payload = JSON.parse(leads[0]!.payload) as Record<string, unknown>;
    expect(payload).toMatchObject({ name: 'Ana', last_name: 'Shopper', email: ana.email, subcategory: 'Deposit paid' });
    expect(payload.message).toContain(reservation.payment_reference!);
    expect(payload.reservation).toMatchObject({
      id: reservation.id,
      payment_reference: reservation.payment_reference,
      deposit_cents: reservation.deposit.amount_cents,
    });
    const jobs = await platform.ctx.db.selectFrom('lead_delivery_jobs').select('id').where('lead_id', '=', leads[0]!.id).execute();
    expect(jobs.length, 'the lead goes out through the outbox').toBeGreaterThan(0);

    // Paying again (a double click) changes nothing; the car can no longer be held by anyone.
    expect((await pay(held)).json<Held>().reservation.state).toBe('reserved');
    expect(await leadsOfCar(car.id)).toHaveLength(1);
    const again = await hold(car, shopper('Bea'));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: reserveBlockReasons.reserved });
  });

  it('shows a declined card its error and keeps the hold, so another card can pay', async () => {
    const car = nextCar();
    const held = (await hold(car)).json<Held>();
    const declined = await pay(held, card('4000 0000 0000 0002'));
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toEqual({ message: testCardMessages.declined, fields: { card_number: testCardMessages.declined } });
    const broke = await pay(held, card('4000000000009995'));
    expect(broke.json()).toMatchObject({ message: testCardMessages.insufficientFunds });
    expect((await findReservation(platform.ctx.db, held.reservation.id))!.state).toBe('holding');
    expect((await hold(car, shopper('Bea'))).json()).toEqual({ message: checkoutMessages.heldByOther });
    expect((await pay(held)).json<Held>().reservation.state).toBe('reserved');
  });

  it("puts each wrong detail next to its field, with the SPEC's words, and holds nothing", async () => {
    const car = nextCar();
    const res = await hold(car, { first_name: 'Ana3', last_name: '', email: 'ana@', phone: '12', terms_accepted: false });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'Please check the highlighted fields.',
      fields: {
        first_name: formMessages.alphabetical,
        last_name: formMessages.required,
        email: formMessages.invalidEmail,
        phone: 'Invalid phone number. Must be an Australian number.',
        terms_accepted: formMessages.required,
      },
    });
    expect((await hold(car, shopper())).statusCode, 'the car is still free').toBe(201);
    const wrongCard = await pay((await hold(nextCar(), shopper('Cy'))).json<Held>(), { card_number: '4242', expiry: '01/20', cvc: '' });
    expect(wrongCard.statusCode).toBe(400);
    expect(Object.keys(wrongCard.json<{ fields: object }>().fields).sort()).toEqual(['card_number', 'cvc', 'expiry']);
  });

  it('gives a car to exactly one of 50 shoppers reserving it at once', async () => {
    const car = nextCar();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => hold(car, shopper(`Shopper${String.fromCharCode(65 + (i % 26))}`), `198.51.100.${i + 1}`)),
    );
    const won = answers.filter((res) => res.statusCode === 201);
    expect(won).toHaveLength(1);
    expect(answers.filter((res) => res.statusCode === 409)).toHaveLength(49);
    await Promise.all(
      answers
        .filter((res) => res.statusCode === 409)
        .map(async (res) => expect(res.json()).toEqual({ message: checkoutMessages.heldByOther })),
    );
    expect((await pay(won[0]!.json<Held>())).json<Held>().reservation.state).toBe('reserved');
    const rows = await platform.ctx.db.selectFrom('reservations').select('state').where('car_id', '=', car.id).execute();
    expect(rows).toEqual([{ state: 'reserved' }]);
  });

  it('lets the car go when the 15 minutes run out, and refuses to take the card after', async () => {
    const car = nextCar();
    const start = Date.now();
    const held = (await hold(car)).json<Held>();
    const site_ = (await platform.ctx.sites.forId(siteId))!;
    const late = await service.payWithTestCard(site_, held.reservation.id, held.token, card(), start + 16 * minute);
    expect(late).toEqual({ ok: false, reason: 'conflict', message: checkoutMessages.holdRanOut });
    expect((await findReservation(platform.ctx.db, held.reservation.id))!.state).toBe('expired');
    expect((await hold(car, shopper('Bea'))).statusCode).toBe(201);
  });

  it('lets run-out holds go in the sweep, so the car is free for the next shopper', async () => {
    const car = nextCar();
    const held = (await hold(car)).json<Held>();
    const swept = await service.sweep(Date.now() + 16 * minute);
    expect(swept.expired).toBeGreaterThanOrEqual(1);
    expect((await findReservation(platform.ctx.db, held.reservation.id))!).toMatchObject({ state: 'expired', active_car_id: null });
  });

  it('reserves once however many times, and however concurrently, the payment is told', async () => {
    const car = nextCar();
    const held = (await hold(car)).json<Held>();
    const ref = (await findReservation(platform.ctx.db, held.reservation.id))!.payment_ref!;
    const results = await Promise.all(Array.from({ length: 10 }, () => service.confirmPaid(held.reservation.id, ref)));
    expect(results.every((reservation) => reservation?.state === 'reserved')).toBe(true);
    expect(await leadsOfCar(car.id)).toHaveLength(1);
    expect((await findReservation(platform.ctx.db, held.reservation.id))!.lead_id).toBe((await leadsOfCar(car.id))[0]!.id);
  });

  it('honours a payment that lands after the hold ran out while the car is still free', async () => {
    const car = nextCar();
    const held = (await hold(car)).json<Held>();
    const ref = (await findReservation(platform.ctx.db, held.reservation.id))!.payment_ref!;
    await service.sweep(Date.now() + 16 * minute);
    expect((await service.confirmPaid(held.reservation.id, ref))!.state).toBe('reserved');
    expect((await findCarById(platform.ctx.db, car.id))!.car.reserved).toBe(true);
  });

  it('refunds a payment that lands after the car went to another shopper', async () => {
    const car = nextCar();
    const first = (await hold(car)).json<Held>();
    const firstRef = (await findReservation(platform.ctx.db, first.reservation.id))!.payment_ref!;
    await service.sweep(Date.now() + 16 * minute);
    const second = (await hold(car, shopper('Bea'))).json<Held>();
    expect((await pay(second)).json<Held>().reservation.state).toBe('reserved');
    const [a, b] = await Promise.all([
      service.confirmPaid(first.reservation.id, firstRef),
      service.confirmPaid(first.reservation.id, firstRef),
    ]);
    expect(a!.state).toBe('refunded');
    expect(b!.state).toBe('refunded');
    const refunded = (await findReservation(platform.ctx.db, first.reservation.id))!;
    expect(refunded.refund_ref).toMatch(/^test_re_/);
    expect(await leadsOfCar(car.id)).toHaveLength(1);
  });

  it('lets the shopper give the hold up, freeing the car at once', async () => {
    const car = nextCar();
    const held = (await hold(car)).json<Held>();
    const res = await siteRequest(platform.app, site, 'DELETE', `/api/reservations/${held.reservation.id}`, {
      headers: { 'x-reservation-token': held.token },
    });
    expect(res.json<Held>().reservation.state).toBe('cancelled');
    expect((await hold(car, shopper('Bea'))).statusCode).toBe(201);
  });

  it('answers another shopper (no token, a wrong token, another site) as if the reservation did not exist', async () => {
    const ana = shopper();
    const held = (await hold(nextCar(), ana)).json<Held>();
    const url = `/api/reservations/${held.reservation.id}`;
    expect((await siteRequest(platform.app, site, 'GET', url)).statusCode).toBe(404);
    expect((await siteRequest(platform.app, site, 'GET', url, { headers: { 'x-reservation-token': `${held.token}x` } })).statusCode).toBe(
      404,
    );
    expect(
      (await siteRequest(platform.app, 'harbour-used-cars', 'GET', url, { headers: { 'x-reservation-token': held.token } })).statusCode,
    ).toBe(404);
    const own = await siteRequest(platform.app, site, 'GET', url, { headers: { 'x-reservation-token': held.token } });
    expect(own.json<Held>().reservation).toMatchObject({ id: held.reservation.id, state: 'holding' });
    expect(own.body).not.toContain(ana.email);
    expect(
      (await siteRequest(platform.app, site, 'GET', '/api/reservations/abc', { headers: { 'x-reservation-token': held.token } }))
        .statusCode,
    ).toBe(404);
  });

  it('lists reservations for the dealer and releases one: the deposit refunded, the car free again', async () => {
    const car = nextCar();
    const ana = shopper();
    const held = (await hold(car, ana)).json<Held>();
    await pay(held);
    const auth = { authorization: `Bearer ${testAdminKey}` };
    const listed = await platform.app.inject({ method: 'GET', url: `/api/admin/reservations?site=${site}`, headers: auth });
    expect(listed.statusCode).toBe(200);
    const mine = listed.json<{ reservations: Record<string, unknown>[] }>().reservations.find((row) => row.id === held.reservation.id)!;
    expect(mine).toMatchObject({ state: 'reserved', car_id: car.id, customer: { email: ana.email } });
    expect(mine).not.toHaveProperty('secret_hash');
    expect(mine).not.toHaveProperty('holder_address');

    expect((await platform.app.inject({ method: 'POST', url: `/api/admin/reservations/${held.reservation.id}/release` })).statusCode).toBe(
      401,
    );
    const released = await platform.app.inject({
      method: 'POST',
      url: `/api/admin/reservations/${held.reservation.id}/release`,
      headers: auth,
    });
    expect(released.statusCode).toBe(200);
    expect(released.json<{ reservation: { state: string; refund_ref: string } }>().reservation).toMatchObject({
      state: 'released',
      refund_ref: expect.stringMatching(/^test_re_/),
    });
    expect((await searchFor(car)).reserved).toBe(false);
    expect((await hold(car, shopper('Bea'))).statusCode).toBe(201);
    const twice = await platform.app.inject({
      method: 'POST',
      url: `/api/admin/reservations/${held.reservation.id}/release`,
      headers: auth,
    });
    expect(twice.json<{ reservation: { refund_ref: string } }>().reservation.refund_ref).toBe(
      released.json<{ reservation: { refund_ref: string } }>().reservation.refund_ref,
    );
  });

  it('holds at most two cars for one shopper at once: a third is a 429 that says so and when a hold runs out, however they write their e-mail or mobile, or from the same address', async () => {
    const [first, second, third] = [nextCar(), nextCar(), nextCar()];
    const cara = shopper('Cara');
    const caraAddress = '192.0.2.50';
    const held = [(await hold(first!, cara, caraAddress)).json<Held>(), (await hold(second!, cara, caraAddress)).json<Held>()];
    expect(held.map((one) => one.reservation.state)).toEqual(['holding', 'holding']);

    const asCara = [
      await hold(third!, { ...shopper('Cara'), email: cara.email.toUpperCase() }),
      await hold(third!, { ...shopper('Cara'), phone: `+61 ${cara.phone.slice(1)}` }),
      await hold(third!, shopper('Dee'), caraAddress),
    ];
    for (const res of asCara) {
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual({ message: holdLimitMessage(2, '15 minutes') });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(14 * 60);
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    }
    expect(
      await platform.ctx.db.selectFrom('reservations').select('id').where('car_id', '=', third!.id).execute(),
      'nothing held for her',
    ).toEqual([]);

    // Another shopper may have it; and once Cara lets one go, she may hold another.
    expect((await hold(nextCar(), shopper('Eve'))).statusCode).toBe(201);
    await giveUp(held[0]!);
    expect((await hold(third!, cara, caraAddress)).statusCode).toBe(201);
  });

  it('shows a held car On hold in search and on its page until its hold ends, then available again', async () => {
    const car = nextCar();
    const held = (await hold(car)).json<Held & { reservation: { held_until: number } }>();
    const until = Math.ceil(held.reservation.held_until / 1000);
    const carPage = async () => (await siteRequest(platform.app, site, 'GET', `/api/cars/${car.slug}`)).json<Car>();
    expect((await carPage()).on_hold_until_timestamp).toBe(until);
    expect((await searchFor(car)).on_hold_until_timestamp).toBe(until);
    expect((await carPage()).reserved).toBe(false);

    await giveUp(held);
    expect((await carPage()).on_hold_until_timestamp).toBeNull();
    expect((await searchFor(car)).on_hold_until_timestamp).toBeNull();

    // Paid: Reserved, and no longer on hold (a dealer's release then shows it free).
    const paid = (await hold(car, shopper('Finn'))).json<Held>();
    expect((await searchFor(car)).on_hold_until_timestamp).toBeGreaterThan(0);
    await pay(paid);
    expect(await searchFor(car)).toMatchObject({ reserved: true, on_hold_until_timestamp: null });
  });

  it('limits one address to 10 holds a site in 15 minutes, so nobody can hold the whole yard', async () => {
    const cars = reservable.splice(0, holdRateLimit.max + 1);
    const answers = [];
    // Each given up at once: this limit is on holds started, not on cars held at a time.
    for (const car of cars) {
      const res = await hold(car, shopper(), '192.0.2.99');
      answers.push(res);
      if (res.statusCode === 201) await giveUp(res.json<Held>());
    }
    expect(answers.slice(0, holdRateLimit.max).map((res) => res.statusCode)).toEqual(Array(holdRateLimit.max).fill(201));
    const refused = answers[holdRateLimit.max]!;
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json<{ message: string }>().message).toMatch(/^Too many reservations from your connection/);
  });

  it('takes no deposits on subscription and rental sites, nor for a car that cannot be reserved', async () => {
    for (const other of ['flexi-subscriptions', 'citi-rentals']) {
      const cars = await listSiteCars(platform.ctx.db, (await findSiteIdBySlug(platform.ctx.db, other))!);
      const res = await siteRequest(platform.app, other, 'POST', `/api/cars/${cars[0]!.slug}/reservations`, { payload: shopper() });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: checkoutMessages.noCheckout });
    }
    const cars = await listSiteCars(platform.ctx.db, siteId);
    const unreservable = cars.find(
      (car) => car.reservable === false && car.show_on_dealer_website && car.status === 'in_stock' && !car.reserved,
    )!;
    const res = await hold(unreservable);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: reserveBlockReasons.notReservable });
    expect((await hold({ ...unreservable, slug: 'no-such-car' })).statusCode).toBe(404);
    const hidden = (await updateCar(platform.ctx.db, nextCar().id, { show_on_dealer_website: false }))!.car;
    expect((await hold(hidden)).statusCode, 'a car the dealer keeps off the website').toBe(404);
  });
});
