import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Meilisearch } from 'meilisearch';
import type { Car } from '@dealer/contracts/car';
import type { TestPlatform } from '../testing/test-platform';
import { errorOf, meiliCaller, openSearchContract } from '../testing/meili-search-contract';
import { carsIndexUid } from './site-search';
import { apiError } from '@dealer/testing/meili-api-error';

/**
 * Meilisearch's search contract, answered by the embedded engine: every documented search
 * parameter validated with Meilisearch's codes and words, the GET search and the cars index's
 * maxTotalHits. Driven through the official client where it has a method, raw HTTP for the exact
 * error bodies. Multi-search, federated search and facet search are in meili-conformance.multi-search.test.ts.
 */

describe('the Meilisearch search contract of the embedded engine', () => {
  let platform: TestPlatform;
  let host: string;
  let admin: Meilisearch;
  let metroKey: string;
  let metroId: number;
  let metroListed: Car[];

  beforeAll(async () => {
    ({ platform, host, admin, metroKey, metroId, metroListed } = await openSearchContract());
  });
  afterAll(async () => {
    await platform?.close();
  });

  const call = meiliCaller(() => platform);
  const search = (body: unknown) => call('POST', '/meili/indexes/movies/search', body);

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
});
