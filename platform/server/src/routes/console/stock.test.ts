import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Car } from '@dealer/contracts/car';
import { findCarById, updateCar } from '@dealer/db/car-store';
import { findSiteIdBySlug } from '@dealer/db/site-store';
import { carsIndexUid, searchKeyForSite } from '../../search/site-search';
import { consoleRequest, consoleSignIn } from '../../testing/console-requests';
import { createTestPlatform, siteRequest, testSearchKeySecret, type TestPlatform } from '../../testing/test-platform';

const slug = 'harbour-used-cars';
type Answer = { car: { id: number; slug: string; name: string; price: number; status: string; photos: string[] }; page: string };

describe('a site’s stock in the dealer console', () => {
  let platform: TestPlatform;
  let admin: string;
  let staff: string;
  let siteId: number;
  let locationId: number;
  beforeAll(async () => {
    platform = await createTestPlatform();
    admin = await consoleSignIn(platform.app, platform.ctx.db, `site-admin@${slug}.localhost`);
    staff = await consoleSignIn(platform.app, platform.ctx.db, `staff@${slug}.localhost`);
    siteId = (await findSiteIdBySlug(platform.ctx.db, slug))!;
    locationId = (await platform.ctx.sites.forId(siteId))!.locations[0]!.id;
  }, 60_000);
  afterAll(async () => platform?.close());

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', path: string, payload?: object | Buffer, cookie = admin, headers = {}) =>
    consoleRequest(platform.app, method, `/api/console/sites/${slug}/stock${path}`, { cookie, payload, headers });
  const searchFor = async (q: string) => {
    const res = await platform.app.inject({
      method: 'POST',
      url: `/meili/indexes/${carsIndexUid}/search`,
      headers: { authorization: `Bearer ${searchKeyForSite(siteId, testSearchKeySecret)}` },
      payload: { q },
    });
    return res.json<{ hits: Car[] }>().hits;
  };
  const newCar = {
    make: 'Toyota',
    model: 'HiLux',
    badge: 'SR5',
    year: 2021,
    km: 48_200,
    price: 52_990,
    car_type: 'used',
    stocknum: 'HUC-90001',
    vin: 'MR0FZ29G301234567',
    location_id: 0,
    simple_body: 'Ute',
    simple_fuel: 'Diesel',
    colour: 'Glacier White',
  };
  let added: Answer;

  it('adds a car that search finds and whose page shows it at once, and counts it in the site’s stock', async () => {
    const before = (await siteRequest(platform.app, slug, 'GET', '/api/site')).json<{ stock: { count: number } }>().stock.count;
    const res = await call('POST', '', { ...newCar, location_id: locationId });
    expect(res.statusCode, res.body).toBe(201);
    added = res.json<Answer>();
    expect(added.car).toMatchObject({ name: '2021 Toyota HiLux SR5', price: 52_990, status: 'in_stock' });
    expect(added.page).toBe(`https://www.harbourusedcars.com.au/cars/${added.car.slug}`);
    expect((await searchFor('HUC-90001')).map((hit) => hit.id)).toEqual([added.car.id]);
    const page = await siteRequest(platform.app, slug, 'GET', `/cars/${added.car.slug}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('2021 Toyota HiLux SR5');
    expect((await siteRequest(platform.app, slug, 'GET', '/api/site')).json<{ stock: { count: number } }>().stock.count).toBe(before + 1);
  });

  it('changes the price and the page and search follow; marks it sold, then hides it from the website', async () => {
    const priced = await call('PATCH', `/${added.car.id}`, { price: 49_990 });
    expect(priced.statusCode, priced.body).toBe(200);
    expect((await searchFor('HUC-90001'))[0]!.price).toBe(49_990);
    expect((await siteRequest(platform.app, slug, 'GET', `/cars/${added.car.slug}`)).body).toContain('49,990');
    const sold = await call('PATCH', `/${added.car.id}`, { status: 'sold' });
    expect(sold.json<Answer>().car.status).toBe('sold');
    const [hit] = await searchFor('HUC-90001');
    expect([hit?.sold, typeof hit?.sold_date_timestamp]).toEqual([true, 'number']);
    await call('PATCH', `/${added.car.id}`, { status: 'in_stock', show_on_dealer_website: false });
    expect(await searchFor('HUC-90001')).toEqual([]);
    await call('PATCH', `/${added.car.id}`, { show_on_dealer_website: true });
  });

  it('adds photos, puts the second first and removes one; the page and its image endpoint show them', async () => {
    const photo = (colour: { r: number; g: number; b: number }) =>
      sharp({ create: { width: 1600, height: 1200, channels: 3, background: colour } })
        .jpeg()
        .toBuffer();
    let answer: Answer | undefined;
    for (const colour of [
      { r: 200, g: 0, b: 0 },
      { r: 0, g: 200, b: 0 },
      { r: 0, g: 0, b: 200 },
    ]) {
      const res = await call('PUT', `/${added.car.id}/photos`, await photo(colour), admin, { 'content-type': 'image/jpeg' });
      expect(res.statusCode, res.body).toBe(200);
      answer = res.json<Answer>();
    }
    const [red, green, blue] = answer!.car.photos;
    expect(answer!.car.photos).toHaveLength(3);
    const reordered = await call('PATCH', `/${added.car.id}`, { photos: [green, red] });
    expect(reordered.json<Answer>().car.photos).toEqual([green, red]);
    const [hit] = await searchFor('HUC-90001');
    expect([hit?.primary_image_url, hit?.photos_count]).toEqual([green, 2]);
    const served = await siteRequest(platform.app, slug, 'GET', `${green}?w=320&q=75`);
    expect(served.statusCode).toBe(200);
    expect((await sharp(served.rawPayload).metadata()).width).toBe(320);
    expect(blue).toMatch(/^\/img\/car\/[0-9a-f]{32}\.jpg$/);
  });

  it('refuses, beside each field, a stock number another car has, a bad VIN, another site’s location, a year too old and a photo it did not take', async () => {
    const res = await call('POST', '', { ...newCar, vin: 'ABC', location_id: 999_999, year: 1800 });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ fields: object }>().fields).toEqual({
      vin: 'A VIN is 17 letters and digits (no I, O or Q).',
      year: 'A year from 1900.',
    });
    const elsewhere = await call('POST', '', { ...newCar, stocknum: 'HUC-90002', vin: '', location_id: 999_999 });
    expect(elsewhere.json<{ fields: object }>().fields).toEqual({ location_id: 'Choose one of the site’s locations.' });
    const twice = await call('POST', '', { ...newCar, vin: '', location_id: locationId });
    expect(twice.json<{ fields: object }>().fields).toEqual({ stocknum: 'Another car has this stock number.' });
    const stray = await call('PATCH', `/${added.car.id}`, { photos: ['https://evil.example.com/x.jpg'] });
    expect(stray.json<{ fields: object }>().fields).toEqual({ photos: 'A photo must be one uploaded for this car.' });
    const notPhoto = await call('PUT', `/${added.car.id}/photos`, Buffer.from('<svg/>'), admin, { 'content-type': 'image/png' });
    expect(notPhoto.statusCode).toBe(400);
  });

  it('keeps a deposit taken while a photo was being processed, and refuses another car’s VIN on an edit', async () => {
    const big = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: { r: 90, g: 90, b: 90 } } })
      .jpeg()
      .toBuffer();
    const upload = call('PUT', `/${added.car.id}/photos`, big, admin, { 'content-type': 'image/jpeg' });
    // A shopper's deposit marks the car reserved while the photo is processed.
    await updateCar(platform.ctx.db, added.car.id, { reserved: true });
    expect((await upload).statusCode).toBe(200);
    const stored = (await findCarById(platform.ctx.db, added.car.id))!.car;
    expect([stored.reserved, stored.images.length]).toEqual([true, 3]);
    await updateCar(platform.ctx.db, added.car.id, { reserved: false });

    const other = (await call('POST', '', { ...newCar, stocknum: 'HUC-90003', vin: '', location_id: locationId })).json<Answer>();
    const res = await call('PATCH', `/${other.car.id}`, { vin: newCar.vin });
    expect(res.json<{ fields: object }>().fields).toEqual({ vin: 'Another car has this VIN.' });
  });

  it('gives a car whose page address another car has its id on the end', async () => {
    const first = (await call('POST', '', { ...newCar, stocknum: 'Z-1', vin: '', location_id: locationId })).json<Answer>();
    const second = await call('POST', '', { ...newCar, stocknum: 'z.1', vin: '', location_id: locationId });
    expect(second.statusCode, second.body).toBe(201);
    const { car } = second.json<Answer>();
    expect(car.slug).toBe(`${first.car.slug}-${car.id}`);
    expect((await siteRequest(platform.app, slug, 'GET', `/cars/${car.slug}`)).statusCode).toBe(200);
  });

  it('lets staff look at the stock but not change it', async () => {
    const list = await call('GET', '?q=hilux', undefined, staff);
    expect(list.statusCode).toBe(200);
    expect(list.json<{ cars: { id: number }[] }>().cars.map((car) => car.id)).toContain(added.car.id);
    expect((await call('PATCH', `/${added.car.id}`, { price: 1 }, staff)).statusCode).toBe(403);
    expect((await call('POST', '', { ...newCar, stocknum: 'X1', location_id: locationId }, staff)).statusCode).toBe(403);
  });

  it('finds cars by stock number, status and whether the website shows them, a page at a time', async () => {
    const found = await call('GET', '?q=HUC-90001');
    expect(found.json<{ cars: { stocknum: string }[] }>().cars.map((car) => car.stocknum)).toEqual(['HUC-90001']);
    const first = await call('GET', '?status=in_stock&shown=yes&limit=5');
    const page = first.json<{ cars: { status: string; shown: boolean }[]; next_cursor: string }>();
    expect(page.cars).toHaveLength(5);
    expect(page.cars.every((car) => car.status === 'in_stock' && car.shown)).toBe(true);
    const second = await call('GET', `?status=in_stock&shown=yes&limit=5&cursor=${page.next_cursor}`);
    expect(second.json<{ cars: unknown[] }>().cars).toHaveLength(5);
  });
});
