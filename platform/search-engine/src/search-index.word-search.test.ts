import { describe, expect, it } from 'vitest';
import { parseFilter } from './filter-parser';
import { SearchIndex } from './search-index';
import type { Doc, SearchParams } from './search-types';
import { ids, settings, siteOne, stock, stockIndex } from './testing/test-stock';

/*
 * Finding cars by the words a shopper types (typos, accents, stock numbers, words run together or
 * apart), how the matches rank, and the matched words highlighted. Facet counts, sorting, pages,
 * errors and stock updates are in search-index.results.test.ts.
 */

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
