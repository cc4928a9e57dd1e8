import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { InjectOptions } from 'fastify';
import { Meilisearch } from 'meilisearch';
import type { Car } from '@dealer/contracts/car';
import { isListedInSearch } from '@dealer/rules/tags';
import { listSiteCars } from '@dealer/db/car-store';
import { findSiteIdBySlug, loadSiteConfig } from '@dealer/db/site-store';
import { createTestPlatform, testSearchAdminKey, testSearchKeySecret, type TestPlatform } from '../testing/test-platform';
import { carsIndexUid, searchKeyForSite } from './site-search';
import { apiError } from '@dealer/testing/meili-api-error';

/**
 * Meilisearch's search contract, answered by the embedded engine: every documented search
 * parameter validated with Meilisearch's codes and words, the GET search, facet search, multi-search
 * and federated search. Driven through the official client where it has a method, raw HTTP for
 * the exact error bodies.
 */

const movies = [
  { id: 1, title: 'Carol', genres: ['Romance', 'Drama'], color: ['red'], year: 2015 },
  { id: 2, title: 'Wonder Woman', genres: ['Action', 'Adventure'], color: ['green'], year: 2017 },
  { id: 3, title: 'Life of Pi', genres: ['Adventure', 'Drama'], color: ['blue'], year: 2012 },
  { id: 4, title: 'Mad Max: Fury Road', genres: ['Adventure', 'Science Fiction'], color: ['red'], year: 2015 },
  { id: 5, title: 'Moana', genres: ['Fantasy', 'Action'], color: ['red'], year: 2016 },
  { id: 6, title: 'Philadelphia', genres: ['Drama'], color: ['blue'], year: 1993 },
  { id: 7, title: 'Escape Room', genres: ['Horror', 'Thriller', 'Multiple Words'], color: ['black'], year: 2019 },
];
const comics = [
  { id: 1, title: 'Watchmen', genres: ['Drama'] },
  { id: 2, title: 'Saga', genres: ['Fantasy', 'Drama'] },
];

describe('the Meilisearch search contract of the embedded engine', () => {
  let platform: TestPlatform;
  let host: string;
  let admin: Meilisearch;
  let metroKey: string;
  let metroId: number;
  let metroListed: Car[];

  beforeAll(async () => {
    platform = await createTestPlatform();
    // Over HTTP, as a browser or the indexer reaches a Meilisearch: the client's own errors, headers and all.
    await platform.app.listen({ port: 0, host: '127.0.0.1' });
    host = `http://127.0.0.1:${(platform.app.server.address() as AddressInfo).port}/meili`;
    admin = new Meilisearch({ host, apiKey: testSearchAdminKey });
    metroId = (await findSiteIdBySlug(platform.ctx.db, 'metro-motor-group'))!;
    const metro = (await loadSiteConfig(platform.ctx.db, metroId))!;
    metroKey = searchKeyForSite(metroId, testSearchKeySecret);
    const now = Math.floor(Date.now() / 1000);
    metroListed = (await listSiteCars(platform.ctx.db, metroId)).filter((car) => isListedInSearch(car, metro.include_sold_cars_days, now));
    await admin
      .index('movies')
      .updateSettings({ filterableAttributes: ['genres', 'color', 'year'], sortableAttributes: ['year'] })
      .waitTask();
    await admin.index('movies').addDocuments(movies).waitTask();
    await admin
      .index('comics')
      .updateSettings({ filterableAttributes: ['genres'] })
      .waitTask();
    await admin.index('comics').addDocuments(comics).waitTask();
  });
  afterAll(async () => {
    await platform?.close();
  });

  const call = (method: InjectOptions['method'], url: string, payload?: unknown, key = testSearchAdminKey) =>
    platform.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${key}` },
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
    });
  const search = (body: unknown) => call('POST', '/meili/indexes/movies/search', body);
  const multiSearch = (body: unknown, key?: string) => call('POST', '/meili/multi-search', body, key);
  const errorOf = (res: { statusCode: number; json<T>(): T }) => ({
    status: res.statusCode,
    ...res.json<{ code: string; message: string }>(),
  });

  // -------------------------------------------------------------------------------------------
  describe('search parameters, read as Meilisearch reads them', () => {
    it('refuses an unknown parameter with bad_request, naming every parameter it knows (and the one meant)', async () => {
      expect(errorOf(await search({ foo: 1 }))).toMatchObject({
        status: 400,
        code: 'bad_request',
        message:
          'Unknown field `foo`: expected one of `q`, `vector`, `hybrid`, `offset`, `limit`, `page`, `hitsPerPage`, `attributesToRetrieve`, `retrieveVectors`, ' +
          '`attributesToCrop`, `cropLength`, `cropMarker`, `attributesToHighlight`, `highlightPreTag`, `highlightPostTag`, `showMatchesPosition`, ' +
          '`showRankingScore`, `showRankingScoreDetails`, `filter`, `sort`, `distinct`, `facets`, `matchingStrategy`, `attributesToSearchOn`, ' +
          '`rankingScoreThreshold`, `locales`',
      });
      expect((await search({ limt: 5 })).json<{ message: string }>().message).toMatch(
        /^Unknown field `limt`: did you mean `limit`\? expected one of `q`/,
      );
      expect(errorOf(await search({ facetName: 'genres' }))).toMatchObject({ status: 400, code: 'bad_request' });
    });

    it.each([
      ['q', ['doggo'], 'invalid_search_q', 'Invalid value type at `.q`: expected a string, but found an array: `["doggo"]`'],
      [
        'offset',
        'doggo',
        'invalid_search_offset',
        'Invalid value type at `.offset`: expected a positive integer, but found a string: `"doggo"`',
      ],
      ['limit', '10', 'invalid_search_limit', 'Invalid value type at `.limit`: expected a positive integer, but found a string: `"10"`'],
      [
        'limit',
        -1,
        'invalid_search_limit',
        'Invalid value type at `.limit`: expected a positive integer, but found a negative integer: `-1`',
      ],
      ['limit', null, 'invalid_search_limit', 'Invalid value type at `.limit`: expected a positive integer, but found null: `null`'],
      ['page', 1.5, 'invalid_search_page', 'Invalid value type at `.page`: expected a positive integer, but found a number: `1.5`'],
      [
        'hitsPerPage',
        'doggo',
        'invalid_search_hits_per_page',
        'Invalid value type at `.hitsPerPage`: expected a positive integer, but found a string: `"doggo"`',
      ],
      [
        'attributesToRetrieve',
        'doggo',
        'invalid_search_attributes_to_retrieve',
        'Invalid value type at `.attributesToRetrieve`: expected an array, but found a string: `"doggo"`',
      ],
      [
        'retrieveVectors',
        [true],
        'invalid_search_retrieve_vectors',
        'Invalid value type at `.retrieveVectors`: expected a boolean, but found an array: `[true]`',
      ],
      [
        'attributesToCrop',
        'doggo',
        'invalid_search_attributes_to_crop',
        'Invalid value type at `.attributesToCrop`: expected an array, but found a string: `"doggo"`',
      ],
      [
        'cropLength',
        'doggo',
        'invalid_search_crop_length',
        'Invalid value type at `.cropLength`: expected a positive integer, but found a string: `"doggo"`',
      ],
      [
        'cropMarker',
        ['doggo'],
        'invalid_search_crop_marker',
        'Invalid value type at `.cropMarker`: expected a string, but found an array: `["doggo"]`',
      ],
      [
        'attributesToHighlight',
        'doggo',
        'invalid_search_attributes_to_highlight',
        'Invalid value type at `.attributesToHighlight`: expected an array, but found a string: `"doggo"`',
      ],
      [
        'highlightPreTag',
        ['doggo'],
        'invalid_search_highlight_pre_tag',
        'Invalid value type at `.highlightPreTag`: expected a string, but found an array: `["doggo"]`',
      ],
      [
        'highlightPostTag',
        ['doggo'],
        'invalid_search_highlight_post_tag',
        'Invalid value type at `.highlightPostTag`: expected a string, but found an array: `["doggo"]`',
      ],
      [
        'showMatchesPosition',
        'doggo',
        'invalid_search_show_matches_position',
        'Invalid value type at `.showMatchesPosition`: expected a boolean, but found a string: `"doggo"`',
      ],
      [
        'showRankingScore',
        1,
        'invalid_search_show_ranking_score',
        'Invalid value type at `.showRankingScore`: expected a boolean, but found a positive integer: `1`',
      ],
      [
        'showRankingScoreDetails',
        'yes',
        'invalid_search_show_ranking_score_details',
        'Invalid value type at `.showRankingScoreDetails`: expected a boolean, but found a string: `"yes"`',
      ],
      ['filter', true, 'invalid_search_filter', 'Invalid syntax for the filter parameter: `expected String, Array, found: true`.'],
      [
        'filter',
        ['year = 2015', 3],
        'invalid_search_filter',
        'Invalid syntax for the filter parameter: `expected String, [String], found: 3`.',
      ],
      ['sort', 'doggo', 'invalid_search_sort', 'Invalid value type at `.sort`: expected an array, but found a string: `"doggo"`'],
      ['distinct', true, 'invalid_search_distinct', 'Invalid value type at `.distinct`: expected a string, but found a boolean: `true`'],
      ['facets', 'doggo', 'invalid_search_facets', 'Invalid value type at `.facets`: expected an array, but found a string: `"doggo"`'],
      [
        'facets',
        ['genres', 1],
        'invalid_search_facets',
        'Invalid value type at `.facets[1]`: expected a string, but found a positive integer: `1`',
      ],
      [
        'matchingStrategy',
        'doggo',
        'invalid_search_matching_strategy',
        'Unknown value `doggo` at `.matchingStrategy`: expected one of `last`, `all`, `frequency`',
      ],
      [
        'matchingStrategy',
        { doggo: 'doggo' },
        'invalid_search_matching_strategy',
        'Invalid value type at `.matchingStrategy`: expected a string, but found an object: `{"doggo":"doggo"}`',
      ],
      [
        'attributesToSearchOn',
        'title',
        'invalid_search_attributes_to_search_on',
        'Invalid value type at `.attributesToSearchOn`: expected an array, but found a string: `"title"`',
      ],
      [
        'rankingScoreThreshold',
        'doggo',
        'invalid_search_ranking_score_threshold',
        'Invalid value type at `.rankingScoreThreshold`: expected a number, but found a string: `"doggo"`',
      ],
      [
        'rankingScoreThreshold',
        42,
        'invalid_search_ranking_score_threshold',
        'Invalid value at `.rankingScoreThreshold`: the value of `rankingScoreThreshold` is invalid, expected a float between `0.0` and `1.0`.',
      ],
      ['locales', 'en', 'invalid_search_locales', 'Invalid value type at `.locales`: expected an array, but found a string: `"en"`'],
      ['vector', ['a'], 'invalid_search_vector', 'Invalid value type at `.vector[0]`: expected a number, but found a string: `"a"`'],
      [
        'hybrid',
        'default',
        'invalid_search_hybrid_query',
        'Invalid value type at `.hybrid`: expected an object, but found a string: `"default"`',
      ],
      ['hybrid', { semanticRatio: 0.5 }, 'invalid_search_hybrid_query', 'Missing field `embedder` inside `.hybrid`'],
      [
        'hybrid',
        { embedder: 'default', semanticRatio: 2 },
        'invalid_search_semantic_ratio',
        'Invalid value at `.hybrid.semanticRatio`: the value of `semanticRatio` is invalid, expected a float between `0.0` and `1.0`.',
      ],
    ])('refuses %s = %j with %s', async (name, value, code, message) => {
      expect(errorOf(await search({ [name]: value }))).toEqual({
        status: 400,
        code,
        message,
        type: 'invalid_request',
        link: `https://docs.meilisearch.com/errors#${code}`,
      });
    });

    it('takes every documented parameter at once, and null where Meilisearch takes null', async () => {
      const res = await search({
        q: 'drama',
        offset: 0,
        limit: 3,
        attributesToRetrieve: ['*'],
        retrieveVectors: false,
        attributesToCrop: ['title'],
        cropLength: 5,
        cropMarker: '…',
        attributesToHighlight: ['title'],
        highlightPreTag: '<b>',
        highlightPostTag: '</b>',
        showMatchesPosition: false,
        showRankingScore: false,
        showRankingScoreDetails: false,
        filter: ['year > 1990'],
        sort: ['year:desc'],
        distinct: 'year',
        facets: ['genres'],
        matchingStrategy: 'last',
        attributesToSearchOn: ['*'],
        rankingScoreThreshold: 0,
        locales: ['eng'],
      });
      expect(res.statusCode, res.body).toBe(200);
      const nulls = await search({
        q: null,
        page: null,
        hitsPerPage: null,
        filter: null,
        sort: null,
        facets: null,
        distinct: null,
        rankingScoreThreshold: null,
        vector: null,
        hybrid: null,
      });
      expect(nulls.statusCode, nulls.body).toBe(200);
      expect(nulls.json<{ hits: unknown[] }>().hits).toHaveLength(7);
    });

    it('refuses through the official client too, as its MeilisearchApiError', async () => {
      expect(await apiError(admin.index('movies').search('', { limit: '10' as never }))).toMatchObject({
        status: 400,
        code: 'invalid_search_limit',
      });
      expect(await apiError(admin.index('movies').search('', { colour: 'red' } as never))).toMatchObject({
        status: 400,
        code: 'bad_request',
      });
    });

    it('names the index in errors about its attributes, as Meilisearch does; syntax errors stay bare', async () => {
      expect(errorOf(await search({ sort: ['title:asc'] }))).toMatchObject({
        status: 400,
        code: 'invalid_search_sort',
        message: 'Index `movies`: Attribute `title` is not sortable. Available sortable attributes are: `year`.',
      });
      expect(errorOf(await search({ sort: ['title'] }))).toMatchObject({
        code: 'invalid_search_sort',
        message: 'Invalid syntax for the sort parameter: expected expression ending by `:asc` or `:desc`, found `title`.',
      });
      expect(errorOf(await search({ filter: 'title = Carol' }))).toMatchObject({
        code: 'invalid_search_filter',
        message: expect.stringMatching(/^Index `movies`: Attribute `title` is not filterable\./) as unknown,
      });
    });

    it('checks against the index what only it can tell: distinct must be filterable, attributesToSearchOn searchable', async () => {
      expect(errorOf(await search({ distinct: 'title' }))).toMatchObject({
        status: 400,
        code: 'invalid_search_distinct',
        message:
          'Index `movies`: Attribute `title` is not filterable and thus, cannot be used as distinct attribute. Available filterable attributes patterns are: `color, genres, year`.',
      });
      expect(errorOf(await call('POST', '/meili/indexes/cars/search', { attributesToSearchOn: ['price'] }))).toMatchObject({
        status: 400,
        code: 'invalid_search_attributes_to_search_on',
        message: expect.stringMatching(
          /^Index `cars`: Attribute `price` is not searchable\. Available searchable attributes are: `badge, categories, colour, /,
        ) as unknown,
      });
    });

    it('answers a vector or hybrid search with the error Meilisearch gives when no embedder is configured', async () => {
      expect(errorOf(await search({ hybrid: { embedder: 'default' } }))).toMatchObject({
        status: 400,
        code: 'invalid_search_embedder',
        message: 'Cannot find embedder with name `default`.',
      });
      expect(errorOf(await search({ vector: [0.1, 0.2] }))).toMatchObject({
        status: 400,
        code: 'missing_search_hybrid',
        message: 'Invalid request: missing `hybrid` parameter when `vector` is present.',
      });
    });

    it('answers page 0 with no hits, and the totals', async () => {
      const res = await search({ page: 0, hitsPerPage: 2 });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ hits: [], page: 0, hitsPerPage: 2, totalHits: 7 });
      const viaClient = await admin.index('movies').search('', { page: 0 });
      expect(viaClient.hits).toEqual([]);
    });

    it('refuses a body that is not an object', async () => {
      expect(errorOf(await search([1]))).toMatchObject({
        status: 400,
        code: 'bad_request',
        message: 'Invalid value type: expected an object, but found an array: `[1]`',
      });
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('GET /indexes/{uid}/search', () => {
    it('gives what the POST gives: lists comma-separated, booleans and numbers as text, the filter as text', async () => {
      const params = {
        filter: 'year >= 2015',
        facets: ['genres', 'color'],
        sort: ['year:asc'],
        limit: 3,
        offset: 1,
        attributesToRetrieve: ['id', 'title', 'year'],
      };
      const viaGet = await admin.index('movies').searchGet('', params);
      const viaPost = await admin.index('movies').search('', params);
      expect({ ...viaGet, processingTimeMs: 0 }).toEqual({ ...viaPost, processingTimeMs: 0 });
      expect(viaGet.hits.map((hit) => hit.id)).toEqual(viaPost.hits.map((hit) => hit.id));
      const paged = (await call('GET', '/meili/indexes/movies/search?page=2&hitsPerPage=3&showRankingScore=false')).json();
      expect(paged).toMatchObject({ page: 2, hitsPerPage: 3, totalHits: 7, totalPages: 3 });
    });

    it('reads a filter in the array form when it is JSON, and _geoPoint sorts whole', async () => {
      const res = await call(
        'GET',
        `/meili/indexes/movies/search?filter=${encodeURIComponent('[["year = 2015","year = 2016"]]')}&limit=10`,
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(
        res
          .json<{ hits: { id: number }[] }>()
          .hits.map((hit) => hit.id)
          .sort(),
      ).toEqual([1, 4, 5]);
    });

    it("refuses bad parameters in the query string's own words", async () => {
      expect(errorOf(await call('GET', '/meili/indexes/movies/search?limit=doggo'))).toMatchObject({
        status: 400,
        code: 'invalid_search_limit',
        message: 'Invalid value in parameter `limit`: could not parse `doggo` as a positive integer',
      });
      expect(errorOf(await call('GET', '/meili/indexes/movies/search?showMatchesPosition=doggo'))).toMatchObject({
        code: 'invalid_search_show_matches_position',
        message:
          'Invalid value in parameter `showMatchesPosition`: could not parse `doggo` as a boolean, expected either `true` or `false`',
      });
      expect(errorOf(await call('GET', '/meili/indexes/movies/search?matchingStrategy=doggo'))).toMatchObject({
        code: 'invalid_search_matching_strategy',
        message: 'Unknown value `doggo` for parameter `matchingStrategy`: expected one of `last`, `all`, `frequency`',
      });
      expect(errorOf(await call('GET', '/meili/indexes/movies/search?colour=red'))).toMatchObject({
        status: 400,
        code: 'bad_request',
        message: expect.stringMatching(/^Unknown parameter `colour`: expected one of `q`, `vector`, `offset`, `limit`,/) as unknown,
      });
      expect(errorOf(await call('GET', '/meili/indexes/nope/search'))).toMatchObject({ status: 404, code: 'index_not_found' });
    });

    it("keeps a site's key to the site's stock", async () => {
      const res = await call('GET', '/meili/indexes/cars/search?limit=0&facets=site_id', undefined, metroKey);
      expect(res.statusCode).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.json()).toMatchObject({
        estimatedTotalHits: metroListed.length,
        facetDistribution: { site_id: { [String(metroId)]: metroListed.length } },
      });
    });
  });

  // -------------------------------------------------------------------------------------------
  describe("the cars index's maxTotalHits", () => {
    it("is set by the indexer above the biggest site's stock, so its last search page is reachable", async () => {
      expect(await admin.index(carsIndexUid).getPagination()).toEqual({ maxTotalHits: 5000 });
      expect(metroListed.length).toBeGreaterThan(1000);
      const cars = new Meilisearch({ host, apiKey: metroKey }).index(carsIndexUid);
      const count = (await cars.search('', { limit: 0 })).estimatedTotalHits;
      expect(count).toBe(metroListed.length);
      const lastPage = await cars.search('', { offset: Math.floor((count - 1) / 24) * 24, limit: 24 });
      expect(lastPage.hits).toHaveLength(count - Math.floor((count - 1) / 24) * 24);
    });

    it('passes pagination, displayed attributes and the distinct attribute down to the search structure', async () => {
      await admin
        .index('settings_down')
        .updateSettings({ pagination: { maxTotalHits: 3 }, displayedAttributes: ['title'], distinctAttribute: 'year' })
        .waitTask();
      expect(platform.ctx.search.index('settings_down')!.settings).toMatchObject({
        maxTotalHits: 3,
        displayedAttributes: ['title'],
        distinctAttribute: 'year',
      });
      await admin.index('settings_down').resetSettings().waitTask();
      expect(platform.ctx.search.index('settings_down')!.settings).toMatchObject({
        maxTotalHits: 1000,
        displayedAttributes: ['*'],
        distinctAttribute: null,
      });
    });
  });

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
