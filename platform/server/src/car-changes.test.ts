import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Car } from '@dealer/contracts/car';
import { isListedInSearch } from '@dealer/rules/tags';
import { applyCarChange, CarChangeConflict, findCarById, listSiteCars } from '@dealer/db/car-store';
import { findSiteIdBySlug } from '@dealer/db/site-store';
import { carChangeFromArgs, runPlatformCli, UsageError } from './platform-cli';
import { carsIndexUid, searchKeyForSite } from './search/site-search';
import { createTestPlatform, testAdminKey, testSearchAdminKey, testSearchKeySecret, type TestPlatform } from './testing/test-platform';

const day = 86_400;
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('what a change does to a car', () => {
  const car = { id: 1, status: 'in_stock', sold: false, sold_date_timestamp: null, tag: null, price: 30000 } as unknown as Car;
  const now = 1_748_822_400;

  it('marks a car sold by either its status or its sold flag, and stamps the sold date now unless given', () => {
    expect(applyCarChange(car, { status: 'sold' }, now)).toMatchObject({ status: 'sold', sold: true, sold_date_timestamp: now });
    expect(applyCarChange(car, { sold: true }, now)).toMatchObject({ status: 'sold', sold: true, sold_date_timestamp: now });
    expect(applyCarChange(car, { sold: true, sold_date_timestamp: now - day }, now)).toMatchObject({ sold_date_timestamp: now - day });
  });

  it('takes a car back into stock without its sold date', () => {
    const sold = applyCarChange(car, { sold: true }, now);
    expect(applyCarChange(sold, { sold: false }, now)).toMatchObject({ status: 'in_stock', sold: false, sold_date_timestamp: null });
    expect(applyCarChange(sold, { status: 'coming_soon' }, now)).toMatchObject({
      status: 'coming_soon',
      sold: false,
      sold_date_timestamp: null,
    });
  });

  it('refuses a change that contradicts itself', () => {
    expect(() => applyCarChange(car, { status: 'in_stock', sold: true }, now)).toThrow(CarChangeConflict);
    expect(applyCarChange(car, { status: 'sold', sold: true }, now)).toMatchObject({ status: 'sold', sold: true });
  });

  it('clears the tag on an empty one and leaves the rest alone', () => {
    const tagged = applyCarChange(car, { tag: 'Special' }, now);
    expect(tagged).toMatchObject({ tag: 'Special', price: 30000, status: 'in_stock' });
    expect(applyCarChange(tagged, { tag: '' }, now).tag).toBeNull();
  });

  it('reads key=value words the CLI is given', () => {
    expect(
      carChangeFromArgs(['price=28,990', 'sold=true', 'tag=Test Drive Only', 'before_price=null', 'sold_date_timestamp=now'], 123),
    ).toEqual({
      price: 28990,
      sold: true,
      tag: 'Test Drive Only',
      before_price: null,
      sold_date_timestamp: 123,
    });
    expect(carChangeFromArgs(['reserved=yes'])).toEqual({ reserved: 'yes' });
    expect(() => carChangeFromArgs(['price'])).toThrow(UsageError);
  });
});

describe('PATCH /api/admin/cars/:id and `platform car`', () => {
  let platform: TestPlatform;
  let harbourId: number;
  let cars: Car[];
  beforeAll(async () => {
    platform = await createTestPlatform();
    harbourId = (await findSiteIdBySlug(platform.ctx.db, 'harbour-used-cars'))!;
    cars = (await listSiteCars(platform.ctx.db, harbourId)).filter(
      (car) => isListedInSearch(car, 3, nowSeconds()) && car.status === 'in_stock' && !car.sold,
    );
  });
  afterAll(async () => {
    await platform?.close();
  });

  const patch = (id: number | string, payload: unknown, authorization: string | null = `Bearer ${testAdminKey}`) =>
    platform.app.inject({
      method: 'PATCH',
      url: `/api/admin/cars/${id}`,
      headers: authorization ? { authorization } : {},
      payload: payload as object,
    });
  const searchHarbour = async (filter: string) => {
    const res = await platform.app.inject({
      method: 'POST',
      url: `/meili/indexes/${carsIndexUid}/search`,
      headers: { authorization: `Bearer ${searchKeyForSite(harbourId, testSearchKeySecret)}` },
      payload: { filter },
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ hits: Car[] }>().hits;
  };

  it('needs the platform admin key; the search admin key is not it', async () => {
    expect((await patch(cars[0]!.id, { price: 1 }, null)).statusCode).toBe(401);
    expect((await patch(cars[0]!.id, { price: 1 }, `Bearer ${testSearchAdminKey}`)).statusCode).toBe(401);
    expect((await patch(cars[0]!.id, { price: 1 }, `Bearer ${searchKeyForSite(harbourId, testSearchKeySecret)}`)).statusCode).toBe(401);
    expect((await findCarById(platform.ctx.db, cars[0]!.id))!.car.price).not.toBe(1);
  });

  it('names each field it cannot take', async () => {
    const res = await patch(cars[0]!.id, { price: 'cheap', status: 'gone', reserved: 'yes', vin: 'X', sold_date_timestamp: 1.5 });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ message: string; fields: Record<string, string> }>();
    expect(body.message).toEqual(expect.any(String));
    expect(body.fields).toEqual({
      price: 'price must be a number',
      status: 'status must be one of in_stock, coming_soon, sold',
      reserved: 'reserved must be true or false',
      vin: 'vin is not something that can be changed on a car',
      sold_date_timestamp: 'sold_date_timestamp must be a whole number of seconds',
    });
  });

  it('says what is missing from an empty change, and what contradicts itself', async () => {
    const empty = await patch(cars[0]!.id, {});
    expect(empty.statusCode).toBe(400);
    expect(Object.values(empty.json<{ fields: Record<string, string> }>().fields)[0]).toMatch(
      /^Give at least one of: price, before_price, status/,
    );
    const conflict = await patch(cars[0]!.id, { status: 'in_stock', sold: true });
    expect(conflict.statusCode).toBe(400);
    expect(conflict.json<{ fields: Record<string, string> }>().fields).toHaveProperty('sold');
  });

  it('answers 404 for a car that does not exist and 400 for an id that is not one', async () => {
    expect((await patch(987_654, { price: 1 })).statusCode).toBe(404);
    expect((await patch('abc', { price: 1 })).json()).toMatchObject({ fields: { id: expect.any(String) } });
  });

  it('saves the change in the store and in search, and answers with the car', async () => {
    const car = cars[0]!;
    const res = await patch(car.id, { price: 19990, tag: 'Special' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toMatchObject({ car: { id: car.id, price: 19990, tag: 'Special' }, searchUpdated: true });
    expect((await findCarById(platform.ctx.db, car.id))!.car).toMatchObject({ price: 19990, tag: 'Special' });
    expect((await searchHarbour(`id = ${car.id}`))[0]).toMatchObject({ price: 19990, tag: 'Special' });
  });

  it('still saves the change when search cannot take it, and says so', async () => {
    const car = cars[1]!;
    const indexer = platform.ctx.indexer;
    const failing = Object.create(indexer) as typeof indexer;
    failing.indexCar = async () => {
      throw new Error('search is down');
    };
    platform.ctx.indexer = failing;
    try {
      const res = await patch(car.id, { price: 17990 });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ car: { price: 17990 }, searchUpdated: false });
      expect((await findCarById(platform.ctx.db, car.id))!.car.price).toBe(17990);
    } finally {
      platform.ctx.indexer = indexer;
    }
  });

  describe('from the command line', () => {
    const saved = { ...process.env };
    afterEach(() => {
      process.env = { ...saved };
    });
    const cli = async (args: string[]) => {
      const lines: string[] = [];
      await runPlatformCli(args, (line) => lines.push(line));
      return lines;
    };
    const useTestPlatformEnv = (port: number) => {
      Object.assign(process.env, {
        DATA_DIR: platform.ctx.config.dataDir,
        HOST: '127.0.0.1',
        PORT: String(port),
        SEARCH_ADMIN_KEY: testSearchAdminKey,
        LOG_LEVEL: 'silent',
      });
      delete process.env.DATABASE_URL;
      delete process.env.MEILISEARCH_URL;
    };

    it("changes a car by site and slug and pushes it to the running platform's search", async () => {
      await platform.app.listen({ port: 0, host: '127.0.0.1' });
      useTestPlatformEnv((platform.app.server.address() as AddressInfo).port);
      const car = cars[2]!;
      const lines = await cli(['car', 'harbour-used-cars', car.slug, 'status=sold', `sold_date_timestamp=${nowSeconds() - 30 * day}`]);
      expect(lines[0]).toContain(`${car.slug} on harbour-used-cars`);
      expect(lines[1]).toMatch(/^Search updated/);
      expect(await searchHarbour(`id = ${car.id}`)).toEqual([]);

      const reserved = cars[3]!;
      await cli(['car', 'harbour-used-cars', reserved.slug, 'reserved=true', 'price=25990']);
      expect((await searchHarbour(`id = ${reserved.id}`))[0]).toMatchObject({ reserved: true, price: 25990 });
    });

    it('refuses a bad change, an unknown car or site, with the reason', async () => {
      useTestPlatformEnv(1);
      await expect(cli(['car', 'harbour-used-cars', cars[4]!.slug, 'price=abc'])).rejects.toThrow('price: price must be a number');
      await expect(cli(['car', 'harbour-used-cars', cars[4]!.slug, 'vin=X'])).rejects.toThrow(/vin: not something that can be changed/);
      await expect(cli(['car', 'harbour-used-cars', 'no-such-car', 'price=1'])).rejects.toThrow(
        'No car "no-such-car" on harbour-used-cars.',
      );
      await expect(cli(['car', 'nobody', cars[4]!.slug, 'price=1'])).rejects.toThrow(UsageError);
      await expect(cli(['car', 'harbour-used-cars', cars[4]!.slug])).rejects.toThrow(UsageError);
    });

    it('keeps the change when the platform is not running, and says search picks it up at its next start', async () => {
      useTestPlatformEnv(1);
      const car = cars[4]!;
      const lines = await cli(['car', 'harbour-used-cars', car.slug, 'price=15990']);
      expect(lines[1]).toMatch(/not reachable: the platform indexes the change when it next starts/);
      expect((await findCarById(platform.ctx.db, car.id))!.car.price).toBe(15990);
    });
  });
});
