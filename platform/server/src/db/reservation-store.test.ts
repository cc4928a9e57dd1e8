import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoDataIfEmpty } from '@dealer/demo/seed-database';
import { skipPostgres } from '@dealer/db/testing/postgres';
import { openTestStore, type TestStore } from '../testing/test-store';
import { migrateToLatest } from '@dealer/db/database';
import { findReservation, holdCar, moveReservation, type NewHold } from '@dealer/db/reservation-store';
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
  beforeAll(async () => {
    store = await openTestStore(engine);
    await migrateToLatest(store.db, store.engine);
    await seedDemoDataIfEmpty(store.db);
    siteId = (await findSiteIdBySlug(store.db, 'metro-motor-group'))!;
    const rows = await store.db.selectFrom('cars').select('id').where('site_id', '=', siteId).orderBy('id').limit(10).execute();
    carIds = rows.map((row) => Number(row.id));
  });
  afterAll(async () => {
    await store?.close();
  });

  const hold = (carId: number, now: number, shopper = 'ana'): NewHold => ({
    siteId,
    carId,
    provider: 'test',
    amountCents: 50_000,
    currency: 'AUD',
    customer: { first_name: shopper, last_name: 'Shopper', email: `${shopper}@example.com`, phone: '0411222333' },
    secretHash: `hash-of-${shopper}`,
    heldUntil: now + 15 * minute,
  });

  it('gives a car to exactly one of 50 shoppers holding it at once', async () => {
    const now = Date.now();
    const carId = carIds[0]!;
    const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => holdCar(store.db, hold(carId, now, `shopper${i}`), now)));
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok).every((outcome) => !outcome.ok && outcome.takenBy === 'holding')).toBe(true);
    const rows = await store.db.selectFrom('reservations').select(['state']).where('car_id', '=', carId).execute();
    expect(rows).toEqual([{ state: 'holding' }]);
  });

  it('lets the next shopper hold a car once a hold has run out, and the first one\'s hold ends as expired', async () => {
    const start = Date.now();
    const carId = carIds[1]!;
    const first = await holdCar(store.db, hold(carId, start, 'first'), start);
    expect(first.ok).toBe(true);
    expect((await holdCar(store.db, hold(carId, start + 14 * minute, 'early'), start + 14 * minute)).ok).toBe(false);
    const later = start + 15 * minute;
    const second = await holdCar(store.db, hold(carId, later, 'second'), later);
    expect(second.ok).toBe(true);
    expect((await findReservation(store.db, first.ok ? first.reservation.id : 0))!.state).toBe('expired');
  });

  it('reserves a paid hold once, however many times the payment is reported, and then no one else may hold the car', async () => {
    const now = Date.now();
    const carId = carIds[2]!;
    const held = await holdCar(store.db, hold(carId, now), now);
    if (!held.ok) throw new Error('expected the hold');
    const moves = await Promise.all(Array.from({ length: 5 }, () => moveReservation(store.db, held.reservation.id, ['holding'], 'reserved', now)));
    expect(moves.filter(Boolean)).toHaveLength(1);
    expect(await holdCar(store.db, hold(carId, now + 60 * minute, 'late'), now + 60 * minute)).toEqual({ ok: false, takenBy: 'reserved' });
  });

  it('honours a payment after the hold ran out when the car is still free, and refuses it when another shopper holds it', async () => {
    const start = Date.now();
    const free = carIds[3]!;
    const lapsed = await holdCar(store.db, hold(free, start), start);
    if (!lapsed.ok) throw new Error('expected the hold');
    await moveReservation(store.db, lapsed.reservation.id, ['holding'], 'expired', start + 16 * minute);
    expect(await moveReservation(store.db, lapsed.reservation.id, ['holding', 'expired', 'cancelled'], 'reserved', start + 17 * minute)).toBe(true);
    expect((await findReservation(store.db, lapsed.reservation.id))!).toMatchObject({ state: 'reserved', active_car_id: free });

    const taken = carIds[4]!;
    const loser = await holdCar(store.db, hold(taken, start, 'loser'), start);
    if (!loser.ok) throw new Error('expected the hold');
    const winner = await holdCar(store.db, hold(taken, start + 16 * minute, 'winner'), start + 16 * minute);
    expect(winner.ok).toBe(true);
    expect(await moveReservation(store.db, loser.reservation.id, ['holding', 'expired', 'cancelled'], 'reserved', start + 17 * minute)).toBe(false);
    expect((await findReservation(store.db, loser.reservation.id))!).toMatchObject({ state: 'expired', active_car_id: null });
  });
});
