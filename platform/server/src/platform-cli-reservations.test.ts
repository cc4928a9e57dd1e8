import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Car } from '@dealer/contracts/car';
import { canReserve } from '@dealer/rules/reserve';
import { depositFor } from '@dealer/rules/reservation';
import { findCarById, listSiteCars } from '@dealer/db/car-store';
import { findSiteIdBySlug } from '@dealer/db/site-store';
import { runPlatformCli, UsageError } from './platform-cli';
import { carsIndexUid, searchKeyForSite } from './search/site-search';
import { createTestPlatform, siteRequest, testSearchAdminKey, testSearchKeySecret, type TestPlatform } from './testing/test-platform';

const site = 'metro-motor-group';
type Held = { reservation: { id: number; state: string }; token: string };
type Listed = {
  id: number;
  site_id: number;
  car_id: number;
  state: string;
  payment_ref: string | null;
  refund_ref: string | null;
  customer: { email: string };
};

describe("`platform reservations`: the dealer lists a site's reservations and releases a reserved car", () => {
  let platform: TestPlatform;
  let siteId: number;
  let reservable: Car[];
  const nextCar = () => reservable.shift()!;
  const saved = { ...process.env };

  beforeAll(async () => {
    platform = await createTestPlatform();
    siteId = (await findSiteIdBySlug(platform.ctx.db, site))!;
    reservable = (await listSiteCars(platform.ctx.db, siteId)).filter(
      (car) => car.show_on_dealer_website && canReserve(car, { siteSupportsOnlinePayment: true }).ok && depositFor(car, 'en-AU'),
    );
    await platform.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await platform?.close();
  });
  afterEach(() => {
    process.env = { ...saved };
  });

  /** The CLI against the test platform's store, pushing to its /meili on `port` (1: nobody listens). */
  const cli = async (args: string[], port = (platform.app.server.address() as AddressInfo).port) => {
    Object.assign(process.env, {
      DATA_DIR: platform.ctx.config.dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      SEARCH_ADMIN_KEY: testSearchAdminKey,
      LOG_LEVEL: 'silent',
    });
    delete process.env.DATABASE_URL;
    delete process.env.MEILISEARCH_URL;
    const lines: string[] = [];
    await runPlatformCli(args, (line) => lines.push(line));
    return lines;
  };
  const list = async () => (await cli(['reservations', site])).map((line) => JSON.parse(line) as Listed);

  let shoppers = 0;
  /** Holds the car over the checkout routes and pays with the test card: a reserved car. */
  const reserve = async (car: Car): Promise<Held> => {
    const n = ++shoppers;
    const res = await siteRequest(platform.app, site, 'POST', `/api/cars/${car.slug}/reservations`, {
      payload: { first_name: 'Ana', last_name: 'Shopper', email: `ana${n}@example.com`, phone: '0411 222 333', terms_accepted: true },
      headers: { 'x-forwarded-for': `203.0.113.${n}` },
    });
    expect(res.statusCode).toBe(201);
    const held = res.json<Held>();
    const paid = await siteRequest(platform.app, site, 'POST', `/api/reservations/${held.reservation.id}/test-payment`, {
      payload: { card_number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' },
      headers: { 'x-reservation-token': held.token },
    });
    expect(paid.json<Held>().reservation.state).toBe('reserved');
    return held;
  };
  const inSearch = async (car: Car) => {
    const res = await platform.app.inject({
      method: 'POST',
      url: `/meili/indexes/${carsIndexUid}/search`,
      headers: { authorization: `Bearer ${searchKeyForSite(siteId, testSearchKeySecret)}` },
      payload: { filter: `id = ${car.id}` },
    });
    return res.json<{ hits: Car[] }>().hits[0]!;
  };

  it('lists the reservations newest first without the token hash, releases one (refund, car free, search updated) and lists it released', async () => {
    const first = nextCar();
    const car = nextCar();
    const older = await reserve(first);
    const held = await reserve(car);
    expect((await inSearch(car)).reserved).toBe(true);

    const before = await list();
    expect(before.map((row) => row.id)).toEqual([held.reservation.id, older.reservation.id]);
    expect(before[0]).toMatchObject({
      id: held.reservation.id,
      site_id: siteId,
      car_id: car.id,
      state: 'reserved',
      payment_ref: expect.stringMatching(/^test_pi_/),
      refund_ref: null,
      customer: { email: `ana${shoppers}@example.com` },
    });
    for (const row of before) {
      expect(row).not.toHaveProperty('secret_hash');
      expect(row).not.toHaveProperty('active_car_id');
    }

    const released = await cli(['reservations', site, 'release', String(held.reservation.id)]);
    expect(released[0]).toMatch(
      new RegExp(
        `^Reservation ${held.reservation.id} on ${site} released: deposit refunded \\(test_re_[^)]+\\), the car is free again\\.$`,
      ),
    );
    expect(released[1]).toMatch(/^Search updated/);
    expect((await findCarById(platform.ctx.db, car.id))!.car.reserved).toBe(false);
    expect((await inSearch(car)).reserved).toBe(false);

    const after = await list();
    const row = after.find((entry) => entry.id === held.reservation.id)!;
    expect(row).toMatchObject({ state: 'released', refund_ref: expect.stringMatching(/^test_re_/) });
    expect(released[0]).toContain(`(${row.refund_ref})`);
    expect(after.find((entry) => entry.id === older.reservation.id)!.state).toBe('reserved');

    // Again: nothing more is refunded, and it says so.
    const again = await cli(['reservations', site, 'release', String(held.reservation.id)]);
    expect(again).toEqual([
      `Reservation ${held.reservation.id} on ${site} was already released: its deposit was refunded (${row.refund_ref}).`,
    ]);
    // The car can be held again.
    await reserve(car);
  });

  it('still releases when search is not reachable, and says search catches up at the next start', async () => {
    const car = nextCar();
    const held = await reserve(car);
    const lines = await cli(['reservations', site, 'release', String(held.reservation.id)], 1);
    expect(lines[0]).toMatch(/released: deposit refunded \(test_re_/);
    expect(lines[1]).toMatch(/is not reachable: the platform indexes the released car when it next starts\.$/);
    expect((await findCarById(platform.ctx.db, car.id))!.car.reserved).toBe(false);
  });

  it('refuses what cannot be released, with the reason', async () => {
    const car = nextCar();
    const hold = await siteRequest(platform.app, site, 'POST', `/api/cars/${car.slug}/reservations`, {
      payload: { first_name: 'Bea', last_name: 'Shopper', email: 'bea@example.com', phone: '0411 222 333', terms_accepted: true },
      headers: { 'x-forwarded-for': '198.51.100.7' },
    });
    const holding = hold.json<Held>().reservation.id;
    await expect(cli(['reservations', site, 'release', String(holding)])).rejects.toThrow(
      `Reservation ${holding} is holding: only a reserved car can be released.`,
    );
    await expect(cli(['reservations', 'harbour-used-cars', 'release', String(holding)])).rejects.toThrow(
      `No reservation ${holding} on this site.`,
    );
    await expect(cli(['reservations', site, 'release', '987654'])).rejects.toThrow('No reservation 987654 on this site.');
    await expect(cli(['reservations', site, 'release', 'abc'])).rejects.toThrow(UsageError);
    await expect(cli(['reservations', site, 'release'])).rejects.toThrow(UsageError);
    await expect(cli(['reservations', site, 'cancel', String(holding)])).rejects.toThrow(UsageError);
    await expect(cli(['reservations', 'nobody'])).rejects.toThrow('No site with slug "nobody"');
    await expect(cli(['reservations'])).rejects.toThrow(UsageError);
    expect(await cli(['reservations', 'harbour-used-cars'])).toEqual([]);
  });
});
