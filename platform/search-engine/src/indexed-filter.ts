import { emptySet, filterSet, intersect, minus, sizeOf, union, type DocSet } from './bitset';
import { manyValues, type FacetIndex } from './facet-index';
import { geoHolds, matchesFilter, Presence } from './filter-evaluator';
import type { FilterNode, GeoFilterNode } from './filter-parser';

/** What the evaluator reads from the index. */
export type FilterContext = {
  readonly facets: ReadonlyMap<string, FacetIndex>;
  readonly docs: readonly (Record<string, unknown> | undefined)[];
  /** Words of a bitset over every document slot. */
  readonly nWords: number;
  readonly liveCount: number;
};

type Test = (doc: number) => boolean;
type Leaf = Exclude<FilterNode, { type: 'and' | 'or' | 'not' | 'true' }>;

const always: Test = () => true;
const never: Test = () => false;

function all(tests: Test[]): Test {
  if (tests.length === 0) return always;
  if (tests.length === 1) return tests[0]!;
  if (tests.length === 2) {
    const [a, b] = tests as [Test, Test];
    return (i) => a(i) && b(i);
  }
  return (i) => {
    for (const test of tests) if (!test(i)) return false;
    return true;
  };
}

function any(tests: Test[]): Test {
  if (tests.length === 0) return never;
  if (tests.length === 1) return tests[0]!;
  if (tests.length === 2) {
    const [a, b] = tests as [Test, Test];
    return (i) => a(i) || b(i);
  }
  return (i) => {
    for (const test of tests) if (test(i)) return true;
    return false;
  };
}

/** Value ids `=` / `IN` match, deduplicated. */
function equalIds(field: FacetIndex, values: string[]): number[] {
  const ids = new Set<number>();
  for (const value of values) for (const id of field.idsEqualTo(value)) ids.add(id);
  return [...ids];
}

function holdsAny(field: FacetIndex, ids: number[]): Test {
  if (ids.length === 0) return never;
  const cells = field.cells;
  const arena = field.arena;
  if (ids.length === 1) {
    const id = ids[0]!;
    return (i) => {
      const cell = cells[i]!;
      if (cell === id) return true;
      if (cell !== manyValues) return false;
      const data = arena!.data;
      for (let k = arena!.offsets[i]!, end = k + arena!.lengths[i]!; k < end; k++) if (data[k] === id) return true;
      return false;
    };
  }
  const marks = new Uint8Array(Math.max(...ids) + 1);
  for (const id of ids) marks[id] = 1;
  return (i) => {
    const cell = cells[i]!;
    if (cell >= 0) return marks[cell] === 1;
    if (cell !== manyValues) return false;
    const data = arena!.data;
    for (let k = arena!.offsets[i]!, end = k + arena!.lengths[i]!; k < end; k++) if (marks[data[k]!] === 1) return true;
    return false;
  };
}

const asLimit = (expected: string) => (expected.trim() === '' ? Number.NaN : Number(expected));

/** The evaluator's `compareNumber`: a number (or any number of an array) against a number. */
function numberTest(field: FacetIndex, op: '>' | '>=' | '<' | '<=', expected: string): Test {
  const limit = asLimit(expected);
  if (Number.isNaN(limit)) return never;
  const holds =
    op === '>'
      ? (x: number) => x > limit
      : op === '>='
        ? (x: number) => x >= limit
        : op === '<'
          ? (x: number) => x < limit
          : (x: number) => x <= limit;
  return anyNumber(field, holds);
}

/** The evaluator's range: one number (of an array) within both bounds. */
function rangeTest(field: FacetIndex, from: string, to: string): Test {
  const low = asLimit(from);
  const high = asLimit(to);
  if (Number.isNaN(low) || Number.isNaN(high)) return never;
  return anyNumber(field, (x) => x >= low && x <= high);
}

function anyNumber(field: FacetIndex, holds: (x: number) => boolean): Test {
  const cells = field.cells;
  const numbers = field.numbers;
  const arena = field.arena;
  return (i) => {
    const cell = cells[i]!;
    // Strings have NaN, which no comparison holds for.
    if (cell >= 0) return holds(numbers[cell]!);
    if (cell !== manyValues) return false;
    const data = arena!.data;
    for (let k = arena!.offsets[i]!, end = k + arena!.lengths[i]!; k < end; k++) if (holds(numbers[data[k]!]!)) return true;
    return false;
  };
}

/** A per-document test with exactly `matchesFilter`'s meaning, reading the index's columns. */
export function compileFilter(node: FilterNode, ctx: FilterContext): Test {
  switch (node.type) {
    case 'true':
      return always;
    case 'and':
      return all(node.children.map((child) => compileFilter(child, ctx)));
    case 'or':
      return any(node.children.map((child) => compileFilter(child, ctx)));
    case 'not': {
      const test = compileFilter(node.child, ctx);
      return (i) => !test(i);
    }
    default:
      return compileLeaf(node, ctx);
  }
}

/** A geo condition on the `_geo` columns of the index, or on the documents when `_geo` is not indexed. */
function geoTest(node: GeoFilterNode, ctx: FilterContext): Test {
  const field = ctx.facets.get('_geo');
  if (!field?.lat || !field.lng) {
    const docs = ctx.docs;
    return (i) => matchesFilter(node, docs[i]!);
  }
  const lats = field.lat;
  const lngs = field.lng;
  if (node.type === 'geoBoundingBox' || node.invalid) return (i) => geoHolds(node, lats[i]!, lngs[i]!);
  // Points further north or south than the radius reaches are out without the trigonometry.
  const reach = (node.radius / 6_371_000) * (180 / Math.PI) + 1e-7;
  const north = node.lat + reach;
  const south = node.lat - reach;
  return (i) => {
    const lat = lats[i]!;
    return lat >= south && lat <= north && geoHolds(node, lat, lngs[i]!);
  };
}

function compileLeaf(node: Leaf, ctx: FilterContext): Test {
  if (node.type === 'geoRadius' || node.type === 'geoBoundingBox') return geoTest(node, ctx);
  const field = ctx.facets.get(node.attribute);
  if (!field) {
    // Not indexed (a base filter may name any attribute): read the document.
    const docs = ctx.docs;
    return (i) => matchesFilter(node, docs[i]!);
  }
  const presence = field.presence;
  switch (node.type) {
    case 'compare':
      if (node.op === '=') return holdsAny(field, field.idsEqualTo(node.value));
      if (node.op === '!=') {
        const test = holdsAny(field, field.idsEqualTo(node.value));
        return (i) => !test(i);
      }
      return numberTest(field, node.op, node.value);
    case 'range':
      return rangeTest(field, node.from, node.to);
    case 'in':
      return holdsAny(field, equalIds(field, node.values));
    case 'exists':
      return (i) => (presence[i]! & Presence.Exists) !== 0;
    case 'null':
      return (i) => (presence[i]! & Presence.Null) !== 0;
    case 'empty':
      return (i) => (presence[i]! & Presence.Empty) !== 0;
  }
}

function leafCount(node: FilterNode): number {
  switch (node.type) {
    case 'and':
    case 'or':
      return node.children.reduce((sum, child) => sum + leafCount(child), 0);
    case 'not':
      return leafCount(node.child);
    case 'true':
      return 0;
    default:
      return 1;
  }
}

/** Ids of an `=` / `!=` / `IN` leaf on an indexed attribute, whose documents postings list. */
function postingIds(node: FilterNode, ctx: FilterContext): { field: FacetIndex; ids: number[]; negate: boolean } | null {
  if (node.type === 'compare' && (node.op === '=' || node.op === '!=')) {
    const field = ctx.facets.get(node.attribute);
    return field ? { field, ids: field.idsEqualTo(node.value), negate: node.op === '!=' } : null;
  }
  if (node.type === 'in') {
    const field = ctx.facets.get(node.attribute);
    return field ? { field, ids: equalIds(field, node.values), negate: false } : null;
  }
  return null;
}

/** Estimated number of matching documents, to run the most selective part of an AND first. */
function estimate(node: FilterNode, ctx: FilterContext): number {
  const live = ctx.liveCount;
  switch (node.type) {
    case 'true':
      return live;
    case 'and':
      return Math.min(live, ...node.children.map((child) => estimate(child, ctx)));
    case 'or':
      return Math.min(
        live,
        node.children.reduce((sum, child) => sum + estimate(child, ctx), 0),
      );
    case 'not':
      return Math.max(0, live - estimate(node.child, ctx));
    default: {
      const posting = postingIds(node, ctx);
      if (!posting) return live / 2;
      const count = posting.field.countOf(posting.ids);
      return posting.negate ? live - count : count;
    }
  }
}

/** Below this many candidates, a per-document test beats any set arithmetic. */
const tinyCandidates = 48;

/**
 * The documents of `candidates` that match `node`: postings where a value is selective, per-document
 * tests on the columns where the candidates are already few (one site's cars out of the platform's).
 */
export function evaluateFilter(node: FilterNode, candidates: DocSet, ctx: FilterContext): DocSet {
  const n = sizeOf(candidates);
  if (n === 0) return emptySet;
  if (node.type === 'true') return candidates;
  if (n <= tinyCandidates) return filterSet(candidates, compileFilter(node, ctx));
  switch (node.type) {
    case 'and': {
      const order = node.children
        .map((child) => ({ child, size: estimate(child, ctx), leaves: leafCount(child) }))
        .sort((a, b) => a.size - b.size || a.leaves - b.leaves);
      let current = candidates;
      for (const { child } of order) {
        current = evaluateFilter(child, current, ctx);
        if (sizeOf(current) === 0) break;
      }
      return current;
    }
    case 'or': {
      // Few candidates: test each once, stopping at the first branch that holds.
      if (n * leafCount(node) <= ctx.nWords * node.children.length * 4) return filterSet(candidates, compileFilter(node, ctx));
      return union(
        node.children.map((child) => evaluateFilter(child, candidates, ctx)),
        ctx.nWords,
      );
    }
    case 'not':
      if (n * leafCount(node.child) <= ctx.nWords) return filterSet(candidates, compileFilter(node, ctx));
      return minus(candidates, evaluateFilter(node.child, candidates, ctx));
    default: {
      const posting = postingIds(node, ctx);
      if (posting && posting.field.readCost(posting.ids) < n) {
        const holding = posting.field.docsWith(posting.ids, ctx.nWords);
        return posting.negate ? minus(candidates, holding) : intersect(candidates, holding);
      }
      return filterSet(candidates, compileLeaf(node, ctx));
    }
  }
}
