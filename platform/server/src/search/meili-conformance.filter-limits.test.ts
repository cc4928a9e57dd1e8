import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { buildSearchQueries, isRangeFacet, searchSlugFilters, type SearchState } from '@dealer/rules/search-query';
import { demoSiteSlugs } from '@dealer/demo/demo-sites';
import { createTestPlatform, siteRequest, testSearchAdminKey, type TestPlatform } from '../testing/test-platform';
import { ids, parseError, searchError } from '../testing/meili-filter-errors';
import { matchesFilter } from '@dealer/search-engine/filter-evaluator';
import { filterLimits, FilterSyntaxError, parseFilter, parseFilterExpression } from '@dealer/search-engine/filter-parser';
import { MeiliError } from '@dealer/search-engine/search-errors';
import { SearchIndex } from '@dealer/search-engine/search-index';
import { carsIndexUid } from './site-search';

/*
 * How much filter Meilisearch v1.16 reads: its nesting limit and messages (filter-parser's
 * snapshots), plus this engine's bounds on a caller's filter, which Meilisearch does not have,
 * in the engine and through the /meili HTTP API. Nested fields and geo filters are in
 * meili-conformance.nested-and-geo-filters.test.ts.
 */

const depthMessage = 'The filter exceeded the maximum depth limit. Try rewriting the filter so that it contains fewer nested conditions.';
const rewriteHint = 'Try rewriting the filter so that it contains fewer conditions, for example one `IN [...]` instead of many `OR`.';

const nested = (count: number, inner: string) => `${'('.repeat(count)}${inner}${')'.repeat(count)}`;
const nots = (count: number) => `${'NOT '.repeat(count)}x = 1`;

describe("how deep a filter may nest (Meilisearch's MAX_FILTER_DEPTH, 200)", () => {
  it('reads 49 brackets deep and 197 NOTs long, as Meilisearch does', () => {
    expect(parseFilter(nested(49, 'x = 1'))).toEqual({ type: 'compare', attribute: 'x', op: '=', value: '1' });
    let node = parseFilter(nots(197));
    for (let n = 0; n < 197; n++) {
      expect(node.type).toBe('not');
      node = (node as { child: typeof node }).child;
    }
    expect(node).toEqual({ type: 'compare', attribute: 'x', op: '=', value: '1' });
  });

  it.each([
    ['50 brackets', nested(50, 'x = 1'), '51:106'],
    ['199 NOTs', nots(199), '797:802'],
    ['198 NOTs', nots(198), '793:798'],
  ])("refuses %s with Meilisearch's message, pointing where the limit was passed", (_case, filter, columns) => {
    const error = parseError(filter);
    expect(error).toBeInstanceOf(FilterSyntaxError);
    expect(error.message).toBe(`${depthMessage}\n${columns} ${filter}`);
  });

  it.each([
    ['3,000 nested brackets', nested(3000, 'x = 1'), 50],
    ['10,000 NOTs', nots(10_000), 796],
    // 30 brackets (4 levels each), a NOT (1), then the 20th inner bracket passes 200.
    ['brackets and NOTs mixed', nested(30, `NOT ${nested(30, 'x = 1')}`), 30 + 4 + 20],
  ])('refuses %s before going deeper', (_case, filter, column) => {
    expect(parseError(filter).message).toBe(`${depthMessage}\n${column + 1}:${filter.length + 1} ${filter}`);
  });

  it('counts depth per expression of the array form, as Meilisearch parses each on its own', () => {
    expect(() => parseFilter([nested(49, 'x = 1'), [nested(49, 'y = 2'), 'z = 3']])).not.toThrow();
    const deep = nested(50, 'y = 2');
    expect(parseError(['x = 1', [deep]]).message).toBe(`${depthMessage}\n51:106 ${deep}`);
  });
});

describe("how much filter a caller may send (this engine's bounds)", () => {
  const terms = (count: number) => Array.from({ length: count }, (_, i) => `id = ${i}`).join(' OR ');

  it('refuses a 40,000-term filter for its length, without echoing it', () => {
    const filter = terms(40_000);
    const error = parseError(filter);
    expect(error).toBeInstanceOf(FilterSyntaxError);
    expect(error.message).toBe(`The filter exceeded the maximum length of 65536 characters. ${rewriteHint}`);
  });

  it('counts the length of every expression of the array form together', () => {
    const half = `make IN [${'"Toyota", '.repeat(3300)}]`;
    expect(() => parseFilter([half])).not.toThrow();
    expect(parseError([half, [half]]).message).toBe(`The filter exceeded the maximum length of 65536 characters. ${rewriteHint}`);
  });

  it('takes exactly the most conditions, and refuses one more, pointing at it', () => {
    expect(filterLimits.conditions).toBe(1000);
    const most = terms(1000);
    expect(parseFilter(most)).toMatchObject({ type: 'or', children: expect.any(Array) });
    const over = terms(1001);
    const start = over.lastIndexOf('id = 1000');
    expect(parseError(over).message).toBe(
      `The filter exceeded the maximum of 1000 conditions. ${rewriteHint}\n${start + 1}:${over.length + 1} ${over}`,
    );
  });

  it('counts conditions across the array form, and an `IN [...]` once whatever its length', () => {
    const values = Array.from({ length: 5000 }, (_, i) => i).join(', ');
    expect(() => parseFilter([`id IN [${values}]`, [terms(499)], terms(500)])).not.toThrow();
    expect(() => parseFilter([`id IN [${values}]`, [terms(500)], terms(500)])).toThrow(
      'The filter exceeded the maximum of 1000 conditions.',
    );
  });

  it('bounds an `IN [...]` by the length: 40,000 values are refused, the 12,000 that fit are answered', () => {
    const index = new SearchIndex('ids', { filterableAttributes: ['id'], sortableAttributes: [], searchableAttributes: ['*'] });
    index.upsert(Array.from({ length: 12_000 }, (_, i) => ({ id: i })));
    const list = (count: number) => `id IN [${Array.from({ length: count }, (_, i) => i).join(',')}]`;
    expect(searchError(index, { filter: list(40_000) })).toMatchObject({
      code: 'invalid_search_filter',
      status: 400,
      message: `The filter exceeded the maximum length of 65536 characters. ${rewriteHint}`,
    });
    expect(ids(index, { filter: `${list(12_000)} AND id >= 11990` })).toEqual([
      11990, 11991, 11992, 11993, 11994, 11995, 11996, 11997, 11998, 11999,
    ]);
    expect(matchesFilter(parseFilter(list(12_000)), { id: 11_999 })).toBe(true);
    expect(matchesFilter(parseFilter(list(12_000)), { id: 12_000 })).toBe(false);
  });

  it('takes a filter of exactly the longest length', () => {
    const base = 'make = "';
    const filter = `${base}${'x'.repeat(filterLimits.characters - base.length - 1)}"`;
    expect(filter.length).toBe(65_536);
    expect(parseFilter(filter)).toMatchObject({ type: 'compare', attribute: 'make' });
    expect(() => parseFilter(`${filter} `)).toThrow('The filter exceeded the maximum length of 65536 characters.');
  });

  it("does not hold the platform's own rules to those bounds", () => {
    expect(() => parseFilterExpression(terms(1500))).not.toThrow();
    expect(() => parseFilterExpression(nested(50, 'x = 1'))).toThrow(depthMessage);
  });

  it("answers a search with a bounded filter with Meilisearch's error, code invalid_search_filter", () => {
    const index = new SearchIndex('cars', { filterableAttributes: ['id', 'x'], sortableAttributes: [], searchableAttributes: ['*'] });
    index.upsert([{ id: 1, x: 1 }]);
    const deep = searchError(index, { filter: nested(3000, 'x = 1') });
    expect(deep).toBeInstanceOf(MeiliError);
    expect(deep).toMatchObject({
      code: 'invalid_search_filter',
      status: 400,
      message: `${depthMessage}\n51:6006 ${nested(3000, 'x = 1')}`,
    });
    expect(searchError(index, { filter: terms(40_000) })).toMatchObject({ code: 'invalid_search_filter', status: 400 });
    expect(ids(index, { filter: terms(1000) })).toEqual([1]);
    expect(ids(index, { filter: nested(49, 'x = 1') })).toEqual([1]);
  });
});

describe('filters through the /meili HTTP API', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform();
    const documents = [
      {
        id: 852,
        father: 'jean',
        doggos: [
          { name: 'bobby', age: 2 },
          { name: 'buddy', age: 4 },
        ],
        _geo: { lat: 45.4777599, lng: 9.1967508 },
      },
      { id: 654, father: 'pierre', doggos: [{ name: 'gros bill', age: 8 }], _geo: { lat: '34.0522', lng: '-118.2437' } },
      { id: 750, father: 'romain' },
    ];
    await admin('POST', '/meili/indexes/filters/documents', documents);
    await admin('PATCH', '/meili/indexes/filters/settings', { filterableAttributes: ['father', 'doggos', '_geo'] });
  });
  afterAll(async () => {
    await platform?.close();
  });

  const admin = (method: InjectOptions['method'], url: string, payload?: InjectOptions['payload']) =>
    platform.app.inject({ method, url, headers: { authorization: `Bearer ${testSearchAdminKey}` }, payload });
  const siteConfig = async (slug: string) => (await siteRequest(platform.app, slug, 'GET', '/api/site')).json<PublicSiteConfig>();
  const multiSearch = async (slug: string, queries: Record<string, unknown>[]) => {
    const { search } = await siteConfig(slug);
    return platform.app.inject({
      method: 'POST',
      url: '/meili/multi-search',
      headers: { authorization: `Bearer ${search.apiKey}` },
      payload: { queries: queries.map((query) => ({ indexUid: search.indexUid, ...query })) },
    });
  };
  const terms = (count: number) => Array.from({ length: count }, (_, i) => `stocknum = S${i}`).join(' OR ');

  it.each([
    ['3,000 nested brackets', nested(3000, 'make = Toyota'), `${depthMessage}\n51:${6014} ${nested(3000, 'make = Toyota')}`],
    ['10,000 NOTs', `${'NOT '.repeat(10_000)}make = Toyota`, `${depthMessage}\n797:40014 ${'NOT '.repeat(10_000)}make = Toyota`],
    ['a 40,000-term filter', terms(40_000), `The filter exceeded the maximum length of 65536 characters. ${rewriteHint}`],
  ])("answers a site's multi-search with %s: 400, naming the query", async (_case, filter, message) => {
    const res = await multiSearch('metro-motor-group', [{ limit: 1 }, { filter, limit: 1 }]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: `Inside \`.queries[1]\`: ${message}`,
      code: 'invalid_search_filter',
      type: 'invalid_request',
      link: 'https://docs.meilisearch.com/errors#invalid_search_filter',
    });
  });

  it("answers a filter at the limits, under the site's own rules", async () => {
    const res = await multiSearch('metro-motor-group', [{ filter: [terms(999), nested(49, 'make = Toyota')], limit: 1 }]);
    expect(res.statusCode).toBe(200);
    const single = await platform.app.inject({
      method: 'POST',
      url: `/meili/indexes/${carsIndexUid}/search`,
      headers: { authorization: `Bearer ${(await siteConfig('metro-motor-group')).search.apiKey}` },
      payload: { filter: nested(50, 'make = Toyota') },
    });
    expect(single.statusCode).toBe(400);
    expect(single.json()).toMatchObject({
      code: 'invalid_search_filter',
      message: `${depthMessage}\n51:114 ${nested(50, 'make = Toyota')}`,
    });
  });

  it.each(demoSiteSlugs)("answers the search page's largest filter on %s: every value it shows of every facet selected", async (slug) => {
    const site = await siteConfig(slug);
    const shown = await multiSearch(slug, [{ facets: site.search_facets, limit: 0 }]);
    expect(shown.statusCode, shown.body).toBe(200);
    const { facetDistribution = {}, facetStats = {} } = shown.json<{
      results: [{ facetDistribution?: Record<string, Record<string, number>>; facetStats?: Record<string, { min: number; max: number }> }];
    }>().results[0];
    const state: SearchState = { q: '', filters: {}, ranges: {}, sort: 'price:asc', page: 2 };
    for (const facet of site.search_facets) {
      if (isRangeFacet(facet)) state.ranges[facet] = { min: facetStats[facet]?.min ?? 0, max: facetStats[facet]?.max ?? 1 };
      else state.filters[facet] = Object.keys(facetDistribution[facet] ?? {});
    }
    const queries = buildSearchQueries({
      state,
      facets: site.search_facets,
      indexUid: site.search.indexUid,
      hitsPerPage: 24,
      defaultSort: site.default_sort,
      extraFilters: searchSlugFilters('new-used-cars'),
    });
    const res = await multiSearch(slug, queries);
    expect(res.statusCode, res.body).toBe(200);
    const largest = Math.max(...queries.map((query) => query.filter.join(' AND ').length));
    expect(largest).toBeLessThan(filterLimits.characters / 8);
  });

  it("checks a delete-by-filter's filter before accepting the task, as Meilisearch does", async () => {
    for (const [filter, message] of [
      [nested(3000, 'father = jean'), `${depthMessage}\n51:6014 ${nested(3000, 'father = jean')}`],
      [`${'NOT '.repeat(10_000)}father = jean`, `${depthMessage}\n797:40014 ${'NOT '.repeat(10_000)}father = jean`],
      [terms(40_000), `The filter exceeded the maximum length of 65536 characters. ${rewriteHint}`],
    ]) {
      const res = await admin('POST', '/meili/indexes/filters/documents/delete', { filter });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        message,
        code: 'invalid_document_filter',
        type: 'invalid_request',
        link: 'https://docs.meilisearch.com/errors#invalid_document_filter',
      });
    }
    // Coordinates are checked when the task runs, against the index's settings.
    const bad = await admin('POST', '/meili/indexes/filters/documents/delete', { filter: '_geoRadius(100, 0, 1)' });
    expect(bad.statusCode).toBe(202);
    const task = (await admin('GET', `/meili/tasks/${bad.json<{ taskUid: number }>().taskUid}`)).json<{
      status: string;
      error: { code: string; message: string };
    }>();
    expect(task).toMatchObject({
      status: 'failed',
      error: {
        code: 'invalid_document_filter',
        message: 'Bad latitude `100`. Latitude must be contained between -90 and 90 degrees. \n12:15 _geoRadius(100, 0, 1)',
      },
    });
  });

  it('filters and counts nested fields and geo points', async () => {
    const search = async (body: Record<string, unknown>) =>
      (await admin('POST', '/meili/indexes/filters/search', body)).json<{ hits: { id: number }[]; facetDistribution?: unknown }>();
    expect((await search({ filter: 'doggos.age > 3' })).hits.map((hit) => hit.id)).toEqual([852, 654]);
    expect(
      (await search({ filter: ['doggos.name EXISTS', ['_geoRadius(45.472735, 9.184019, 10000)', 'father = romain']] })).hits.map(
        (hit) => hit.id,
      ),
    ).toEqual([852]);
    expect((await search({ filter: '_geoBoundingBox([40, -100], [30, -120])' })).hits.map((hit) => hit.id)).toEqual([654]);
    expect((await search({ facets: ['doggos.name'], limit: 0 })).facetDistribution).toEqual({
      'doggos.name': { bobby: 1, buddy: 1, 'gros bill': 1 },
    });
    await admin('POST', '/meili/indexes/no_geo/documents', [{ id: 1, father: 'jean', _geo: { lat: -33.8, lng: 151.2 } }]);
    await admin('PATCH', '/meili/indexes/no_geo/settings', { filterableAttributes: ['father'] });
    const plain = await admin('POST', '/meili/indexes/no_geo/search', { filter: '_geoRadius(-33.8, 151.2, 5000)' });
    expect(plain.statusCode).toBe(400);
    expect(plain.json()).toMatchObject({
      code: 'invalid_search_filter',
      message: expect.stringContaining('Attribute `_geo` is not filterable.'),
    });
  });
});
