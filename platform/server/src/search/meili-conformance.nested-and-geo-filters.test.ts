import { describe, expect, it } from 'vitest';
import { ids, parseError, searchError } from '../testing/meili-filter-errors';
import { geoDistanceMeters, matchesFilter } from '@dealer/search-engine/filter-evaluator';
import { FilterSyntaxError, parseFilter } from '@dealer/search-engine/filter-parser';
import { SearchIndex } from '@dealer/search-engine/search-index';
import type { Doc } from '@dealer/search-engine/search-types';

/*
 * Filters as Meilisearch v1.16 answers them on nested fields and geo points, on its own test
 * documents (meilisearch/tests/common), with its messages (filter-parser's snapshots). How deep
 * and how long a filter may be is in meili-conformance.filter-limits.test.ts.
 */

describe("nested fields (Meilisearch's NESTED_DOCUMENTS)", () => {
  const documents: Doc[] = [
    {
      id: 852,
      father: 'jean',
      mother: 'michelle',
      doggos: [
        { name: 'bobby', age: 2 },
        { name: 'buddy', age: 4 },
      ],
      cattos: 'pésti',
    },
    { id: 654, father: 'pierre', mother: 'sabine', doggos: [{ name: 'gros bill', age: 8 }], cattos: ['simba', 'pestiféré'] },
    { id: 750, father: 'romain', mother: 'michelle', cattos: ['enigma'] },
    {
      id: 951,
      father: 'jean-baptiste',
      mother: 'sophie',
      doggos: [
        { name: 'turbo', age: 5 },
        { name: 'fast', age: 6 },
      ],
      cattos: ['moumoute', 'gomez'],
    },
  ];
  const index = new SearchIndex('nested', {
    filterableAttributes: ['father', 'doggos', 'cattos'],
    sortableAttributes: [],
    searchableAttributes: ['*'],
  });
  index.upsert(documents);

  it.each<[string, (string | number)[]]>([
    ['cattos = pésti', [852]],
    ['doggos.age > 5', [654, 951]],
    ['doggos.age = 5', [951]],
    ['doggos.age 3 TO 4', [852]],
    ['doggos.name = "gros bill"', [654]],
    ['doggos.name IN [bobby, turbo]', [852, 951]],
    ['doggos.age EXISTS', [852, 654, 951]],
    ['doggos.age NOT EXISTS', [750]],
    ['doggos EXISTS', [852, 654, 951]],
    ['doggos = bobby', []],
    ['doggos.age != 2', [654, 750, 951]],
  ])('a filterable parent makes its fields filterable: %s', (filter, expected) => {
    expect(ids(index, { filter })).toEqual(expected);
  });

  it('counts the values of a nested field as a facet, with its stats', () => {
    const response = index.search({ facets: ['doggos.name', 'doggos.age'], limit: 0 });
    expect(response.facetDistribution).toEqual({
      'doggos.name': { bobby: 1, buddy: 1, fast: 1, 'gros bill': 1, turbo: 1 },
      'doggos.age': { 2: 1, 4: 1, 5: 1, 6: 1, 8: 1 },
    });
    expect(response.facetStats).toEqual({ 'doggos.age': { min: 2, max: 8 } });
    expect(index.search({ filter: 'father = jean', facets: ['doggos.name'], limit: 0 }).facetDistribution).toEqual({
      'doggos.name': { bobby: 1, buddy: 1 },
    });
  });

  it('finds a flat "doggos.age" key the same way, as Meilisearch flattens documents', () => {
    const flat = new SearchIndex('flat', { filterableAttributes: ['doggos'], sortableAttributes: [], searchableAttributes: ['*'] });
    flat.upsert([
      ...documents,
      { id: 1, 'doggos.age': 3 },
      { id: 2, doggos: { age: 3 } },
      { id: 3, 'doggos.age': [3, 9], doggos: [{ age: 1 }] },
    ]);
    expect(ids(flat, { filter: 'doggos.age = 3' })).toEqual([1, 2, 3]);
    expect(ids(flat, { filter: 'doggos.age = 1 AND doggos.age = 9' })).toEqual([3]);
    expect(flat.search({ facets: ['doggos.age'], limit: 0 }).facetDistribution).toEqual({
      'doggos.age': { 1: 1, 2: 1, 3: 3, 4: 1, 5: 1, 6: 1, 8: 1, 9: 1 },
    });
  });

  it('reads IS NULL and IS EMPTY on the value of a key, also inside an array of objects, not on an item of an array', () => {
    const docs: Doc[] = [
      { id: 1, doggos: [{ age: null }, { age: 5 }] },
      { id: 2, doggos: [{ age: [] }] },
      { id: 3, doggos: [] },
      { id: 4, doggos: [{ name: 'rex' }] },
      { id: 5, doggos: { age: '' } },
      { id: 6, doggos: [{ age: [null] }, { age: {} }] },
      { id: 7, tags: [null, []] },
    ];
    const presence = new SearchIndex('presence', {
      filterableAttributes: ['doggos', 'tags'],
      sortableAttributes: [],
      searchableAttributes: ['*'],
    });
    presence.upsert(docs);
    const cases: [string, number[]][] = [
      ['doggos.age IS NULL', [1]],
      ['doggos.age = 5 AND doggos.age IS NULL', [1]],
      ['doggos.age IS EMPTY', [2, 5, 6]],
      ['doggos IS EMPTY', [3]],
      ['doggos.age EXISTS', [1, 2, 5, 6]],
      ['doggos.name EXISTS', [4]],
      ['doggos.age IS NOT NULL', [2, 3, 4, 5, 6, 7]],
      ['tags IS NULL OR tags IS EMPTY', []],
      ['tags EXISTS', [7]],
    ];
    for (const [filter, expected] of cases) {
      expect(ids(presence, { filter }), filter).toEqual(expected);
      expect(
        docs.filter((doc) => matchesFilter(parseFilter(filter), doc)).map((doc) => doc.id),
        filter,
      ).toEqual(expected);
    }
  });

  it('refuses a field that no filterable attribute covers, and a parent of one that is', () => {
    const narrow = new SearchIndex('narrow', {
      filterableAttributes: ['doggos.name'],
      sortableAttributes: [],
      searchableAttributes: ['*'],
    });
    narrow.upsert(documents);
    expect(ids(narrow, { filter: 'doggos.name = bobby' })).toEqual([852]);
    for (const filter of ['doggos.age > 1', 'doggos EXISTS', 'doggos.named = x']) {
      expect(searchError(narrow, { filter }), filter).toMatchObject({
        code: 'invalid_search_filter',
        message: expect.stringMatching(/^Attribute `doggos(\.age|\.named)?` is not filterable\./),
      });
    }
    expect(searchError(narrow, { facets: ['doggos.age'] })).toMatchObject({ code: 'invalid_search_facets' });
  });
});

describe("geo filters (Meilisearch's GEO_DOCUMENTS)", () => {
  const documents: Doc[] = [
    {
      id: 1,
      name: 'Taco Truck',
      address: '444 Salsa Street, Burritoville',
      type: 'Mexican',
      rating: 9,
      _geo: { lat: 34.0522, lng: -118.2437 },
    },
    {
      id: 2,
      name: 'La Bella Italia',
      address: '456 Elm Street, Townsville',
      type: 'Italian',
      rating: 9,
      _geo: { lat: '45.4777599', lng: '9.1967508' },
    },
    { id: 3, name: 'Crêpe Truck', address: '2 Billig Avenue, Rouenville', type: 'French', rating: 10 },
  ];
  const index = new SearchIndex('geo', { filterableAttributes: ['_geo', 'type'], sortableAttributes: [], searchableAttributes: ['*'] });
  index.upsert(documents);

  it('measures distance as Meilisearch does (haversine, 6,371 km)', () => {
    // Meilisearch's bug_4640 snapshot: `_geoDistance` 9714063 from La Bella Italia to the Taco Truck.
    expect(Math.round(geoDistanceMeters([45.4777599, 9.1967508], [34.0522, -118.2437]))).toBe(9_714_063);
    expect(geoDistanceMeters([45.4777599, 9.1967508], [45.4777599, 9.1967508])).toBe(0);
  });

  it.each<[string, number[]]>([
    ['_geoRadius(45.472735, 9.184019, 10000)', [2]],
    ['_geoRadius(45.472735, 9.184019, 1000)', []],
    ['_geoRadius(45.4777599, 9.1967508, 0)', [2]],
    ['_geoRadius(45.472735, 9.184019, -5)', []],
    ['_geoRadius(34.0522,-118.2437,1)', [1]],
    ['NOT _geoRadius(45.472735, 9.184019, 10000)', [1, 3]],
    ['_geoBoundingBox([89, 179], [-89, -179])', [1, 2]],
    ['_geoBoundingBox([46, 10], [45, 9])', [2]],
    ['_geoBoundingBox([46, 9.1], [45, 9])', []],
    // Left east of right: the box crosses the antimeridian, so it holds everything outside 9.2..-118.
    ['_geoBoundingBox([50, -118], [30, 9.2])', [1]],
    ['_geoBoundingBox([50, -119], [30, 9.1])', [2]],
    ['_geoRadius(45.472735, 9.184019, 10000) OR type = French', [2, 3]],
  ])('%s → %j (a document without _geo never matches)', (filter, expected) => {
    expect(ids(index, { filter })).toEqual(expected);
    expect(documents.filter((doc) => matchesFilter(parseFilter(filter), doc)).map((doc) => doc.id)).toEqual(expected);
  });

  it('needs _geo to be filterable, as any attribute, checked after the other attributes', () => {
    const plain = new SearchIndex('plain', { filterableAttributes: ['type'], sortableAttributes: [], searchableAttributes: ['*'] });
    plain.upsert(documents);
    const notFilterable = (attribute: string) => ({
      code: 'invalid_search_filter',
      status: 400,
      message: expect.stringMatching(new RegExp(`^Attribute \`${attribute}\` is not filterable\\.`)),
    });
    expect(searchError(plain, { filter: '_geoRadius(45, 9, 10)' })).toMatchObject(notFilterable('_geo'));
    // Its coordinates are checked only once `_geo` is known filterable.
    expect(searchError(plain, { filter: '_geoBoundingBox([100, 9], [45, 9])' })).toMatchObject(notFilterable('_geo'));
    expect(searchError(plain, { filter: '_geoRadius(45, 9, 10) AND rating > 1' })).toMatchObject(notFilterable('rating'));
  });

  it.each([
    ['_geoRadius(-100, 150, 10)', 'Bad latitude `-100`. Latitude must be contained between -90 and 90 degrees. \n12:16'],
    ['_geoRadius(-90.0000001, 150, 10)', 'Bad latitude `-90.0000001`. Latitude must be contained between -90 and 90 degrees. \n12:23'],
    ['_geoRadius(-10, 250, 10)', 'Bad longitude `250`. Longitude must be contained between -180 and 180 degrees. \n17:20'],
    ['_geoRadius(-10, 180.000001, 10)', 'Bad longitude `180.000001`. Longitude must be contained between -180 and 180 degrees. \n17:27'],
    ['_geoRadius(1e400, 1, 1)', 'Non finite floats are not supported\n12:17'],
    [
      '_geoBoundingBox([-90.0000001, 150], [30, 10])',
      'Bad latitude `-90.0000001`. Latitude must be contained between -90 and 90 degrees. \n18:29',
    ],
    [
      '_geoBoundingBox([30, 10], [90.0000001, 150])',
      'Bad latitude `90.0000001`. Latitude must be contained between -90 and 90 degrees. \n28:38',
    ],
    [
      '_geoBoundingBox([-10, -180.000001], [30, 10])',
      'Bad longitude `-180.000001`. Longitude must be contained between -180 and 180 degrees. \n23:34',
    ],
    [
      '_geoBoundingBox([30, 10], [-10, 180.000001])',
      'Bad longitude `180.000001`. Longitude must be contained between -180 and 180 degrees. \n33:43',
    ],
    ['_geoBoundingBox([30, 10], [40, 20])', 'The top latitude `30` is below the bottom latitude `40`.\n32:34'],
  ])("refuses %s with Meilisearch's message", (filter, message) => {
    expect(searchError(index, { filter })).toMatchObject({ code: 'invalid_search_filter', status: 400, message: `${message} ${filter}` });
  });

  it.each([
    // Meilisearch's filter-parser snapshots.
    ['_geoRadius', 'The `_geoRadius` filter expects three arguments: `_geoRadius(latitude, longitude, radius)`.\n1:11'],
    ['_geoRadius = 12', 'The `_geoRadius` filter expects three arguments: `_geoRadius(latitude, longitude, radius)`.\n1:16'],
    [
      '_geoBoundingBox',
      'The `_geoBoundingBox` filter expects two pairs of arguments: `_geoBoundingBox([latitude, longitude], [latitude, longitude])`.\n1:16',
    ],
    [
      '_geoBoundingBox = 12',
      'The `_geoBoundingBox` filter expects two pairs of arguments: `_geoBoundingBox([latitude, longitude], [latitude, longitude])`.\n1:21',
    ],
    [
      '_geoBoundingBox(1.0, 1.0)',
      'The `_geoBoundingBox` filter expects two pairs of arguments: `_geoBoundingBox([latitude, longitude], [latitude, longitude])`.\n1:26',
    ],
    [
      '_geoPoint(12, 13, 14)',
      "`_geoPoint` is a reserved keyword and thus can't be used as a filter expression. Use the `_geoRadius(latitude, longitude, distance)` or `_geoBoundingBox([latitude, longitude], [latitude, longitude])` built-in rules to filter on `_geo` coordinates.\n1:22",
    ],
    [
      'position <= _geoPoint(12, 13, 14)',
      "`_geoPoint` is a reserved keyword and thus can't be used as a filter expression. Use the `_geoRadius(latitude, longitude, distance)` or `_geoBoundingBox([latitude, longitude], [latitude, longitude])` built-in rules to filter on `_geo` coordinates.\n13:34",
    ],
    [
      '_geoDistance(12, 13, 14)',
      "`_geoDistance` is a reserved keyword and thus can't be used as a filter expression. Use the `_geoRadius(latitude, longitude, distance)` or `_geoBoundingBox([latitude, longitude], [latitude, longitude])` built-in rules to filter on `_geo` coordinates.\n1:25",
    ],
    [
      'position <= _geoDistance(12, 13, 14)',
      "`_geoDistance` is a reserved keyword and thus can't be used as a filter expression. Use the `_geoRadius(latitude, longitude, distance)` or `_geoBoundingBox([latitude, longitude], [latitude, longitude])` built-in rules to filter on `_geo` coordinates.\n13:37",
    ],
    [
      '_geo(12, 13, 14)',
      "`_geo` is a reserved keyword and thus can't be used as a filter expression. Use the `_geoRadius(latitude, longitude, distance)` or `_geoBoundingBox([latitude, longitude], [latitude, longitude])` built-in rules to filter on `_geo` coordinates.\n1:17",
    ],
    [
      'position <= _geo(12, 13, 14)',
      "`_geo` is a reserved keyword and thus can't be used as a filter expression. Use the `_geoRadius(latitude, longitude, distance)` or `_geoBoundingBox([latitude, longitude], [latitude, longitude])` built-in rules to filter on `_geo` coordinates.\n13:29",
    ],
    ['position <= _geoRadius(12, 13, 14)', "The `_geoRadius` filter is an operation and can't be used as a value.\n13:35"],
    // Counted once the brackets are read: Meilisearch points past them.
    ['_geoRadius(1, 2)', 'The `_geoRadius` filter expects three arguments: `_geoRadius(latitude, longitude, radius)`.\n17:17'],
    [
      '_geoRadius(1, 2, 3, 4) AND x = 1',
      'The `_geoRadius` filter expects three arguments: `_geoRadius(latitude, longitude, radius)`.\n23:33',
    ],
    ['x = 1 OR _geoRadius (1, 2, 3)', 'The `_geoRadius` filter expects three arguments: `_geoRadius(latitude, longitude, radius)`.\n10:30'],
    ['_geoRadius(1, abc, 3)', 'The `_geoRadius` filter expects three arguments: `_geoRadius(latitude, longitude, radius)`.\n1:22'],
    [
      '_geoBoundingBox([1, 2], [3, 4, 5])',
      'The `_geoBoundingBox` filter expects two pairs of arguments: `_geoBoundingBox([latitude, longitude], [latitude, longitude])`.\n35:35',
    ],
  ])('reads %s as Meilisearch does', (filter, message) => {
    const error = parseError(filter);
    expect(error).toBeInstanceOf(FilterSyntaxError);
    expect(error.message).toBe(`${message} ${filter}`);
  });
});
