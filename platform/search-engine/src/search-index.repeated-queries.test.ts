import { describe, expect, it, vi } from 'vitest';
import type { FilterNode } from './filter-parser';
import { SearchIndex } from './search-index';
import type { Doc, SearchParams, SearchResponse } from './search-types';
import { settings, siteOne, stock, stockIndex } from './testing/test-stock';

/*
 * The search page asks one query per facet beside the main one, most with the main query's words
 * and filter: the index keeps the matches of the last few, and a repeat must answer exactly as a
 * first search would, whatever changed or was asked in between.
 */

/** The answer as sent, byte for byte, but for the time it took. */
const sent = (response: SearchResponse) => JSON.stringify({ ...response, processingTimeMs: 0 });

/** What an index that never searched before answers. */
const firstAnswer = (params: SearchParams, base?: FilterNode, docs: Doc[] = stock) => {
  const index = new SearchIndex('cars', settings);
  index.upsert(docs);
  return sent(index.search(params, base));
};

const facetNames = ['make', 'model', 'car_type', 'price', 'year', 'categories'];

/** The search page's queries: the main one, then one limit-1 query per facet without that facet's filter. */
function searchPageQueries(q: string, filters: Record<string, string>): SearchParams[] {
  const except = (skip: string | null) => Object.entries(filters).flatMap(([facet, filter]) => (facet === skip ? [] : [filter]));
  return [
    { q, filter: except(null), facets: facetNames, sort: ['price:asc'], limit: 4, attributesToHighlight: ['*'] },
    ...facetNames.map((facet) => ({ q, filter: except(facet), facets: [facet], limit: 1, attributesToHighlight: ['*'] })),
  ];
}

describe('a search page asking the same words and filters again', () => {
  it.each<[string, string, Record<string, string>]>([
    ['the default page', '', {}],
    ['a make chosen', '', { make: 'make = Toyota' }],
    ['words typed and a body type chosen', 'suv', { categories: 'categories = SUV' }],
    ['words typed, a make and a price range', 'family', { make: 'make IN [Toyota, Kia]', price: 'price 20000 TO 40000' }],
  ])('answers every query of %s as a first search would, twice over', (_case, q, filters) => {
    const index = stockIndex();
    const queries = searchPageQueries(q, filters);
    for (let round = 0; round < 2; round++)
      for (const params of queries) expect(sent(index.search(params, siteOne))).toBe(firstAnswer(params, siteOne));
  });

  it('gives the same hits, ranking scores, highlights and match positions when words are asked again', () => {
    const index = stockIndex();
    const params: SearchParams = {
      q: 'toyta famly',
      matchingStrategy: 'last',
      attributesToHighlight: ['*'],
      attributesToCrop: ['name:2'],
      showMatchesPosition: true,
      showRankingScore: true,
      showRankingScoreDetails: true,
      sort: ['year:desc'],
    };
    const first = sent(index.search(params, siteOne));
    expect(first).toBe(firstAnswer(params, siteOne));
    expect(sent(index.search(params, siteOne))).toBe(first);
    // Other words in between: the repeat is scored and highlighted by a matcher of its own words.
    index.search({ q: 'mazda', attributesToHighlight: ['*'] }, siteOne);
    expect(sent(index.search(params, siteOne))).toBe(first);
  });

  it('leaves the repeated matches whole after a query that drops some below a score threshold or to a distinct value', () => {
    const index = stockIndex();
    const params: SearchParams = { q: 'toyota suv', showRankingScore: true, facets: ['make'] };
    const all = sent(index.search(params, siteOne));
    // The Corolla (toyota only) scores under 0.6, the RAV4 and LandCruiser (both words) over: one dropped before two kept.
    const strict = { ...params, rankingScoreThreshold: 0.6 };
    expect(sent(index.search(strict, siteOne))).toBe(firstAnswer(strict, siteOne));
    const onePerMake = { ...params, distinct: 'make' };
    expect(sent(index.search(onePerMake, siteOne))).toBe(firstAnswer(onePerMake, siteOne));
    expect(sent(index.search(params, siteOne))).toBe(all);
  });

  it.each<[string, SearchParams, FilterNode | undefined, SearchParams, FilterNode | undefined]>([
    ['another filter', { filter: 'car_type = used' }, siteOne, { filter: 'car_type = new' }, siteOne],
    [
      'another filter with the same words',
      { q: 'toyota', filter: 'car_type = used' },
      siteOne,
      { q: 'toyota', filter: 'car_type = new' },
      siteOne,
    ],
    ["another dealer's rules", { q: 'corolla' }, siteOne, { q: 'corolla' }, undefined],
    ['other words', { q: 'toyota' }, siteOne, { q: 'toyota rav4' }, siteOne],
    ['another matching strategy', { q: 'toyota red' }, siteOne, { q: 'toyota red', matchingStrategy: 'all' }, siteOne],
    ['other attributes searched', { q: 'red' }, siteOne, { q: 'red', attributesToSearchOn: ['name'] }, siteOne],
  ])('does not answer with the matches of %s', (_case, before, beforeBase, after, afterBase) => {
    const index = stockIndex();
    index.search(before, beforeBase);
    expect(sent(index.search(after, afterBase))).toBe(firstAnswer(after, afterBase));
    expect(sent(index.search(before, beforeBase))).toBe(firstAnswer(before, beforeBase));
  });

  it('still answers right once more distinct searches were asked than it keeps', () => {
    const index = stockIndex();
    const searches: SearchParams[] = ['toyota', 'mazda', 'kia', 'suv', 'ute', 'hatch', 'red', 'white', 'sedan', 'family', ''].map((q) => ({
      q,
      facets: ['make'],
    }));
    for (let round = 0; round < 2; round++)
      for (const params of searches) expect(sent(index.search(params, siteOne))).toBe(firstAnswer(params, siteOne));
  });

  it('counts the facets of a search once: its next page, another sort and a facet query with its filter count nothing again', () => {
    const index = stockIndex();
    const counting = vi.spyOn(index as unknown as { facetCounts: () => unknown }, 'facetCounts');
    const params: SearchParams = { filter: 'car_type = used', facets: ['make', 'price'], hitsPerPage: 2, page: 1 };
    for (const asked of [
      params,
      { ...params, page: 2 },
      { ...params, sort: ['price:desc'] },
      { filter: 'car_type = used', facets: ['make', 'price'], limit: 1 },
    ])
      expect(sent(index.search(asked, siteOne))).toBe(firstAnswer(asked, siteOne));
    expect(counting).toHaveBeenCalledTimes(1);
    // Other facets of the same matches are counted for themselves, and both lists stay counted.
    const models = { filter: 'car_type = used', facets: ['model'] };
    expect(sent(index.search(models, siteOne))).toBe(firstAnswer(models, siteOne));
    expect(sent(index.search(params, siteOne))).toBe(firstAnswer(params, siteOne));
    expect(sent(index.search(models, siteOne))).toBe(firstAnswer(models, siteOne));
    expect(counting).toHaveBeenCalledTimes(2);
  });

  it('shares the counts between answers frozen: whoever received one cannot change what the next says', () => {
    const index = stockIndex();
    const params: SearchParams = { filter: 'car_type = used', facets: ['make', 'price'] };
    const first = index.search(params, siteOne);
    expect(() => {
      first.facetDistribution!['make']!['Toyota'] = 999;
    }).toThrow(TypeError);
    expect(() => {
      first.facetStats!['price']!.min = -1;
    }).toThrow(TypeError);
    expect(() => {
      first.facetDistribution!['model'] = {};
    }).toThrow(TypeError);
    expect(sent(index.search(params, siteOne))).toBe(firstAnswer(params, siteOne));
  });

  it('counts again once the faceting settings changed', () => {
    const index = stockIndex();
    const params: SearchParams = { facets: ['make'] };
    expect(Object.keys(index.search(params, siteOne).facetDistribution!['make']!).length).toBeGreaterThan(1);
    index.updateSettings({ faceting: { maxValuesPerFacet: 1 } });
    expect(Object.keys(index.search(params, siteOne).facetDistribution!['make']!)).toHaveLength(1);
  });

  it('counts facet values for a facet search over the same matches as the search', () => {
    const index = stockIndex();
    index.search({ q: 'toyota', facets: ['model'] }, siteOne);
    const fresh = stockIndex();
    expect(index.facetValues({ q: 'toyota' }, 'model', siteOne)).toEqual(fresh.facetValues({ q: 'toyota' }, 'model', siteOne));
  });
});

describe('a repeated search after the stock or settings changed', () => {
  it.each<[string, (index: SearchIndex) => void, Doc[]]>([
    [
      'a price change',
      (index) => index.upsert([{ ...stock[1]!, price: 19990 }]),
      stock.map((doc) => (doc.id === 2 ? { ...doc, price: 19990 } : doc)),
    ],
    ['a sale', (index) => index.remove([2]), stock.filter((doc) => doc.id !== 2)],
    ['a new car', (index) => index.upsert([{ ...stock[1]!, id: 22 }]), [...stock, { ...stock[1]!, id: 22 }]],
  ])('shows %s', (_case, change, docs) => {
    const index = stockIndex();
    const searches: SearchParams[] = [
      { filter: 'make = Toyota', facets: ['price'] },
      { q: 'toyota', facets: ['price'], showRankingScore: true },
      // Sorted: the sort values the index keeps per rule are those of the cars as they are now.
      { sort: ['price:desc', 'custom_rank:asc'], limit: 50 },
    ];
    // With and without a site's rules: the admin key's searches have no base filter to tell versions apart.
    for (const base of [siteOne, undefined])
      for (const params of searches) {
        const before = sent(index.search(params, base));
        change(index);
        const after = sent(index.search(params, base));
        expect(after).toBe(firstAnswer(params, base, docs));
        expect(after).not.toBe(before);
        index.clear();
        index.upsert(stock);
      }
  });

  it('searches the attributes newly made searchable', () => {
    const index = stockIndex();
    expect(index.search({ q: 'toyota' }).hits).toHaveLength(4);
    index.updateSettings({ searchableAttributes: ['colour'] });
    expect(index.search({ q: 'toyota' }).hits).toEqual([]);
  });

  it('empties on clear and fills again', () => {
    const index = stockIndex();
    expect(index.search({ q: 'toyota', facets: ['make'] }, siteOne).hits).toHaveLength(3);
    index.clear();
    expect(index.search({ q: 'toyota', facets: ['make'] }, siteOne)).toMatchObject({ hits: [], facetDistribution: { make: {} } });
    index.upsert(stock);
    expect(sent(index.search({ q: 'toyota', facets: ['make'] }, siteOne))).toBe(firstAnswer({ q: 'toyota', facets: ['make'] }, siteOne));
  });
});
