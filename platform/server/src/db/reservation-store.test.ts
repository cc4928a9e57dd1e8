import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoDataIfEmpty } from '@dealer/demo/seed-database';
import { skipPostgres } from '@dealer/testing/postgres';
import { openTestStore, type TestStore } from '@dealer/testing/test-store';
import { migrateToLatest } from '@dealer/db/database';
import { findCarById } from '@dealer/db/car-store';
import { findReservation, holdCar, markCarHold, moveReservation, type HoldLimit, type NewHold } from '@dealer/db/reservation-store';
import { findSiteIdBySlug } from '@dealer/db/site-store';

const minute = 60_000;

describe.each(['sqlite', 'postgres'] as const)('holding and reserving a car on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let store: TestStore;
  let siteId: number;
  let carIds: number[];
  let limit: HoldLimit;
  beforeAll(async () => {
    store = await openTestStore(engine);
    await migrateToLatest(store.db, store.engine);
    await seedDemoDataIfEmpty(store.db);
    siteId = (await findSiteIdBySlug(store.db, 'metro-motor-group'))!;
    const rows = await store.db.selectFrom('cars').select('id').where('site_id', '=', siteId).orderBy('id').limit(40).execute();
    carIds = rows.map((row) => Number(row.id));
    limit = { perPerson: 2, engine };
  });
  afterAll(async () => {
    await store?.close();
  });

  /** Shopper `shopper`'s hold; each shopper has their own e-mail, phone and address unless `holder` says otherwise. */
  const hold = (carId: number, now: number, shopper = 'ana', holder: Partial<NewHold['holder']> = {}): NewHold => ({
    siteId,
    carId,
    provider: 'test',
    amountCents: 50_000,
    currency: 'AUD',
    customer: { first_name: shopper, last_name: 'Shopper', email: `${shopper}@example.com`, phone: '0411222333' },
    secretHash: `hash-of-${shopper}`,
    heldUntil: now + 15 * minute,
    holder: { email: `${shopper}@example.com`, phone: `phone of ${shopper}`, address: `address of ${shopper}`, ...holder },
  });

  it('gives a car to exactly one of 50 shoppers holding it at once', async () => {
    const now = Date.now();
    const carId = carIds[0]!;
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) => holdCar(store.db, hold(carId, now, `shopper${i}`), now, limit)),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok)).toEqual(Array(49).fill({ ok: false, takenBy: 'holding' }));
    const rows = await store.db.selectFrom('reservations').select(['state']).where('car_id', '=', carId).execute();
    expect(rows).toEqual([{ state: 'holding' }]);
  });

  it("lets the next shopper hold a car once a hold has run out, and the first one's hold ends as expired", async () => {
    const start = Date.now();
    const carId = carIds[1]!;
    const first = await holdCar(store.db, hold(carId, start, 'first'), start, limit);
    expect(first.ok).toBe(true);
    expect((await holdCar(store.db, hold(carId, start + 14 * minute, 'early'), start + 14 * minute, limit)).ok).toBe(false);
    const later = start + 15 * minute;
    const second = await holdCar(store.db, hold(carId, later, 'second'), later, limit);
    expect(second.ok).toBe(true);
    expect((await findReservation(store.db, first.ok ? first.reservation.id : 0))!.state).toBe('expired');
  });

  it('reserves a paid hold once, however many times the payment is reported, and then no one else may hold the car', async () => {
    const now = Date.now();
    const carId = carIds[2]!;
    const held = await holdCar(store.db, hold(carId, now), now, limit);
    if (!held.ok) throw new Error('expected the hold');
    const moves = await Promise.all(
      Array.from({ length: 5 }, () => moveReservation(store.db, held.reservation.id, ['holding'], 'reserved', now)),
    );
    expect(moves.filter(Boolean)).toHaveLength(1);
    expect(await holdCar(store.db, hold(carId, now + 60 * minute, 'late'), now + 60 * minute, limit)).toEqual({
      ok: false,
      takenBy: 'reserved',
    });
  });

  it('honours a payment after the hold ran out when the car is still free, and refuses it when another shopper holds it', async () => {
    const start = Date.now();
    const free = carIds[3]!;
    const lapsed = await holdCar(store.db, hold(free, start), start, limit);
    if (!lapsed.ok) throw new Error('expected the hold');
    await moveReservation(store.db, lapsed.reservation.id, ['holding'], 'expired', start + 16 * minute);
    expect(
      await moveReservation(store.db, lapsed.reservation.id, ['holding', 'expired', 'cancelled'], 'reserved', start + 17 * minute),
    ).toBe(true);
    expect((await findReservation(store.db, lapsed.reservation.id))!).toMatchObject({ state: 'reserved', active_car_id: free });

    const taken = carIds[4]!;
    const loser = await holdCar(store.db, hold(taken, start, 'loser'), start, limit);
    if (!loser.ok) throw new Error('expected the hold');
    const winner = await holdCar(store.db, hold(taken, start + 16 * minute, 'winner'), start + 16 * minute, limit);
    expect(winner.ok).toBe(true);
    expect(
      await moveReservation(store.db, loser.reservation.id, ['holding', 'expired', 'cancelled'], 'reserved', start + 17 * minute),
    ).toBe(false);
    expect((await findReservation(store.db, loser.reservation.id))!).toMatchObject({ state: 'expired', active_car_id: null });
  });

  /** Holds `shopper` (with `holder`) makes of `cars` in turn, a minute apart from `start`: each outcome. */
  const holdEach = async (cars: number[], start: number, shopper: string, holder: Partial<NewHold['holder']> = {}) => {
    const outcomes = [];
    for (const [i, carId] of cars.entries())
      outcomes.push(await holdCar(store.db, hold(carId, start + i * minute, shopper, holder), start + i * minute, limit));
    return outcomes;
  };

  it('lets one shopper hold two cars of a site at once, and says when the first of them runs out', async () => {
    const start = Date.now();
    const [first, second, third] = await holdEach([carIds[5]!, carIds[6]!, carIds[7]!], start, 'cara');
    expect(first!.ok && second!.ok).toBe(true);
    expect(third).toEqual({ ok: false, overLimit: { freeAt: start + 15 * minute } });
    expect(
      await store.db.selectFrom('reservations').select('id').where('car_id', '=', carIds[7]!).execute(),
      'nothing is held for the third',
    ).toEqual([]);
    expect(
      (await holdCar(store.db, hold(carIds[7]!, start + 2 * minute, 'dana'), start + 2 * minute, limit)).ok,
      'another shopper may hold it',
    ).toBe(true);
  });

  it('counts the e-mail, the phone and the client address apart: a new name with any of them is the same shopper', async () => {
    const start = Date.now();
    const taken = await holdEach([carIds[8]!, carIds[9]!], start, 'erin', {
      email: 'erin@example.com',
      phone: '0412000001',
      address: '198.51.100.1',
    });
    expect(taken.every((outcome) => outcome.ok)).toBe(true);
    const later = start + 2 * minute;
    const asSomeoneElse = (shopper: string, holder: Partial<NewHold['holder']>) =>
      holdCar(store.db, hold(carIds[10]!, later, shopper, holder), later, limit);
    expect(await asSomeoneElse('erin2', { email: 'erin@example.com' })).toMatchObject({ ok: false, overLimit: {} });
    expect(await asSomeoneElse('erin3', { phone: '0412000001' })).toMatchObject({ ok: false, overLimit: {} });
    expect(await asSomeoneElse('erin4', { address: '198.51.100.1' })).toMatchObject({ ok: false, overLimit: {} });
    expect((await asSomeoneElse('fay', {})).ok).toBe(true);
  });

  it('does not count a car twice: asking again for a car the shopper holds says it is held, not that they hold too many', async () => {
    const start = Date.now();
    await holdEach([carIds[11]!, carIds[12]!], start, 'gail');
    expect(await holdCar(store.db, hold(carIds[11]!, start + 2 * minute, 'gail'), start + 2 * minute, limit)).toEqual({
      ok: false,
      takenBy: 'holding',
    });
  });

  it('counts live holds only: one paid, given up or run out leaves room for another', async () => {
    const start = Date.now();
    const [paid, givenUp] = await holdEach([carIds[13]!, carIds[14]!], start, 'hana');
    if (!paid?.ok || !givenUp?.ok) throw new Error('expected both holds');
    await moveReservation(store.db, paid.reservation.id, ['holding'], 'reserved', start + minute);
    await moveReservation(store.db, givenUp.reservation.id, ['holding'], 'cancelled', start + minute);
    const [third, fourth, fifth] = await holdEach([carIds[15]!, carIds[16]!, carIds[17]!], start + 2 * minute, 'hana');
    expect([third!.ok, fourth!.ok, fifth!.ok]).toEqual([true, true, false]);
    // The first of the two ran out at start + 17 minutes.
    expect((await holdCar(store.db, hold(carIds[17]!, start + 17 * minute, 'hana'), start + 17 * minute, limit)).ok).toBe(true);
  });

  it('gives one shopper two of ten cars they hold at once, however the holds race', async () => {
    const now = Date.now();
    const cars = carIds.slice(20, 30);
    const outcomes = await Promise.all(cars.map((carId) => holdCar(store.db, hold(carId, now, 'ivy'), now, limit)));
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(2);
    expect(outcomes.filter((outcome) => !outcome.ok && 'overLimit' in outcome)).toHaveLength(8);
    const live = await store.db
      .selectFrom('reservations')
      .select('id')
      .where('holder_email', '=', 'ivy@example.com')
      .where('state', '=', 'holding')
      .execute();
    expect(live).toHaveLength(2);
  });

  it('takes no limit when the setting is 0', async () => {
    const now = Date.now();
    const outcomes = await Promise.all(
      carIds.slice(30, 35).map((carId) => holdCar(store.db, hold(carId, now, 'jo'), now, { ...limit, perPerson: 0 })),
    );
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
  });

  it('marks the car On hold until its hold runs out, and no longer once the hold is given up', async () => {
    const now = Date.now();
    const carId = carIds[35]!;
    const held = await holdCar(store.db, hold(carId, now, 'kim'), now, limit);
    if (!held.ok) throw new Error('expected the hold');
    expect((await markCarHold(store.db, carId, now))!.car.on_hold_until_timestamp).toBe(Math.ceil((now + 15 * minute) / 1000));
    expect((await findCarById(store.db, carId))!.car.on_hold_until_timestamp, 'kept on the car').toBe(
      Math.ceil((now + 15 * minute) / 1000),
    );
    await moveReservation(store.db, held.reservation.id, ['holding'], 'cancelled', now + minute);
    expect((await markCarHold(store.db, carId, now + minute))!.car.on_hold_until_timestamp).toBeNull();
    expect(await markCarHold(store.db, 999_999_999, now), 'no such car').toBeNull();
  });
});
