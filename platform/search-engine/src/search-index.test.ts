import { describe, expect, it } from 'vitest';
import { parseFilter } from './filter-parser';
import { MeiliError } from './search-errors';
import type { IndexSettings } from './index-settings';
import { SearchIndex } from './search-index';
import type { Doc, SearchParams } from './search-types';

const settings: IndexSettings = {
  filterableAttributes: ['site_id', 'make', 'model', 'car_type', 'price', 'km', 'year', 'colour', 'categories', 'status'],
  sortableAttributes: ['price', 'km', 'year', 'custom_rank'],
  searchableAttributes: ['name', 'make', 'model', 'badge', 'stocknum', 'colour', 'categories'],
};

type Car = {
  id: number;
  make: string;
  model: string;
  car_type: string;
  price?: number | null;
  km: number;
  year: number;
  colour: string;
  stocknum: string;
  categories: string[];
  badge?: string;
  custom_rank?: number;
  site_id?: number;
};

const car = (id: number, fields: Omit<Car, 'id'>): Doc => ({
  id,
  site_id: 1,
  name: `${fields.year} ${fields.make} ${fields.model}${fields.badge ? ` ${fields.badge}` : ''}`,
  status: 'in_stock',
  ...fields,
});

const stock: Doc[] = [
  car(1, {
    make: 'Toyota',
    model: 'Corolla',
    badge: 'Ascent Sport',
    car_type: 'new',
    price: 30990,
    km: 10,
    year: 2025,
    colour: 'White',
    stocknum: 'MMG10001',
    categories: ['Hatch', 'Family'],
    custom_rank: 5,
  }),
  car(2, {
    make: 'Toyota',
    model: 'RAV4',
    badge: 'GX',
    car_type: 'used',
    price: 38990,
    km: 42000,
    year: 2021,
    colour: 'Silver',
    stocknum: 'MMG10002',
    categories: ['SUV', 'Family'],
    custom_rank: 9,
  }),
  car(3, {
    make: 'Toyota',
    model: 'LandCruiser',
    badge: 'Sahara',
    car_type: 'demo',
    price: 129990,
    km: 1500,
    year: 2024,
    colour: 'Black',
    stocknum: 'MMG10003',
    categories: ['SUV', '4x4'],
    custom_rank: 9,
  }),
  car(4, {
    make: 'Mazda',
    model: 'CX-5',
    badge: 'Touring',
    car_type: 'used',
    price: 27990,
    km: 61000,
    year: 2019,
    colour: 'Red',
    stocknum: 'MMG20004',
    categories: ['SUV'],
    custom_rank: 3,
  }),
  car(5, {
    make: 'Mazda',
    model: 'BT-50',
    car_type: 'new',
    price: null,
    km: 5,
    year: 2025,
    colour: 'White',
    stocknum: 'MMG20005',
    categories: ['Ute', '4x4'],
  }),
  car(6, {
    make: 'Kia',
    model: 'Sportage',
    badge: 'S',
    car_type: 'new',
    price: 36990,
    km: 10,
    year: 2025,
    colour: 'White',
    stocknum: 'MMG30006',
    categories: ['SUV'],
    custom_rank: 1,
  }),
  car(7, {
    make: 'Kia',
    model: 'Picanto',
    badge: 'GT-Line',
    car_type: 'used',
    km: 80000,
    year: 2017,
    colour: 'Red',
    stocknum: 'MMG30007',
    categories: ['Hatch'],
    custom_rank: 2,
  }),
  car(8, {
    make: 'Škoda',
    model: 'Octavia',
    badge: 'RS',
    car_type: 'used',
    price: 27990,
    km: 52000,
    year: 2020,
    colour: 'Blue',
    stocknum: 'MMG40008',
    categories: ['Sedan'],
    custom_rank: 4,
  }),
  // Another dealer's car: the site filter keeps it out.
  car(9, {
    make: 'Toyota',
    model: 'Corolla',
    car_type: 'used',
    price: 9990,
    km: 190000,
    year: 2011,
    colour: 'Silver',
    stocknum: 'HUC00009',
    categories: ['Hatch'],
    site_id: 2,
  }),
];

const siteOne = parseFilter('site_id = 1');

function stockIndex(overrides: Partial<IndexSettings> = {}) {
  const index = new SearchIndex('cars', { ...settings, ...overrides });
  index.upsert(stock);
  return index;
}

const ids = (index: SearchIndex, params: SearchParams) => index.search(params, siteOne).hits.map((hit) => hit.id);

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

describe('searching by words', () => {
  const index = stockIndex();

  it.each<[string, string, number[]]>([
    ['a make', 'toyota', [1, 2, 3]],
    ['the start of a make as it is typed', 'toyo', [1, 2, 3]],
    ['make and model', 'mazda cx', [4]],
    ['a model with a hyphen, as two words', 'BT 50', [5]],
    ['a word in capitals', 'SPORTAGE', [6]],
    ['without the accent', 'skoda', [8]],
    ['with the accent', 'škoda octavia', [8]],
    ['one typo in a 5+ letter word', 'toyta', [1, 2, 3]],
    ['two swapped letters (one typo)', 'sportgae', [6]],
    ['one typo in a word being typed', 'corlla', [1]],
    ['two typos in a 9+ letter word', 'landcrusr', [3]],
    ['no typo allowed in a short word', 'kai', []],
    ['no typo allowed in a stock number', 'MMG10009', []],
    ['a stock number', 'MMG10003', [3]],
    ['a stock number as it is typed', 'mmg2000', [4, 5]],
    ['a quoted stock number: that one exactly', '"MMG1000"', []],
    ['a quoted stock number', '"mmg10002"', [2]],
    ['every word must match', 'toyota red', []],
    ['a category', 'ute', [5]],
    ['nothing but spaces', '   ', [1, 2, 3, 4, 5, 6, 7, 8]],
  ])('finds %s: %j', (_case, q, expected) => {
    expect(ids(index, { q, limit: 100, matchingStrategy: 'all' }).sort((a, b) => Number(a) - Number(b))).toEqual(expected);
  });

  it.each<[string, string, SearchParams, number[]]>([
    ['a car named with the word before one that only has it as colour', 'white', {}, [1, 5, 6]],
    ['no typo before one typo', 'corolla', {}, [1]],
    ['words side by side before words apart', 'toyota sahara', {}, [3]],
    ['a model before a colour, then the sort', 'red', { sort: ['price:asc'] }, [4, 7]],
    ['by relevance first, then by price among equals', 'suv', { sort: ['price:desc'] }, [3, 2, 6, 4]],
  ])('ranks %s (%j)', (_case, q, params, expected) => {
    expect(ids(index, { q, limit: 100, matchingStrategy: 'all', ...params })).toEqual(expected);
  });

  it.each<[string, string, Doc[], number[]]>([
    [
      'the exact word before a longer word it starts',
      'ranger',
      [
        { id: 1, name: 'Ford Rangers' },
        { id: 2, name: 'Ford Ranger' },
      ],
      [2, 1],
    ],
    [
      'fewer typos first',
      'ranger',
      [
        { id: 1, name: 'Ford Rangar' },
        { id: 2, name: 'Ford Rangers' },
      ],
      [2, 1],
    ],
    [
      'words side by side before words apart',
      'ford ranger',
      [
        { id: 1, name: 'Ford Everest', model: 'Ranger' },
        { id: 2, name: 'Ford Ranger' },
      ],
      [2, 1],
    ],
    [
      'two words written as one ("land cruiser" for LandCruiser)',
      'land cruiser',
      [
        { id: 1, name: 'Toyota LandCruiser' },
        { id: 2, name: 'Land Rover Defender' },
      ],
      [1],
    ],
    [
      'one word written as two ("cx5" for CX-5)',
      'mazda cx5',
      [
        { id: 1, name: 'Mazda CX-5' },
        { id: 2, name: 'Mazda CX-30' },
        { id: 3, name: 'Mazda 5' },
      ],
      [1],
    ],
    [
      'a model number written apart ("mazda 3" for Mazda3)',
      'mazda 3',
      [
        { id: 1, name: 'Mazda CX-3' },
        { id: 2, name: 'Mazda Mazda3' },
      ],
      [2, 1],
    ],
  ])('ranks %s', (_case, q, docs, expected) => {
    const cars = new SearchIndex('cars', settings);
    cars.upsert(docs);
    expect(cars.search({ q, matchingStrategy: 'all' }).hits.map((hit) => hit.id)).toEqual(expected);
  });

  it('finds the same cars by words across the whole platform as dealer by dealer', () => {
    // Over 4096 candidates the word postings narrow the search first; one dealer's cars are read one by one.
    const makes = ['Toyota', 'Mazda', 'Kia', 'Hyundai', 'Ford', 'Volkswagen', 'Mitsubishi'];
    const models = ['Corolla', 'HiLux', 'CX-5', 'BT-50', 'Sportage', 'Tucson', 'Ranger', 'Golf', 'Triton', 'LandCruiser'];
    const colours = ['White', 'Silver', 'Red', 'Blue', 'Black'];
    const cars = new SearchIndex('cars', { ...settings, maxTotalHits: 10_000 });
    const docs = Array.from({ length: 6000 }, (_, i) => ({
      id: i + 1,
      site_id: 1 + (i % 4),
      name: `${2010 + (i % 15)} ${makes[i % 7]} ${models[(i * 7) % 10]}`,
      colour: colours[(i * 3) % 5],
      stocknum: `STK${String(i).padStart(5, '0')}`,
    }));
    cars.upsert(docs);
    for (const q of [
      'toyota',
      'corola',
      'cx5',
      'land cruiser',
      'hilu',
      'red triton',
      'mazda bt',
      '"STK00042"',
      'stk0004',
      'golf 2011',
      'volkswagon',
    ]) {
      const everywhere = cars.search({ q, limit: 10_000 }).hits.map((hit) => hit.id);
      const dealerByDealer = [1, 2, 3, 4].flatMap((site) =>
        cars.search({ q, limit: 10_000 }, parseFilter(`site_id = ${site}`)).hits.map((hit) => hit.id),
      );
      expect(everywhere.length, q).toBeGreaterThan(0);
      expect([...everywhere].sort(), q).toEqual(dealerByDealer.sort());
    }
  });

  it('ranks the make named in the car name before the make named only in a colour', () => {
    const cars = new SearchIndex('cars', settings);
    cars.upsert([
      { id: 1, name: 'Holden Barina', colour: 'Orange', make: 'Holden' },
      { id: 2, name: 'Ford Focus', colour: 'Orange', make: 'Ford' },
      { id: 3, name: 'Orange Edition Ford Fiesta', colour: 'Blue', make: 'Ford' },
    ]);
    expect(cars.search({ q: 'orange' }).hits.map((hit) => hit.id)).toEqual([3, 1, 2]);
  });

  it('finds a newly added car by its words and forgets a removed one', () => {
    const cars = stockIndex();
    cars.upsert([{ ...stock[0]!, id: 20, name: '2025 Toyota Yaris Cross', model: 'Yaris Cross', stocknum: 'MMG99999' }]);
    expect(ids(cars, { q: 'yaris' })).toEqual([20]);
    expect(ids(cars, { q: '"MMG99999"' })).toEqual([20]);
    cars.remove([20]);
    expect(ids(cars, { q: 'yaris' })).toEqual([]);
    cars.upsert([{ ...stock[0]!, id: 21, name: '2025 Toyota Yaris', model: 'Yaris', stocknum: 'MMG99999' }]);
    expect(ids(cars, { q: '"MMG99999"' })).toEqual([21]);
  });
});

describe('highlighting the words searched for', () => {
  const index = stockIndex();

  it('wraps matched words in <em> in _formatted, and only the typed part of a longer word', () => {
    const [hit] = index.search({ q: 'land cruis', attributesToHighlight: ['name', 'model'], filter: 'make = Toyota' }, siteOne).hits;
    expect(hit!._formatted).toMatchObject({ name: '2024 Toyota <em>LandCruis</em>er Sahara', model: '<em>LandCruis</em>er' });
    const [cx] = index.search({ q: 'mazda cx', attributesToHighlight: ['name', 'make', 'price'] }, siteOne).hits;
    // As Meilisearch: numbers come back as strings; attributes not highlighted are left as they are.
    expect(cx!._formatted).toMatchObject({
      name: '2019 <em>Mazda</em> <em>CX</em>-5 Touring',
      make: '<em>Mazda</em>',
      model: 'CX-5',
      price: '27990',
      id: '4',
      categories: ['SUV'],
    });
  });

  it('uses the tags asked for, marks typo matches whole and leaves the document itself alone', () => {
    const [hit] = index.search({ q: 'toyta cor', attributesToHighlight: ['*'], highlightPreTag: '[', highlightPostTag: ']' }, siteOne).hits;
    expect(hit!._formatted).toMatchObject({ name: '2025 [Toyota] [Cor]olla Ascent Sport', make: '[Toyota]', model: '[Cor]olla' });
    expect(hit!.name).toBe('2025 Toyota Corolla Ascent Sport');
    expect(stock[0]).not.toHaveProperty('_formatted');
  });

  it('leaves _formatted out unless highlighting is asked for', () => {
    expect(index.search({ q: 'toyota' }, siteOne).hits[0]).not.toHaveProperty('_formatted');
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
