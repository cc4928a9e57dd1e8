import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Meilisearch } from 'meilisearch';
import type { Car } from '@dealer/contracts/car';
import type { TestPlatform } from '../testing/test-platform';
import { errorOf, meiliCaller, movies, openSearchContract } from '../testing/meili-search-contract';
import { carsIndexUid } from './site-search';
import { apiError } from '@dealer/testing/meili-api-error';

/**
 * Meilisearch's search contract, answered by the embedded engine: multi-search, federated search
 * and facet search, with Meilisearch's codes and words. Driven through the official client where
 * it has a method, raw HTTP for the exact error bodies. The search parameters themselves are in
 * meili-conformance.search-params.test.ts.
 */

describe('the Meilisearch search contract of the embedded engine', () => {
  let platform: TestPlatform;
  let admin: Meilisearch;
  let metroKey: string;
  let metroId: number;
  let metroListed: Car[];

  beforeAll(async () => {
    ({ platform, admin, metroKey, metroId, metroListed } = await openSearchContract());
  });
  afterAll(async () => {
    await platform?.close();
  });

  const call = meiliCaller(() => platform);
  const multiSearch = (body: unknown, key?: string) => call('POST', '/meili/multi-search', body, key);

  // -------------------------------------------------------------------------------------------
  describe('multi-search', () => {
    it('answers an unknown index with 400 index_not_found, placed in its query (a single search stays 404)', async () => {
      const res = await multiSearch({ queries: [{ indexUid: 'movies' }, { indexUid: 'nope' }] });
      expect(errorOf(res)).toMatchObject({
        status: 400,
        code: 'index_not_found',
        message: 'Inside `.queries[1]`: Index `nope` not found.',
      });
      expect(await apiError(admin.multiSearch({ queries: [{ indexUid: 'nope' }] }))).toMatchObject({
        status: 400,
        code: 'index_not_found',
      });
      expect(await apiError(admin.index('nope').search(''))).toMatchObject({
        status: 404,
        code: 'index_not_found',
        message: 'Index `nope` not found.',
      });
    });

    it('reads each query as a search, with its path in the error', async () => {
      expect(errorOf(await multiSearch({ queries: [{ indexUid: 'movies', limit: '10' }] }))).toMatchObject({
        status: 400,
        code: 'invalid_search_limit',
        message: 'Invalid value type at `.queries[0].limit`: expected a positive integer, but found a string: `"10"`',
      });
      expect(errorOf(await multiSearch({ queries: [{ indexUid: 'movies', foo: 1 }] }))).toMatchObject({
        code: 'bad_request',
        message: expect.stringMatching(
          /^Unknown field `foo` inside `\.queries\[0\]`: expected one of `indexUid`, `q`, `vector`,.*`locales`, `federationOptions`$/,
        ) as unknown,
      });
      expect(errorOf(await multiSearch({ queries: [{ q: 'x' }] }))).toMatchObject({
        code: 'missing_index_uid',
        message: 'Missing field `indexUid` inside `.queries[0]`',
      });
      expect(errorOf(await multiSearch({ queries: [{ indexUid: 'movies', filter: 'genres = Drama AND' }] }))).toMatchObject({
        code: 'invalid_search_filter',
        message: expect.stringMatching(/^Inside `\.queries\[0\]`: /) as unknown,
      });
      expect(errorOf(await multiSearch({ requests: [] }))).toMatchObject({
        code: 'bad_request',
        message: 'Unknown field `requests`: expected one of `queries`, `federation`',
      });
      expect(errorOf(await multiSearch({}))).toMatchObject({ code: 'bad_request', message: 'Missing field `queries`' });
    });

    it('refuses federationOptions outside a federated search', async () => {
      expect(errorOf(await multiSearch({ queries: [{ indexUid: 'movies', federationOptions: { weight: 2 } }] }))).toMatchObject({
        status: 400,
        code: 'invalid_multi_search_federation_options',
        message:
          'Inside `.queries[0]`: Using `federationOptions` is not allowed in a non-federated search.\n - Hint: remove `federationOptions` from query #0 or add `federation` to the request.',
      });
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('federated multi-search', () => {
    type FederatedHit = {
      id: number;
      title: string;
      _federation: { indexUid: string; queriesPosition: number; weightedRankingScore: number };
    };

    it("merges the queries' hits into one list by weighted score, each saying where it came from", async () => {
      const result = await admin.multiSearch({
        federation: { limit: 5, offset: 1 },
        queries: [
          { indexUid: 'movies', filter: 'genres = Drama' },
          { indexUid: 'comics', federationOptions: { weight: 2 } },
        ],
      });
      const hits = result.hits as unknown as FederatedHit[];
      // Both comics (weight 2) rank before the dramas (weight 1); the first of all is skipped by the offset.
      expect(hits.map((hit) => [hit._federation.indexUid, hit.id])).toEqual([
        ['comics', 2],
        ['movies', 1],
        ['movies', 3],
        ['movies', 6],
      ]);
      expect(hits[0]!._federation).toEqual({ indexUid: 'comics', queriesPosition: 1, weightedRankingScore: 2 });
      expect(hits[1]!._federation).toEqual({ indexUid: 'movies', queriesPosition: 0, weightedRankingScore: 1 });
      expect(result).toMatchObject({ limit: 5, offset: 1, estimatedTotalHits: 5, processingTimeMs: expect.any(Number) });
      expect(hits.every((hit) => !('_rankingScore' in hit))).toBe(true);
    });

    it('lists a document two queries of one index find once, where it ranks best', async () => {
      const result = await admin.multiSearch({
        federation: {},
        queries: [
          { indexUid: 'movies', filter: 'year = 2015' },
          { indexUid: 'movies', filter: 'color = red', federationOptions: { weight: 3 } },
        ],
      });
      const hits = result.hits as unknown as FederatedHit[];
      expect(hits.map((hit) => [hit.id, hit._federation.queriesPosition])).toEqual([
        [1, 1],
        [4, 1],
        [5, 1],
      ]);
    });

    it('counts facets per index, or merged across indexes', async () => {
      const byIndex = await multiSearch({
        federation: { facetsByIndex: { movies: ['color'], comics: ['genres'] } },
        queries: [{ indexUid: 'movies', filter: 'year > 2014' }, { indexUid: 'comics' }],
      });
      expect(byIndex.statusCode, byIndex.body).toBe(200);
      expect(byIndex.json()).toMatchObject({
        facetsByIndex: {
          movies: { distribution: { color: { black: 1, green: 1, red: 3 } }, stats: {} },
          comics: { distribution: { genres: { Drama: 2, Fantasy: 1 } }, stats: {} },
        },
      });
      const merged = await multiSearch({
        federation: { facetsByIndex: { movies: ['genres'], comics: ['genres'] }, mergeFacets: { maxValuesPerFacet: 3 } },
        queries: [{ indexUid: 'movies', filter: 'genres = Drama' }, { indexUid: 'comics' }],
      });
      expect(merged.json<{ facetDistribution: unknown }>().facetDistribution).toEqual({ genres: { Adventure: 1, Drama: 5, Fantasy: 1 } });
      expect(merged.json()).not.toHaveProperty('facetsByIndex');
    });

    it("refuses pagination and facets on a query of a federated search, with Meilisearch's hints", async () => {
      expect(errorOf(await multiSearch({ federation: {}, queries: [{ indexUid: 'movies', limit: 5 }] }))).toMatchObject({
        status: 400,
        code: 'invalid_multi_search_query_pagination',
        message:
          'Inside `.queries[0]`: Using pagination options is not allowed in federated queries.\n - Hint: remove `limit` from query #0 or remove `federation` from the request\n - Hint: pass `federation.limit` and `federation.offset` for pagination in federated search',
      });
      expect(
        errorOf(await multiSearch({ federation: {}, queries: [{ indexUid: 'movies' }, { indexUid: 'comics', page: 2 }] })),
      ).toMatchObject({
        code: 'invalid_multi_search_query_pagination',
        message: expect.stringContaining('remove `page` from query #1') as unknown,
      });
      expect(errorOf(await multiSearch({ federation: {}, queries: [{ indexUid: 'movies', facets: ['genres'] }] }))).toMatchObject({
        code: 'invalid_multi_search_query_facets',
        message:
          'Inside `.queries[0]`: Using facet options is not allowed in federated queries.\n - Hint: remove `facets` from query #0 or remove `federation` from the request\n - Hint: pass `federation.facetsByIndex.movies: ["genres"]` for facets in federated search',
      });
      expect(errorOf(await multiSearch({ federation: { limit: 'all' }, queries: [] }))).toMatchObject({
        code: 'invalid_search_limit',
        message: 'Invalid value type at `.federation.limit`: expected a positive integer, but found a string: `"all"`',
      });
      expect(
        errorOf(await multiSearch({ federation: {}, queries: [{ indexUid: 'movies', federationOptions: { weight: -1 } }] })),
      ).toMatchObject({
        code: 'invalid_multi_search_weight',
        message:
          'Invalid value at `.queries[0].federationOptions.weight`: the value of `weight` is invalid, expected a positive float (>= 0.0).',
      });
      expect(
        errorOf(await multiSearch({ federation: { facetsByIndex: { movies: ['title'] } }, queries: [{ indexUid: 'movies' }] })),
      ).toMatchObject({
        code: 'invalid_multi_search_facets',
        message: expect.stringMatching(/^Inside `\.federation\.facetsByIndex\.movies`: /) as unknown,
      });
    });

    it("keeps a site's key to its own cars in a federated search too", async () => {
      const res = await multiSearch(
        { federation: { limit: 50 }, queries: [{ indexUid: carsIndexUid, filter: `site_id != ${metroId}` }, { indexUid: carsIndexUid }] },
        metroKey,
      );
      expect(res.statusCode, res.body).toBe(200);
      const hits = res.json<{ hits: { site_id: number }[]; estimatedTotalHits: number }>();
      expect(hits.hits).toHaveLength(50);
      expect(hits.hits.every((hit) => hit.site_id === metroId)).toBe(true);
      expect(errorOf(await multiSearch({ federation: {}, queries: [{ indexUid: 'movies' }] }, metroKey))).toMatchObject({
        status: 403,
        code: 'invalid_api_key',
      });
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('facet search', () => {
    const facetSearch = (body: unknown, index = 'movies', key?: string) => call('POST', `/meili/indexes/${index}/facet-search`, body, key);

    it('finds the values that start like the query, typos and accents forgiven, with their counts', async () => {
      const movieIndex = admin.index('movies');
      expect(await movieIndex.searchForFacetValues({ facetName: 'genres', facetQuery: 'a' })).toMatchObject({
        facetHits: [
          { value: 'Action', count: 2 },
          { value: 'Adventure', count: 3 },
        ],
        facetQuery: 'a',
        processingTimeMs: expect.any(Number),
      });
      expect((await movieIndex.searchForFacetValues({ facetName: 'genres', facetQuery: 'adventre' })).facetHits).toEqual([
        { value: 'Adventure', count: 3 },
      ]);
      expect((await movieIndex.searchForFacetValues({ facetName: 'genres', facetQuery: 'àdventure' })).facetHits).toEqual([
        { value: 'Adventure', count: 3 },
      ]);
      expect((await movieIndex.searchForFacetValues({ facetName: 'genres', facetQuery: 'words' })).facetHits).toEqual([]);
      expect((await movieIndex.searchForFacetValues({ facetName: 'genres', facetQuery: 'scie' })).facetHits).toEqual([
        { value: 'Science Fiction', count: 1 },
      ]);
      const all = await movieIndex.searchForFacetValues({ facetName: 'genres' });
      expect(all.facetQuery).toBeNull();
      expect(all.facetHits.map((hit) => hit.value)).toEqual([
        'Action',
        'Adventure',
        'Drama',
        'Fantasy',
        'Horror',
        'Multiple Words',
        'Romance',
        'Science Fiction',
        'Thriller',
      ]);
    });

    it('counts only the documents the search matches: q, filter and matchingStrategy', async () => {
      const movieIndex = admin.index('movies');
      expect((await movieIndex.searchForFacetValues({ facetName: 'genres', facetQuery: 'dr', filter: 'color = blue' })).facetHits).toEqual([
        { value: 'Drama', count: 2 },
      ]);
      expect((await movieIndex.searchForFacetValues({ facetName: 'color', q: 'wonder woman', matchingStrategy: 'all' })).facetHits).toEqual(
        [{ value: 'green', count: 1 }],
      );
    });

    it("orders and trims the values as the index's faceting settings say", async () => {
      await admin
        .index('facet_order')
        .updateSettings({ filterableAttributes: ['genres'], faceting: { sortFacetValuesBy: { genres: 'count' }, maxValuesPerFacet: 2 } })
        .waitTask();
      await admin.index('facet_order').addDocuments(movies).waitTask();
      expect((await admin.index('facet_order').searchForFacetValues({ facetName: 'genres' })).facetHits).toEqual([
        { value: 'Adventure', count: 3 },
        { value: 'Drama', count: 3 },
      ]);
    });

    it("refuses an attribute that is not filterable, and a missing facetName, in Meilisearch's words", async () => {
      expect(errorOf(await facetSearch({ facetName: 'title', facetQuery: 'a' }))).toMatchObject({
        status: 400,
        code: 'invalid_facet_search_facet_name',
        message:
          'Attribute `title` is not facet-searchable. Available facet-searchable attributes patterns are: `color, genres, year`. To make it facet-searchable add it to the `filterableAttributes` index settings.',
      });
      expect(errorOf(await facetSearch({ facetQuery: 'a' }))).toMatchObject({
        status: 400,
        code: 'missing_facet_search_facet_name',
        message: 'Missing field `facetName`',
      });
      expect(errorOf(await facetSearch({ facetName: 'genres', facetQuery: 3 }))).toMatchObject({
        code: 'invalid_facet_search_facet_query',
      });
      expect(errorOf(await facetSearch({ facetName: 'genres' }, 'nope'))).toMatchObject({ status: 404, code: 'index_not_found' });
      await admin
        .index('facet_off')
        .updateSettings({ filterableAttributes: ['genres'], facetSearch: false })
        .waitTask();
      expect(errorOf(await facetSearch({ facetName: 'genres' }, 'facet_off'))).toMatchObject({
        status: 400,
        code: 'facet_search_disabled',
        message: 'The facet search is disabled for this index',
      });
    });

    it("lets a site's key search the values of its own cars only", async () => {
      const res = await facetSearch({ facetName: 'make', facetQuery: '' }, carsIndexUid, metroKey);
      expect(res.statusCode, res.body).toBe(200);
      const counts = metroListed.reduce<Record<string, number>>((all, car) => ({ ...all, [car.make]: (all[car.make] ?? 0) + 1 }), {});
      const hits = res.json<{ facetHits: { value: string; count: number }[] }>().facetHits;
      expect(Object.fromEntries(hits.map((hit) => [hit.value, hit.count]))).toEqual(counts);
      expect(errorOf(await facetSearch({ facetName: 'genres' }, 'movies', metroKey))).toMatchObject({
        status: 403,
        code: 'invalid_api_key',
      });
    });
  });
});
