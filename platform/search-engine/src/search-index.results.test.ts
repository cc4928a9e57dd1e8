import { describe, expect, it } from 'vitest';
import { MeiliError } from './search-errors';
import { SearchIndex } from './search-index';
import type { SearchParams } from './search-types';
import { ids, settings, siteOne, stock, stockIndex } from './testing/test-stock';

/*
 * What a search of a dealer's stock answers besides the words: facet counts and stats, the sort
 * order, pages, the errors a shopper's search is refused with, and answers kept up to date as the
 * stock changes. Searching by words is in search-index.word-search.test.ts.
 */

describe('facet counts beside the results', () => {
  const index = stockIndex();

  it.each<[string, SearchParams['filter'], string, Record<string, number>]>([
    ['every make in stock (in byte order, as Meilisearch: Š after T)', null, 'make', { Kia: 2, Mazda: 2, Toyota: 3, Škoda: 1 }],
    ['makes among used cars', 'car_type = used', 'make', { Kia: 1, Mazda: 1, Toyota: 1, Škoda: 1 }],
    [
      'body types, a car counted once under each of its categories',
      null,
      'categories',
      { '4x4': 2, Family: 2, Hatch: 2, Sedan: 1, SUV: 4, Ute: 1 },
    ],
    ['years, oldest first', 'make = Kia', 'year', { '2017': 1, '2025': 1 }],
    ['nothing when no car matches', 'make = Holden', 'make', {}],
  ])('counts %s over every matching car, not just the page shown', (_case, filter, facet, expected) => {
    const result = index.search({ filter, facets: [facet], limit: 1 }, siteOne);
    expect(result.hits.length).toBeLessThanOrEqual(1);
    expect(result.facetDistribution).toEqual({ [facet]: expected });
    expect(Object.keys(result.facetDistribution![facet]!)).toEqual(Object.keys(expected));
  });

  it("leaves the other dealer's cars out of the counts", () => {
    expect(index.search({ facets: ['model'] }, siteOne).facetDistribution!.model!.Corolla).toBe(1);
    expect(index.search({ facets: ['model'] }).facetDistribution!.model!.Corolla).toBe(2);
  });

  it('counts every filterable attribute for facets ["*"]', () => {
    expect(Object.keys(index.search({ facets: ['*'], limit: 0 }, siteOne).facetDistribution!)).toEqual(settings.filterableAttributes);
  });

  it('shows at most 100 values of a facet unless the faceting settings allow more, and can order them by count', () => {
    const big = new SearchIndex('cars', { ...settings });
    big.upsert(
      Array.from({ length: 150 }, (_, i) => ({ id: i + 1, model: `Model ${String(i).padStart(3, '0')}`, make: i < 10 ? 'Kia' : 'Toyota' })),
    );
    expect(Object.keys(big.search({ facets: ['model'] }).facetDistribution!.model!)).toHaveLength(100);
    big.updateSettings({ faceting: { maxValuesPerFacet: 200, sortFacetValuesBy: { make: 'count' } } });
    expect(Object.keys(big.search({ facets: ['model'] }).facetDistribution!.model!)).toHaveLength(150);
    expect(Object.keys(big.search({ facets: ['make'] }).facetDistribution!.make!)).toEqual(['Toyota', 'Kia']);
  });

  it.each<[string, SearchParams['filter'], Record<string, { min: number; max: number }>]>([
    ['the whole stock', null, { price: { min: 27990, max: 129990 }, km: { min: 5, max: 80000 }, year: { min: 2017, max: 2025 } }],
    ['used cars', 'car_type = used', { price: { min: 27990, max: 38990 }, km: { min: 42000, max: 80000 }, year: { min: 2017, max: 2021 } }],
    ['no car at all', 'make = Holden', {}],
  ])('gives the lowest and highest price, km and year of %s', (_case, filter, expected) => {
    const result = index.search({ filter, facets: ['price', 'km', 'year', 'make'], limit: 0 }, siteOne);
    expect(result.facetStats).toEqual(expected);
  });
});

describe('sorting the results', () => {
  const index = stockIndex();

  it.each<[string, string[], number[]]>([
    ['cheapest first, cars without a price last', ['price:asc'], [4, 8, 1, 6, 2, 3, 5, 7]],
    ['dearest first, cars without a price still last', ['price:desc'], [3, 2, 6, 1, 4, 8, 5, 7]],
    ['cheapest first, then lowest km among equal prices', ['price:asc', 'km:asc'], [8, 4, 1, 6, 2, 3, 5, 7]],
    ['newest first, then cheapest', ['year:desc', 'price:asc'], [1, 6, 5, 3, 2, 8, 4, 7]],
    ['most relevant (rank) first, then by id order', ['custom_rank:desc'], [2, 3, 1, 8, 4, 7, 6, 5]],
  ])('%s', (_case, sort, expected) => {
    expect(ids(index, { sort, limit: 100 })).toEqual(expected);
  });

  it('sorts only the page it returns, but the same as a full sort', () => {
    const many = new SearchIndex('cars', settings);
    many.upsert(Array.from({ length: 5000 }, (_, i) => ({ id: i + 1, price: (i * 7919) % 5003, km: i % 7 })));
    const all = many.search({ sort: ['price:desc', 'km:asc'], limit: 5000 }).hits.map((hit) => hit.id);
    expect(many.search({ sort: ['price:desc', 'km:asc'], limit: 10, offset: 30 }).hits.map((hit) => hit.id)).toEqual(all.slice(30, 40));
  });
});

describe('pages of results', () => {
  const index = stockIndex();

  it.each<[string, SearchParams, number[], Record<string, number>]>([
    ['the first 3 cars', { limit: 3 }, [1, 2, 3], { limit: 3, offset: 0, estimatedTotalHits: 8 }],
    ['3 cars after the first 6', { limit: 3, offset: 6 }, [7, 8], { limit: 3, offset: 6, estimatedTotalHits: 8 }],
    ['past the end', { limit: 3, offset: 20 }, [], { limit: 3, offset: 20, estimatedTotalHits: 8 }],
    ['20 by default', {}, [1, 2, 3, 4, 5, 6, 7, 8], { limit: 20, offset: 0, estimatedTotalHits: 8 }],
    ['page 2 of 3 per page', { page: 2, hitsPerPage: 3 }, [4, 5, 6], { page: 2, hitsPerPage: 3, totalHits: 8, totalPages: 3 }],
    ['the last, short page', { page: 3, hitsPerPage: 3 }, [7, 8], { page: 3, hitsPerPage: 3, totalHits: 8, totalPages: 3 }],
    ['only the count (hitsPerPage 0)', { hitsPerPage: 0 }, [], { page: 1, hitsPerPage: 0, totalHits: 8, totalPages: 0 }],
  ])('%s', (_case, params, expected, paging) => {
    const result = index.search(params, siteOne);
    expect(result.hits.map((hit) => hit.id)).toEqual(expected);
    expect(result).toMatchObject(paging);
    expect(result.processingTimeMs).toBeGreaterThanOrEqual(0);
  });
});

describe('telling the shopper what is wrong with a search', () => {
  const index = stockIndex();
  const errorOf = (params: SearchParams): MeiliError => {
    try {
      index.search(params);
    } catch (error) {
      if (error instanceof MeiliError) return error;
      throw error;
    }
    throw new Error('no error');
  };

  it.each<[string, SearchParams, string, string]>([
    [
      'a filter on an attribute that is not filterable',
      { filter: 'vin = X' },
      'invalid_search_filter',
      `Attribute \`vin\` is not filterable. Available filterable attributes are: \`${settings.filterableAttributes.join(', ')}\`.`,
    ],
    ['a filter that does not parse', { filter: 'make Toyota' }, 'invalid_search_filter', 'Was expecting an operation'],
    [
      'a sort on an attribute that is not sortable',
      { sort: ['colour:asc'] },
      'invalid_search_sort',
      'Attribute `colour` is not sortable. Available sortable attributes are: `price, km, year, custom_rank`.',
    ],
    [
      'a sort without a direction',
      { sort: ['price'] },
      'invalid_search_sort',
      'Invalid syntax for the sort parameter: expected expression ending by `:asc` or `:desc`, found `price`.',
    ],
    [
      'facets on an attribute that is not filterable',
      { facets: ['vin'] },
      'invalid_search_facets',
      'Invalid facet distribution, attribute `vin` is not filterable.',
    ],
  ])('rejects %s', (_case, params, code, message) => {
    const error = errorOf(params);
    expect(error.code).toBe(code);
    expect(error.status).toBe(400);
    expect(error.message).toContain(message);
  });

  it('accepts a filter on an attribute once it is made filterable', () => {
    const cars = stockIndex();
    expect(() => cars.search({ filter: 'badge = GX' })).toThrow(MeiliError);
    cars.updateSettings({ filterableAttributes: [...settings.filterableAttributes, 'badge'] });
    expect(cars.search({ filter: 'badge = GX' }).hits.map((hit) => hit.id)).toEqual([2]);
    expect(cars.settings.filterableAttributes).toContain('badge');
    cars.updateSettings({ searchableAttributes: ['colour'] });
    expect(cars.search({ q: 'toyota' }).hits).toEqual([]);
    expect(cars.search({ q: 'black' }).hits.map((hit) => hit.id)).toEqual([3]);
  });
});

describe('keeping search up to date with the stock', () => {
  it('shows a price change, a sale and a new car on the very next search', () => {
    const index = stockIndex();
    index.upsert([{ ...stock[3]!, price: 19990 }]);
    expect(index.search({ filter: 'price < 20000', facets: ['price'] }, siteOne)).toMatchObject({
      hits: [{ id: 4, price: 19990 }],
      facetStats: { price: { min: 19990, max: 19990 } },
    });
    index.upsert([{ ...stock[3]!, status: 'sold' }]);
    expect(ids(index, { filter: 'status = sold' })).toEqual([4]);
    expect(ids(index, { filter: 'price < 20000' })).toEqual([]);
    index.remove([4]);
    expect(index.size).toBe(stock.length - 1);
    expect(index.get(4)).toBeUndefined();
    expect(ids(index, { filter: 'make = Mazda' })).toEqual([5]);
    index.upsert([{ ...stock[3]!, id: 44 }]);
    expect(ids(index, { filter: 'make = Mazda', sort: ['price:asc'] })).toEqual([44, 5]);
    expect(index.get(44)).toMatchObject({ model: 'CX-5' });
  });

  it('lists its documents a page at a time and empties on clear', () => {
    const index = stockIndex();
    expect(index.documents({ offset: 2, limit: 2 })).toEqual({ results: [stock[2], stock[3]], offset: 2, limit: 2, total: stock.length });
    expect(index.memoryEstimateBytes()).toBeGreaterThan(0);
    index.clear();
    expect(index.size).toBe(0);
    expect(index.search({ q: 'toyota', facets: ['make'] })).toMatchObject({
      hits: [],
      estimatedTotalHits: 0,
      facetDistribution: { make: {} },
    });
    index.upsert(stock.slice(0, 2));
    expect(ids(index, { q: 'toyota' })).toEqual([1, 2]);
  });

  it('keeps the same answers when every car is re-sent (a dealer feed re-import)', () => {
    const index = stockIndex();
    const before = index.search({ q: 'suv', facets: ['make', 'price'], sort: ['price:asc'] }, siteOne);
    index.upsert(stock.map((doc) => ({ ...doc })));
    const after = index.search({ q: 'suv', facets: ['make', 'price'], sort: ['price:asc'] }, siteOne);
    expect({ ...after, processingTimeMs: 0 }).toEqual({ ...before, processingTimeMs: 0 });
  });
});
