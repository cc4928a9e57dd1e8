import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Car } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';
import { insertCars } from '@dealer/db/car-store';
import { carsIndexUid, searchKeyForSite } from './search/site-search';
import { reindexSite } from './search/indexer';
import { siteRequest, testAdminKey, testSearchAdminKey, testSearchKeySecret, type TestPlatform } from './testing/test-platform';
import { aListedCar, closeAppPlatforms, listedCars, nowSeconds, platformOn, siteBySlug } from './testing/app-platform';

// The platform server, what it answers besides a dealer's pages, on SQLite: the dealer's admin
// access, a shopper's enquiries, and the search a site's browser key may make. The sites kept apart,
// their config and pages are in app.sites-and-pages.test.ts.

afterAll(closeAppPlatforms);

const day = 86_400;

describe('the platform server', () => {
  let platform: TestPlatform;
  let metro: SiteConfig;
  let harbour: SiteConfig;
  beforeAll(async () => {
    platform = await platformOn('sqlite');
    metro = await siteBySlug(platform, 'metro-motor-group');
    harbour = await siteBySlug(platform, 'harbour-used-cars');
  });

  describe('admin access', () => {
    const leadsUrl = '/api/admin/leads?site=metro-motor-group';

    it("refuses the dealer's leads without the admin key", async () => {
      const res = await platform.app.inject({ url: leadsUrl });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
    });

    it("refuses the dealer's leads with a wrong admin key", async () => {
      for (const authorization of [
        'Bearer wrong-admin-key-0123456789',
        `Bearer ${testAdminKey}x`,
        testAdminKey.slice(0, -1),
        'Basic dGVzdDp0ZXN0',
      ]) {
        expect((await platform.app.inject({ url: leadsUrl, headers: { authorization } })).statusCode, authorization).toBe(401);
      }
    });

    it("gives the dealer's leads with the admin key", async () => {
      const res = await platform.app.inject({ url: leadsUrl, headers: { authorization: `Bearer ${testAdminKey}` } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(Array.isArray(res.json<{ leads: unknown[] }>().leads)).toBe(true);
    });

    it('answers 404 for leads of a dealer that does not exist and 400 without a dealer', async () => {
      const auth = { authorization: `Bearer ${testAdminKey}` };
      expect((await platform.app.inject({ url: '/api/admin/leads?site=nobody', headers: auth })).statusCode).toBe(404);
      expect((await platform.app.inject({ url: '/api/admin/leads', headers: auth })).statusCode).toBe(400);
    });
  });

  describe('enquiries', () => {
    const lead = { category: 'General Enquiry', name: 'Jane', email: 'jane@example.com', phone: '0411222333', message: 'Hi' };
    const adminLeads = async (slug: string) =>
      (await platform.app.inject({ url: `/api/admin/leads?site=${slug}`, headers: { authorization: `Bearer ${testAdminKey}` } })).json<{
        leads: { id: number; site_id: number; category: string; payload: Record<string, unknown> }[];
      }>().leads;

    it('saves an enquiry and shows it to that dealer only', async () => {
      const res = await siteRequest(platform.app, 'metro-motor-group', 'POST', '/api/leads', { payload: { lead } });
      expect(res.statusCode).toBe(201);
      const body = res.json<{ id: number; lead_id: number; update_token: string }>();
      expect(body).toEqual({ id: expect.any(Number), lead_id: body.id, update_token: expect.any(String) });

      const saved = (await adminLeads('metro-motor-group')).find((entry) => entry.id === body.id);
      expect(saved).toMatchObject({ site_id: metro.id, category: 'General Enquiry' });
      expect(saved!.payload).toMatchObject({
        ...lead,
        website_slug: 'metro-motor-group',
        source: 'Website',
        dealership_slug: metro.dealerships[0]!.slug,
      });
      expect((await adminLeads('harbour-used-cars')).map((entry) => entry.id)).not.toContain(body.id);
    });

    it('keeps an enquiry sent twice with the same Idempotency-Key as one lead', async () => {
      const send = () =>
        siteRequest(platform.app, 'metro-motor-group', 'POST', '/api/leads', {
          payload: { lead: { ...lead, name: 'Twice' } },
          headers: { 'idempotency-key': 'app-test-twice' },
        });
      const first = await send();
      const second = await send();
      expect(first.statusCode).toBe(201);
      expect(second.statusCode).toBe(200);
      expect(second.json()).toEqual(first.json());
      const twice = (await adminLeads('metro-motor-group')).filter((entry) => entry.payload.name === 'Twice');
      expect(twice).toHaveLength(1);
    });

    it('names every missing field of an enquiry', async () => {
      const res = await siteRequest(platform.app, 'metro-motor-group', 'POST', '/api/leads', { payload: { lead: { message: 'Hi' } } });
      expect(res.statusCode).toBe(400);
      const body = res.json<{ message: string; fields: Record<string, string> }>();
      expect(body.message).toEqual(expect.any(String));
      expect(Object.keys(body.fields).sort()).toEqual(['category', 'email', 'name', 'phone']);
    });

    it('gives the SPEC message for a required field left empty', async () => {
      const res = await siteRequest(platform.app, 'metro-motor-group', 'POST', '/api/leads', {
        payload: { lead: { ...lead, name: '', phone: '' } },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ fields: Record<string, string> }>().fields).toEqual({
        name: '*This is a required field.',
        phone: '*This is a required field.',
      });
    });

    // SPEC §5: "Every field is required by default, with the message '*This is a required field.'".
    // A field left out of the body gets zod's "Invalid input: expected string, received undefined" instead.
    it('gives the SPEC message for a required field left out of the enquiry', async () => {
      const res = await siteRequest(platform.app, 'metro-motor-group', 'POST', '/api/leads', {
        payload: { lead: { ...lead, name: undefined } },
      });
      expect(res.json<{ fields: Record<string, string> }>().fields).toEqual({ name: '*This is a required field.' });
    });

    it('refuses an enquiry that is not wrapped in a lead object', async () => {
      const res = await siteRequest(platform.app, 'metro-motor-group', 'POST', '/api/leads', { payload: lead });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ fields: Record<string, string> }>().fields).toHaveProperty('lead');
    });

    it('records a remote failure the browser reports by beacon, for that dealer', async () => {
      const res = await siteRequest(platform.app, 'harbour-used-cars', 'POST', '/api/events', {
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ category: 'remote-error', url: '/cars/x', error_message: 'mf-vehicle did not load' }),
      });
      expect(res.statusCode).toBe(202);
      const events = await platform.app.inject({
        url: '/api/admin/events?site=harbour-used-cars&category=remote-error',
        headers: { authorization: `Bearer ${testAdminKey}` },
      });
      expect(events.json<{ events: { error_message: string }[] }>().events.map((event) => event.error_message)).toContain(
        'mf-vehicle did not load',
      );
      const metroEvents = await platform.app.inject({
        url: '/api/admin/events?site=metro-motor-group',
        headers: { authorization: `Bearer ${testAdminKey}` },
      });
      expect(metroEvents.json<{ events: { error_message: string }[] }>().events.map((event) => event.error_message)).not.toContain(
        'mf-vehicle did not load',
      );
    });
  });

  describe('search', () => {
    type SearchResult = {
      hits: (Car & { site_id: number })[];
      estimatedTotalHits: number;
      facetDistribution?: Record<string, Record<string, number>>;
    };
    const search = (
      queries: Record<string, unknown>[],
      authorization: string | null = `Bearer ${searchKeyForSite(1, testSearchKeySecret)}`,
    ) =>
      platform.app.inject({
        method: 'POST',
        url: '/meili/multi-search',
        headers: { host: 'metro-motor-group.localhost:3000', ...(authorization ? { authorization } : {}) },
        payload: { queries },
      });
    const results = async (queries: Record<string, unknown>[]) => {
      const res = await search(queries);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ results: SearchResult[] }>().results;
    };

    it('asks for a key when there is none', async () => {
      const res = await search([{ indexUid: carsIndexUid }], null);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'missing_authorization_header', type: 'auth' });
    });

    it('refuses a made-up key and a key signed for the site with another secret', async () => {
      for (const key of ['not-a-key', `pk_site_1_${'a'.repeat(32)}`, searchKeyForSite(1, 'some-other-secret-0123456789')]) {
        const res = await search([{ indexUid: carsIndexUid }], `Bearer ${key}`);
        expect(res.statusCode, key).toBe(403);
        expect(res.json()).toMatchObject({ code: 'invalid_api_key' });
      }
    });

    it("keeps the dealer's own filter in force when the browser filters on another site", async () => {
      const [toyotas] = await results([{ indexUid: carsIndexUid, filter: `site_id = ${harbour.id} OR make = Toyota`, limit: 5000 }]);
      const expected = (await listedCars(platform, metro)).filter((car) => car.make === 'Toyota');
      expect(expected.length).toBeGreaterThan(0);
      expect(toyotas!.hits.map((hit) => hit.id).sort()).toEqual(expected.map((car) => car.id).sort());
    });

    it('explains a filter it cannot read, naming the query', async () => {
      const res = await search([{ indexUid: carsIndexUid }, { indexUid: carsIndexUid, filter: 'make Toyota' }]);
      expect(res.statusCode).toBe(400);
      const body = res.json<{ code: string; message: string }>();
      expect(body.code).toBe('invalid_search_filter');
      expect(body.message.startsWith('Inside `.queries[1]`:')).toBe(true);
      const first = await search([{ indexUid: carsIndexUid, filter: 'price >' }]);
      expect(first.json<{ message: string }>().message.startsWith('Inside `.queries[0]`:')).toBe(true);
    });

    it('refuses a filter on an attribute that is not filterable', async () => {
      const res = await search([{ indexUid: carsIndexUid, filter: 'vin = X' }]);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_search_filter' });
    });

    it('answers 400 for an index that does not exist, inside a multi-search (a site key is refused any index but cars)', async () => {
      const res = await search([{ indexUid: 'trucks' }], `Bearer ${testSearchAdminKey}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'index_not_found' });
      expect(res.json<{ message: string }>().message.startsWith('Inside `.queries[0]`:')).toBe(true);
      expect((await search([{ indexUid: 'trucks' }])).json()).toMatchObject({ code: 'invalid_api_key' });
    });

    it('also scopes the single-index search to the dealer', async () => {
      const res = await platform.app.inject({
        method: 'POST',
        url: `/meili/indexes/${carsIndexUid}/search`,
        headers: { host: 'harbour-used-cars.localhost:3000', authorization: `Bearer ${searchKeyForSite(harbour.id, testSearchKeySecret)}` },
        payload: { filter: `site_id = ${metro.id} OR car_type = used`, limit: 5000 },
      });
      expect(res.statusCode).toBe(200);
      const body = res.json<SearchResult>();
      expect(body.hits.length).toBe((await listedCars(platform, harbour)).length);
      expect(body.hits.every((hit) => hit.site_id === harbour.id)).toBe(true);
    });

    describe('sold cars', () => {
      const soldYesterdayId = 990_001;
      const soldLongAgoId = 990_002;
      beforeAll(async () => {
        const template = await aListedCar(platform, 'metro-motor-group');
        const sold = (id: number, daysAgo: number): Car => ({
          ...template,
          id,
          slug: `test-sold-${id}`,
          stocknum: `TS${id}`,
          status: 'sold',
          sold: true,
          sold_date_timestamp: nowSeconds() - daysAgo * day,
        });
        expect(metro.include_sold_cars_days).toBeLessThan(10);
        await insertCars(platform.ctx.db, metro.id, [sold(soldYesterdayId, 1), sold(soldLongAgoId, 10)]);
        await reindexSite(platform.ctx.search, platform.ctx.db, metro.id);
      });

      it('lists a car sold yesterday but not one sold before the sold-cars window', async () => {
        const [found] = await results([{ indexUid: carsIndexUid, filter: `id IN [${soldYesterdayId}, ${soldLongAgoId}]` }]);
        expect(found!.hits.map((hit) => hit.id)).toEqual([soldYesterdayId]);
        expect((await siteRequest(platform.app, 'metro-motor-group', 'GET', `/api/cars/test-sold-${soldYesterdayId}`)).statusCode).toBe(
          200,
        );
        expect((await siteRequest(platform.app, 'metro-motor-group', 'GET', `/api/cars/test-sold-${soldLongAgoId}`)).statusCode).toBe(404);
      });
    });

    // A car the feed flags sold while its status still says in_stock is "gone" for the detail page
    // and /api/cars (isListedInSearch: "either one means the car is gone"), but siteBaseFilter only
    // looks at `status`, so search keeps listing a car whose page answers 404.
    it('hides a car the feed flags as sold long ago even when its status still says in stock', async () => {
      const template = await aListedCar(platform, 'metro-motor-group');
      const flagged: Car = {
        ...template,
        id: 990_101,
        slug: 'test-flagged-sold',
        stocknum: 'TS990101',
        status: 'in_stock',
        sold: true,
        sold_date_timestamp: nowSeconds() - 30 * day,
      };
      await insertCars(platform.ctx.db, metro.id, [flagged]);
      await reindexSite(platform.ctx.search, platform.ctx.db, metro.id);
      try {
        expect((await siteRequest(platform.app, 'metro-motor-group', 'GET', `/api/cars/${flagged.slug}`)).statusCode).toBe(404);
        const [found] = await results([{ indexUid: carsIndexUid, filter: `id = ${flagged.id}` }]);
        expect(found!.estimatedTotalHits).toBe(0);
      } finally {
        await platform.ctx.db.deleteFrom('cars').where('id', '=', flagged.id).execute();
        platform.ctx.search.index(carsIndexUid)!.remove([flagged.id]);
      }
    });

    it('counts makes over every matching car, not just the page of hits', async () => {
      const listed = await listedCars(platform, metro);
      const [page, used] = await results([
        { indexUid: carsIndexUid, facets: ['make'], limit: 1 },
        { indexUid: carsIndexUid, facets: ['make'], filter: ['car_type = used'], limit: 1 },
      ]);
      const countMakes = (cars: Car[]) =>
        cars.reduce<Record<string, number>>((counts, car) => ({ ...counts, [car.make]: (counts[car.make] ?? 0) + 1 }), {});
      expect(page!.hits).toHaveLength(1);
      expect(page!.estimatedTotalHits).toBe(listed.length);
      expect(page!.facetDistribution?.make).toEqual(countMakes(listed));
      expect(used!.facetDistribution?.make).toEqual(countMakes(listed.filter((car) => car.car_type === 'used')));
    });
  });
});
