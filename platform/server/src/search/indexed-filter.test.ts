import { describe, expect, it } from 'vitest';
import { createRng, type Rng } from '@dealer/demo/prng';
import { matchesFilter } from '@dealer/search-engine/filter-evaluator';
import { parseFilter, type FilterNode } from '@dealer/search-engine/filter-parser';
import { SearchIndex } from '@dealer/search-engine/search-index';
import type { Doc } from '@dealer/search-engine/search-types';

/*
 * The indexed filter must mean exactly what the per-document evaluator means. Random documents
 * (mixed types, arrays, nulls, missing and empty values, nested objects) and random filters: the
 * index's answer must equal a full scan with matchesFilter.
 */

const attributes = ['colour', 'price', 'certified', 'tags', 'badge', 'location.name', 'seats'];

const stringValues = ['Red', ' red ', 'RED', 'Blue', 'blue', '', '  ', 'true', 'False', '5', '5.0', 'Land Rover', 'ÉLAN'];
const numberValues = [0, -0, 1, 5, 5.5, -3, 10, 20, 100, 1e6];

function randomScalar(rng: Rng): unknown {
  const roll = rng.next();
  if (roll < 0.45) return rng.pick(stringValues);
  if (roll < 0.8) return rng.pick(numberValues);
  return rng.chance(0.5);
}

function randomValue(rng: Rng, depth = 0): unknown {
  const roll = rng.next();
  if (roll < 0.1) return undefined;
  if (roll < 0.18) return null;
  if (roll < 0.22) return [];
  if (roll < 0.25) return {};
  if (roll < 0.4 && depth < 2)
    return Array.from({ length: rng.int(1, 4) }, () => (rng.chance(0.15) ? randomValue(rng, depth + 1) : randomScalar(rng)));
  return randomScalar(rng);
}

function randomDoc(rng: Rng, id: number): Doc {
  const doc: Doc = { id };
  for (const attribute of attributes) {
    if (attribute === 'location.name') {
      const roll = rng.next();
      if (roll < 0.6) doc.location = { name: randomValue(rng) };
      else if (roll < 0.7) doc.location = null;
      else if (roll < 0.8) doc['location.name'] = randomValue(rng);
      continue;
    }
    const value = randomValue(rng);
    if (value !== undefined) doc[attribute] = value;
  }
  // Mostly one site and listed, so some values are far more common than others (bitset postings).
  doc.site_id = rng.chance(0.7) ? 1 : rng.int(2, 9);
  doc.listed = rng.chance(0.85);
  return doc;
}

const filterValues = [
  'red',
  'Red ',
  'BLUE',
  '5',
  '5.0',
  ' 5 ',
  '',
  'true',
  'FALSE',
  '10',
  '-3',
  '0',
  '1e6',
  'abc',
  '0x5',
  'land rover',
  'élan',
  'ÉLAN',
  'Infinity',
];
const indexedAttributes = [...attributes, 'site_id', 'listed'];

function randomLeaf(rng: Rng, attributes: readonly string[] = indexedAttributes): FilterNode {
  const attribute = rng.pick(attributes);
  const roll = rng.int(0, 7);
  switch (roll) {
    case 0:
    case 1:
      return { type: 'compare', attribute, op: rng.pick(['=', '!='] as const), value: rng.pick(filterValues) };
    case 2:
      return { type: 'compare', attribute, op: rng.pick(['>', '>=', '<', '<='] as const), value: rng.pick(filterValues) };
    case 3:
      return { type: 'range', attribute, from: rng.pick(filterValues), to: rng.pick(filterValues) };
    case 4:
      return { type: 'in', attribute, values: Array.from({ length: rng.int(0, 3) }, () => rng.pick(filterValues)) };
    case 5:
      return { type: 'exists', attribute };
    case 6:
      return { type: 'null', attribute };
    default:
      return { type: 'empty', attribute };
  }
}

function randomFilter(rng: Rng, depth = 0): FilterNode {
  const roll = rng.next();
  if (depth >= 3 || roll < 0.4) return randomLeaf(rng);
  if (roll < 0.55) return { type: 'not', child: randomFilter(rng, depth + 1) };
  const children = Array.from({ length: rng.int(0, 4) }, () => randomFilter(rng, depth + 1));
  return { type: roll < 0.8 ? 'and' : 'or', children };
}

const scan = (docs: Doc[], filter: FilterNode) => docs.filter((doc) => matchesFilter(filter, doc)).map((doc) => doc.id);

const indexedIds = (index: SearchIndex, filter: FilterNode) =>
  index.search({ filter: null, limit: 1_000_000 }, filter).hits.map((doc) => doc.id);

describe('filtering with the index means what filtering each car means', () => {
  it.each([
    ['a small dealer (every posting a short list)', 1, 300],
    ['a big group (common values kept as bitsets)', 2, 4000],
  ])('%s: random filters agree with a full scan', (_case, seed, count) => {
    const rng = createRng(seed);
    const docs = Array.from({ length: count }, (_, i) => randomDoc(rng, i + 1));
    const index = new SearchIndex('cars', {
      filterableAttributes: indexedAttributes,
      sortableAttributes: [],
      searchableAttributes: [],
      maxTotalHits: 1_000_000,
    });
    index.upsert(docs);
    for (let round = 0; round < 400; round++) {
      const filter = randomFilter(rng);
      expect(indexedIds(index, filter), JSON.stringify(filter)).toEqual(scan(docs, filter));
    }
  });

  it('agrees under a site filter, where few candidates are tested one by one', () => {
    const rng = createRng(7);
    const docs = Array.from({ length: 3000 }, (_, i) => randomDoc(rng, i + 1));
    const index = new SearchIndex('cars', {
      filterableAttributes: indexedAttributes,
      sortableAttributes: [],
      searchableAttributes: [],
      maxTotalHits: 1_000_000,
    });
    index.upsert(docs);
    for (let round = 0; round < 300; round++) {
      const base: FilterNode = {
        type: 'and',
        children: [{ type: 'compare', attribute: 'site_id', op: '=', value: String(rng.int(2, 9)) }, randomLeaf(rng)],
      };
      const filter = randomFilter(rng);
      const both: FilterNode = { type: 'and', children: [base, filter] };
      expect(
        index.search({ limit: 1_000_000 }, { type: 'and', children: [base, filter] }).hits.map((doc) => doc.id),
        JSON.stringify(both),
      ).toEqual(scan(docs, both));
    }
  });

  it('agrees with filters written as text, the way shoppers send them', () => {
    const rng = createRng(11);
    const docs = Array.from({ length: 1500 }, (_, i) => randomDoc(rng, i + 1));
    const index = new SearchIndex('cars', {
      filterableAttributes: indexedAttributes,
      sortableAttributes: [],
      searchableAttributes: [],
      maxTotalHits: 1_000_000,
    });
    index.upsert(docs);
    const filters = [
      'colour = red',
      'colour != "Land Rover"',
      'price 5 TO 20',
      'price > 5 AND NOT colour IN [red, blue]',
      'tags IS EMPTY OR tags IS NULL',
      'badge NOT EXISTS',
      'location.name = 5 OR location.name IS NOT NULL',
      'certified = true AND (price < 1 OR price >= 100)',
      'listed = true AND site_id = 1 AND (colour = red OR seats > 5)',
      'seats = "ÉLAN"',
      'colour IN []',
    ];
    for (const text of filters) {
      const filter = parseFilter(text);
      expect(indexedIds(index, filter), text).toEqual(scan(docs, filter));
      expect(
        index.search({ filter: text, limit: 1_000_000 }).hits.map((doc) => doc.id),
        text,
      ).toEqual(scan(docs, filter));
    }
  });

  it('stays in agreement while cars are added, changed and sold', () => {
    const rng = createRng(23);
    let docs = Array.from({ length: 2500 }, (_, i) => randomDoc(rng, i + 1));
    const index = new SearchIndex('cars', {
      filterableAttributes: indexedAttributes,
      sortableAttributes: [],
      searchableAttributes: [],
      maxTotalHits: 1_000_000,
    });
    index.upsert(docs);
    let nextId = docs.length + 1;
    for (let round = 0; round < 150; round++) {
      const changed = Array.from({ length: rng.int(1, 40) }, () =>
        randomDoc(rng, rng.chance(0.5) ? (rng.pick(docs).id as number) : nextId++),
      );
      const removed = Array.from({ length: rng.int(0, 40) }, () => rng.pick(docs).id);
      index.upsert(changed);
      index.remove(removed);
      const byId = new Map(docs.map((doc) => [doc.id, doc]));
      for (const doc of changed) byId.set(doc.id, doc);
      for (const id of removed) byId.delete(id);
      docs = [...byId.values()];
      expect(index.size).toBe(docs.length);
      const filter = randomFilter(rng);
      // Slots are reused, so compare as sets.
      expect(new Set(indexedIds(index, filter)), JSON.stringify(filter)).toEqual(new Set(scan(docs, filter)));
    }
  });
});

/*
 * Nested fields and geo points: arrays of objects, a flat `doggos.age` key beside a `doggos` object,
 * null and empty values at every level, `_geo` as numbers, numeric strings or nonsense, some across
 * the antimeridian. `doggos.age` and `_geo` are indexed; `doggos.name` is read through its
 * filterable parent.
 */
const nestedAttributes = ['doggos', 'doggos.age', 'doggos.name'];

function randomDog(rng: Rng): unknown {
  const roll = rng.next();
  if (roll < 0.1) return null;
  if (roll < 0.15) return {};
  if (roll < 0.2) return randomScalar(rng);
  const dog: Record<string, unknown> = {};
  if (rng.chance(0.8)) dog.age = randomValue(rng);
  if (rng.chance(0.7)) dog.name = randomValue(rng);
  return dog;
}

function randomPoint(rng: Rng): unknown {
  const roll = rng.next();
  if (roll < 0.15) return undefined;
  if (roll < 0.2) return null;
  if (roll < 0.25) return { lat: 'north', lng: 151 };
  const [lat, lng] = rng.chance(0.8)
    ? [rng.float(-34, -33.5), rng.float(150.8, 151.4)]
    : [rng.float(-20, -10), rng.pick([rng.float(179.5, 180), rng.float(-180, -179.5)])];
  return rng.chance(0.3) ? { lat: String(lat), lng: String(lng) } : { lat, lng };
}

function randomNestedDoc(rng: Rng, id: number): Doc {
  const doc: Doc = { id, site_id: rng.chance(0.7) ? 1 : 2 };
  const roll = rng.next();
  if (roll < 0.5) doc.doggos = Array.from({ length: rng.int(0, 3) }, () => (rng.chance(0.1) ? [randomDog(rng)] : randomDog(rng)));
  else if (roll < 0.65) doc.doggos = randomDog(rng);
  else if (roll < 0.75) doc.doggos = randomValue(rng, 2);
  if (rng.chance(0.15)) doc['doggos.age'] = randomValue(rng);
  const point = randomPoint(rng);
  if (point !== undefined) doc._geo = point;
  return doc;
}

function randomNestedLeaf(rng: Rng): FilterNode {
  const roll = rng.next();
  if (roll < 0.12)
    return {
      type: 'geoRadius',
      lat: rng.float(-34, -33.5),
      lng: rng.float(150.8, 151.4),
      radius: rng.pick([0, 500, 5_000, 20_000, 60_000, -1]),
    };
  if (roll < 0.16)
    return { type: 'geoRadius', lat: rng.float(-20, -10), lng: rng.pick([180, -180, 179.9]), radius: rng.pick([50_000, 500_000]) };
  if (roll < 0.25) {
    const [bottom, top] = [rng.float(-35, -10), rng.float(-35, -10)].sort((a, b) => a - b) as [number, number];
    const [left, right] = rng.chance(0.3)
      ? [rng.float(179, 180), rng.float(-180, -179)]
      : [rng.float(150.8, 151.4), rng.float(150.8, 151.4)];
    return { type: 'geoBoundingBox', top, right, bottom, left };
  }
  return randomLeaf(rng, nestedAttributes);
}

function randomNestedFilter(rng: Rng, depth = 0): FilterNode {
  const roll = rng.next();
  if (depth >= 3 || roll < 0.4) return randomNestedLeaf(rng);
  if (roll < 0.55) return { type: 'not', child: randomNestedFilter(rng, depth + 1) };
  const children = Array.from({ length: rng.int(0, 4) }, () => randomNestedFilter(rng, depth + 1));
  return { type: roll < 0.8 ? 'and' : 'or', children };
}

describe('filtering nested fields and geo points with the index means what filtering each document means', () => {
  it.each([
    ['a few documents', 3, 400],
    ['a thousand documents', 5, 1000],
  ])('%s: random filters agree with a full scan', (_case, seed, count) => {
    const rng = createRng(seed);
    const docs = Array.from({ length: count }, (_, i) => randomNestedDoc(rng, i + 1));
    const index = new SearchIndex('nested', {
      filterableAttributes: ['doggos', 'doggos.age', '_geo', 'site_id'],
      sortableAttributes: [],
      searchableAttributes: [],
    });
    index.upsert(docs);
    for (let round = 0; round < 400; round++) {
      const filter = randomNestedFilter(rng);
      expect(indexedIds(index, filter), JSON.stringify(filter)).toEqual(scan(docs, filter));
      const scoped: FilterNode = { type: 'and', children: [{ type: 'compare', attribute: 'site_id', op: '=', value: '2' }, filter] };
      expect(indexedIds(index, scoped), JSON.stringify(scoped)).toEqual(scan(docs, scoped));
    }
  });
});
