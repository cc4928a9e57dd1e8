import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { findSiteIdBySlug } from '@dealer/db/site-store';
import { createTestPlatform, testSearchAdminKey, testSearchKeySecret, type TestPlatform } from '../testing/test-platform';
import { carsIndexUid, searchKeyForSite } from './site-search';

/**
 * The bounds on what one anonymous caller may make the search endpoint do: searches a minute per
 * address, queries and hits per multi-search, the length of highlight tags and crop markers and
 * of a facet query. Within them, Meilisearch's answers; beyond them, a 4xx in its shape.
 */

const owners = [
  {
    id: 1,
    name: 'Ana',
    doggos: [
      { name: 'Rex', age: 2 },
      { name: 'Fido', age: 9 },
    ],
  },
  { id: 2, name: 'Ben', doggos: [{ name: 'Bo', age: 2 }] },
  { id: 3, name: 'Cy', doggos: [] },
];

describe('the search endpoint under a caller asking too much', () => {
  let platform: TestPlatform;
  let metroKey: string;

  beforeAll(async () => {
    platform = await createTestPlatform({ env: { SEARCH_RATE_LIMIT: '5' } });
    const metroId = (await findSiteIdBySlug(platform.ctx.db, 'metro-motor-group'))!;
    metroKey = searchKeyForSite(metroId, testSearchKeySecret);
    await call('PATCH', '/meili/indexes/owners/settings', { filterableAttributes: ['doggos'] });
    await call('POST', '/meili/indexes/owners/documents', owners);
    await waitForTasks();
  });
  afterAll(async () => {
    await platform?.close();
  });

  const call = (method: InjectOptions['method'], url: string, payload?: unknown, key = testSearchAdminKey, from?: string) =>
    platform.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${key}`, ...(from ? { 'x-forwarded-for': from } : {}) },
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
    });
  const errorOf = (res: { statusCode: number; json<T>(): T }) => ({
    status: res.statusCode,
    ...res.json<{ code: string; message: string; type: string }>(),
  });
  async function waitForTasks() {
    for (let i = 0; i < 100; i += 1) {
      const { results } = (await call('GET', '/meili/tasks?statuses=enqueued,processing')).json<{ results: unknown[] }>();
      if (results.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('tasks did not finish');
  }

  describe("searches a minute from one address, with a site's public key", () => {
    const siteSearch = (from: string) => call('POST', `/meili/indexes/${carsIndexUid}/search`, { q: '', limit: 1 }, metroKey, from);

    it('answers SEARCH_RATE_LIMIT searches, then 429 too_many_search_requests with Retry-After', async () => {
      for (let i = 0; i < 5; i += 1) expect((await siteSearch('203.0.113.10')).statusCode).toBe(200);
      const refused = await siteSearch('203.0.113.10');
      expect(errorOf(refused)).toMatchObject({
        status: 429,
        code: 'too_many_search_requests',
        type: 'system',
        message: expect.stringContaining('at most 5 a minute'),
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    });

    it('counts each address on its own, and one IPv6 /64 as one address', async () => {
      expect((await siteSearch('203.0.113.11')).statusCode).toBe(200);
      for (let i = 0; i < 5; i += 1) expect((await siteSearch(`2001:db8:1:2::${i + 1}`)).statusCode).toBe(200);
      expect((await siteSearch('2001:db8:1:2:ffff::9')).statusCode).toBe(429);
      expect((await siteSearch('2001:db8:1:3::1')).statusCode).toBe(200);
    });

    it("counts a multi-search by its queries, and never limits the search admin key (the indexer's)", async () => {
      const multi = (from: string) =>
        call(
          'POST',
          '/meili/multi-search',
          {
            queries: [
              { indexUid: carsIndexUid, limit: 1 },
              { indexUid: carsIndexUid, limit: 0, facets: ['make'] },
            ],
          },
          metroKey,
          from,
        );
      expect((await multi('203.0.113.12')).statusCode).toBe(200);
      expect((await multi('203.0.113.12')).statusCode).toBe(200);
      // Four of five are taken: a third multi-search's two queries do not fit.
      expect(errorOf(await multi('203.0.113.12'))).toMatchObject({ status: 429, code: 'too_many_search_requests' });
      expect((await siteSearch('203.0.113.12')).statusCode).toBe(429);
      for (let i = 0; i < 8; i += 1)
        expect(
          (await call('POST', `/meili/indexes/${carsIndexUid}/search`, { limit: 1 }, testSearchAdminKey, '203.0.113.12')).statusCode,
        ).toBe(200);
    });
  });

  describe('one multi-search', () => {
    const queries = (count: number, params: Record<string, unknown> = {}) =>
      Array.from({ length: count }, () => ({ indexUid: 'owners', ...params }));

    it('holds at most 100 queries', async () => {
      expect((await call('POST', '/meili/multi-search', { queries: queries(100, { limit: 1 }) })).statusCode).toBe(200);
      expect(errorOf(await call('POST', '/meili/multi-search', { queries: queries(101) }))).toMatchObject({
        status: 400,
        code: 'bad_request',
        message: expect.stringContaining('a multi-search holds at most 100 queries, but 101 were sent'),
      });
    });

    it('returns at most 5000 hits in all: what the queries find counts, not the limits they ask', async () => {
      // The owners index holds 3 documents: 100 queries asking 1000 each find 300.
      expect((await call('POST', '/meili/multi-search', { queries: queries(100, { limit: 1000 }) })).statusCode).toBe(200);
      await call(
        'POST',
        '/meili/indexes/many/documents',
        Array.from({ length: 1200 }, (_, i) => ({ id: i + 1, name: `Owner ${i + 1}` })),
      );
      await waitForTasks();
      const many = (count: number) => Array.from({ length: count }, () => ({ indexUid: 'many', limit: 1000 }));
      expect((await call('POST', '/meili/multi-search', { queries: many(5) })).statusCode).toBe(200);
      expect(errorOf(await call('POST', '/meili/multi-search', { queries: many(6) }))).toMatchObject({
        status: 400,
        code: 'bad_request',
        message: expect.stringContaining(
          'a multi-search returns at most 5000 hits in all, but its queries up to `.queries[5]` found 6000 hits',
        ),
      });
      expect((await call('POST', '/meili/multi-search', { queries: [...many(5), ...queries(90, { page: 0 })] })).statusCode).toBe(200);
    });

    it("counts a federated search's offset and limit once per query", async () => {
      expect(
        (await call('POST', '/meili/multi-search', { federation: { offset: 2400, limit: 100 }, queries: queries(2) })).statusCode,
      ).toBe(200);
      expect(
        errorOf(await call('POST', '/meili/multi-search', { federation: { offset: 2401, limit: 100 }, queries: queries(2) })),
      ).toMatchObject({
        status: 400,
        code: 'bad_request',
        message: expect.stringContaining('its 2 federated queries each fetch `federation.offset` + `federation.limit` = 2501 hits'),
      });
    });
  });

  describe('highlight tags and crop markers', () => {
    it.each([
      ['highlightPreTag', 'invalid_search_highlight_pre_tag'],
      ['highlightPostTag', 'invalid_search_highlight_post_tag'],
      ['cropMarker', 'invalid_search_crop_marker'],
    ])('takes a %s of 256 characters and refuses 257 with %s, by POST and by GET', async (name, code) => {
      const ok = await call('POST', '/meili/indexes/owners/search', {
        q: 'ana',
        attributesToHighlight: ['name'],
        attributesToCrop: ['name'],
        [name]: '<'.repeat(256),
      });
      expect(ok.statusCode).toBe(200);
      expect(errorOf(await call('POST', '/meili/indexes/owners/search', { q: 'ana', [name]: '<'.repeat(257) }))).toMatchObject({
        status: 400,
        code,
        message: expect.stringContaining('at most 256 characters'),
      });
      expect(errorOf(await call('GET', `/meili/indexes/owners/search?q=ana&${name}=${'x'.repeat(257)}`))).toMatchObject({
        status: 400,
        code,
      });
    });
  });

  describe('facet search', () => {
    const facetSearch = (body: unknown) => call('POST', '/meili/indexes/owners/facet-search', body);

    it("reaches a field inside a filterable parent's objects (string values, as Meilisearch searches only those)", async () => {
      const res = await facetSearch({ facetName: 'doggos.name' });
      expect(res.statusCode).toBe(200);
      expect(res.json<{ facetHits: unknown[] }>().facetHits).toEqual([
        { value: 'Bo', count: 1 },
        { value: 'Fido', count: 1 },
        { value: 'Rex', count: 1 },
      ]);
      expect((await facetSearch({ facetName: 'doggos.name', facetQuery: 're' })).json<{ facetHits: unknown[] }>().facetHits).toEqual([
        { value: 'Rex', count: 1 },
      ]);
      expect(
        (await facetSearch({ facetName: 'doggos.name', filter: 'doggos.age = 9' })).json<{ facetHits: unknown[] }>().facetHits,
      ).toEqual([
        { value: 'Fido', count: 1 },
        { value: 'Rex', count: 1 },
      ]);
      expect((await facetSearch({ facetName: 'doggos.age' })).json<{ facetHits: unknown[] }>().facetHits).toEqual([]);
    });

    it('finds nothing for a facet query longer than any value can be, without counting values', async () => {
      const res = await facetSearch({ facetName: 'doggos.name', facetQuery: 'r'.repeat(513) });
      expect(res.statusCode).toBe(200);
      expect(res.json<{ facetHits: unknown[] }>().facetHits).toEqual([]);
    });
  });
});
