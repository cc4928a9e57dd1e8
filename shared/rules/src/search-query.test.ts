import { describe, expect, it } from 'vitest';
import {
  buildSearchQueries,
  facetFilterExpressions,
  pageCount,
  pageFromParam,
  parseRange,
  parseSearchState,
  quoteStockNumbers,
  searchSlugFilters,
  searchStateToParams,
  sortOptions,
  stripQuotes,
  type SearchState,
} from './search-query';

const facets = ['make', 'model', 'car_type', 'price', 'km'];
const empty: SearchState = { q: '', filters: {}, ranges: {}, sort: null, page: 1 };

describe('page number from the address (SPEC §5)', () => {
  it.each([
    ['2', 2],
    ['17', 17],
    ['1', 1],
    ['0', 1],
    ['-3', 1],
    ['2.5', 1],
    ['two', 1],
    ['', 1],
    [null, 1],
  ])('%j → page %i', (value, page) => expect(pageFromParam(value)).toBe(page));
});

describe('stock number search terms (SPEC §5)', () => {
  it.each([
    ['12345', '"12345"'],
    ['MMG34146', '"MMG34146"'],
    ['ab123', '"ab123"'],
    ['12', '12'],
    ['a1b2', 'a1b2'],
    ['corolla 2021', 'corolla "2021"'],
    ['  hilux   sr5  ', 'hilux sr5'],
    ['12-345', '12-345'],
  ])('%j → %j', (q, expected) => expect(quoteStockNumbers(q)).toBe(expected));
});

describe('filter values lose their quotes (SPEC §5)', () => {
  it.each([
    ['"Toyota"', 'Toyota'],
    ["O'Brien Motors", 'OBrien Motors'],
    ['Land "Cruiser', 'Land Cruiser'],
  ])('%j → %j', (value, expected) => expect(stripQuotes(value)).toBe(expected));
});

describe('ranges use the min:max form (SPEC §9)', () => {
  it.each([
    ['10000:50000', { min: 10000, max: 50000 }],
    [':50000', { min: null, max: 50000 }],
    ['10000:', { min: 10000, max: null }],
    [':', null],
    ['abc:def', null],
    ['10000', null],
    [null, null],
  ])('%j → %j', (value, range) => expect(parseRange(value)).toEqual(range));
});

describe('the search state lives in the address', () => {
  it('reads values, ranges, sort and page, and writes them back the same', () => {
    const params = new URLSearchParams(
      'q=hilux&make=Toyota&make=Mazda&model=%22HiLux%22&price=20000:60000&sort=price:asc&page=3&ignored=1',
    );
    const state = parseSearchState(params, facets);
    expect(state).toEqual({
      q: 'hilux',
      filters: { make: ['Toyota', 'Mazda'], model: ['HiLux'] },
      ranges: { price: { min: 20000, max: 60000 } },
      sort: 'price:asc',
      page: 3,
    });
    expect(parseSearchState(searchStateToParams(state), facets)).toEqual(state);
  });
  it('leaves page 1 and empty values out of the address', () => {
    expect(searchStateToParams(empty).toString()).toBe('');
  });
});

describe('facet filters', () => {
  it.each<[Pick<SearchState, 'filters' | 'ranges'>, string, string[]]>([
    [{ filters: { make: ['Toyota'] }, ranges: {} }, 'make', ['make = "Toyota"']],
    [{ filters: { make: ['Toyota', 'Kia'] }, ranges: {} }, 'make', ['make IN ["Toyota", "Kia"]']],
    [{ filters: {}, ranges: { price: { min: 1000, max: 2000 } } }, 'price', ['price 1000 TO 2000']],
    [{ filters: {}, ranges: { km: { min: null, max: 50000 } } }, 'km', ['km <= 50000']],
    [{ filters: {}, ranges: { year: { min: 2020, max: null } } }, 'year', ['year >= 2020']],
    [{ filters: {}, ranges: {} }, 'make', []],
  ])('%j on %s → %j', (state, facet, expected) => expect(facetFilterExpressions(state, facet)).toEqual(expected));
});

describe('the disjunctive multi-search (SPEC §7)', () => {
  const state: SearchState = {
    q: 'MMG34146',
    filters: { make: ['Toyota'], car_type: ['used'] },
    ranges: { price: { min: 10000, max: 40000 } },
    sort: null,
    page: 2,
  };
  const queries = buildSearchQueries({
    state,
    facets,
    indexUid: 'cars',
    hitsPerPage: 24,
    defaultSort: 'custom_rank:desc',
    extraFilters: ['body = "Ute"'],
  });

  it('sends one main query and one limit-1 query per facet', () => {
    expect(queries).toHaveLength(1 + facets.length);
    expect(queries[0]).toMatchObject({ indexUid: 'cars', q: '"MMG34146"', facets, sort: ['custom_rank:desc'], limit: 24, offset: 24 });
    expect(queries[0]!.filter).toEqual(['body = "Ute"', 'make = "Toyota"', 'car_type = "used"', 'price 10000 TO 40000']);
    for (const query of queries.slice(1)) expect(query).toMatchObject({ limit: 1, offset: 0 });
  });

  it.each(facets.map((facet, i) => [facet, i + 1] as const))('the %s query leaves out only its own filter', (facet, index) => {
    const query = queries[index]!;
    expect(query.facets).toEqual([facet]);
    const expected = queries[0]!.filter.filter((expression) => !expression.startsWith(`${facet} `));
    expect(query.filter).toEqual(expected);
  });

  it('leaves out cars priced 0 when sorting by price ascending (SPEC §9)', () => {
    const [main] = buildSearchQueries({
      state: { ...empty, sort: 'price:asc' },
      facets,
      indexUid: 'cars',
      hitsPerPage: 10,
      defaultSort: 'custom_rank:desc',
    });
    expect(main!.filter).toContain('price > 0');
    const [other] = buildSearchQueries({
      state: { ...empty, sort: 'price:desc' },
      facets,
      indexUid: 'cars',
      hitsPerPage: 10,
      defaultSort: 'custom_rank:desc',
    });
    expect(other!.filter).not.toContain('price > 0');
  });

  it('uses the dealer default sort when the shopper chose none', () => {
    const [main] = buildSearchQueries({
      state: empty,
      facets,
      indexUid: 'cars',
      hitsPerPage: 10,
      defaultSort: 'created_at_timestamp:desc',
    });
    expect(main!.sort).toEqual(['created_at_timestamp:desc']);
  });
});

describe('pages and sort options', () => {
  it.each([
    [0, 24, 0],
    [1, 24, 1],
    [24, 24, 1],
    [25, 24, 2],
    [1147, 100, 12],
  ])('%i results at %i a page → %i pages', (total, limit, pages) => expect(pageCount(total, limit)).toBe(pages));

  it('offers the SPEC §9 sort options, Kms only where asked', () => {
    expect(sortOptions({ withKms: false }).map((option) => option.label)).toEqual([
      'Most Relevant',
      'Latest',
      'Highest Price',
      'Lowest Price',
    ]);
    expect(sortOptions({ withKms: true }).map((option) => option.label)).toEqual([
      'Most Relevant',
      'Latest',
      'Highest Price',
      'Lowest Price',
      'Highest Kms',
      'Lowest Kms',
    ]);
    expect(sortOptions({ withKms: false })[0]!.value).toBe('custom_rank:desc');
  });
});

describe('filters implied by the search path', () => {
  it.each([
    ['ute', ['body = "Ute"']],
    ['suv', ['body = "SUV"']],
    ['4x4', ['drive = "4x4"']],
    ['used-cars', ['car_type = "used"']],
    ['new-and-used-motorcycles', ['car_type IN ["new", "used"]']],
    ['new-used-and-demo-cars', []],
    ['subscription-cars', []],
    ['pre-owned', []],
  ])('/search/%s → %j', (slug, filters) => expect(searchSlugFilters(slug)).toEqual(filters));
});
