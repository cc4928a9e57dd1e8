import type { FacetIndex } from './facet-index';
import { geoDistanceMeters, geoPointOf, valueAt } from './filter-evaluator';
import type { TextRank } from './match-types';
import type { SortPlace } from './ranking-score';
import { MeiliError } from './search-errors';
import type { Doc } from './search-types';

/*
 * Sort rules and the order of hits: Meilisearch's ranking rules (words, typo, proximity,
 * attribute), then the sort rules, then exactness; only the page asked for is ordered exactly.
 */

/** A sort rule: an attribute, or (`_geoPoint(lat, lng)`) the distance from a point to each document's `_geo`. */
export type SortKey = { rule: string; attribute: string; point: [lat: number, lng: number] | null; descending: boolean };

/** Meilisearch's reserved attribute names, which no sort rule may name. */
const reservedSortNames = ['_geo', '_geoDistance', '_geoPoint', '_geoRadius', '_geoBoundingBox'];

/** Sort values of the matching documents: numbers before strings, documents without a value last. */
export type SortColumn = { descending: boolean; kinds: Uint8Array; numbers: Float64Array; strings: string[] };
const sortNumber = 0;
const sortString = 1;
const sortMissing = 2;

/** Sort rules as Meilisearch reads them (milli's `AscDesc`), with its error for each way one can be wrong. */
export function readSortKeys(sort: readonly string[], sortable: readonly string[]): SortKey[] {
  const invalid = (message: string) => new MeiliError('invalid_search_sort', message, 400);
  const keys = sort.map((rule): SortKey => {
    const colon = rule.lastIndexOf(':');
    const direction = colon < 0 ? '' : rule.slice(colon + 1);
    if (direction !== 'asc' && direction !== 'desc') {
      throw invalid(`Invalid syntax for the sort parameter: expected expression ending by \`:asc\` or \`:desc\`, found \`${rule}\`.`);
    }
    const member = rule.slice(0, colon);
    const descending = direction === 'desc';
    if (member.startsWith('_geoPoint(') && member.endsWith(')')) {
      const point = geoPointArguments(member.slice('_geoPoint('.length, -1));
      if (!point) {
        throw invalid(
          `Invalid syntax for the geo parameter: expected expression formated like \`_geoPoint(latitude, longitude)\` and ending by \`:asc\` or \`:desc\`, found \`${member}\`.`,
        );
      }
      const [lat, lng] = point;
      if (lat < -90 || lat > 90) throw invalid(`Bad latitude \`${lat}\`. Latitude must be contained between -90 and 90 degrees. `);
      if (lng < -180 || lng > 180) throw invalid(`Bad longitude \`${lng}\`. Longitude must be contained between -180 and 180 degrees. `);
      mustBeSortable('_geo', sortable);
      return { rule: `_geoPoint(${lat}, ${lng}):${direction}`, attribute: '_geo', point, descending };
    }
    const reserved =
      reservedSortNames.includes(member) ||
      ['_geoRadius(', '_geoBoundingBox(', '_geo(', '_geoDistance('].some((start) => member.startsWith(start));
    if (reserved) {
      if (member.startsWith('_geoPoint')) {
        throw invalid(
          `Invalid syntax for the geo parameter: expected expression formated like \`_geoPoint(latitude, longitude)\` and ending by \`:asc\` or \`:desc\`, found \`${member}\`.`,
        );
      }
      const geoName = member === '_geo' ? member : ['_geoRadius', '_geoBoundingBox'].find((name) => member.startsWith(name));
      if (geoName) {
        throw invalid(
          `\`${geoName}\` is a reserved keyword and thus can't be used as a sort expression. Use the _geoPoint(latitude, longitude) built-in rule to sort on _geo field coordinates.`,
        );
      }
      throw invalid(`\`${member}\` is a reserved keyword and thus can't be used as a sort expression.`);
    }
    mustBeSortable(member, sortable);
    return { rule, attribute: member, point: null, descending };
  });
  // As Meilisearch (milli's `resolve_sort_criteria`): an attribute sorts by its first rule only, a
  // later one on it could never break a tie; so a thousand `price:asc` cost one.
  const sorted = new Set<string>();
  return keys.filter((key) => {
    if (key.point) return true;
    if (sorted.has(key.attribute)) return false;
    sorted.add(key.attribute);
    return true;
  });
}

function mustBeSortable(attribute: string, sortable: readonly string[]) {
  if (sortable.includes(attribute)) return;
  throw new MeiliError(
    'invalid_search_sort',
    sortable.length
      ? `Attribute \`${attribute}\` is not sortable. Available sortable attributes are: \`${sortable.join(', ')}\`.`
      : `Attribute \`${attribute}\` is not sortable. This index does not have configured sortable attributes.`,
    400,
  );
}

/**
 * A rule's sort values of every document by slot (a removed document's slot: no value). The index
 * keeps one per rule until its documents change, and a search takes its matches' values from it
 * instead of visiting each document again (sortColumn's `bySlot`). Not for a `_geoPoint` rule.
 */
export function slotSortColumn(docs: readonly (Doc | undefined)[], facets: ReadonlyMap<string, FacetIndex>, key: SortKey): SortColumn {
  const live: number[] = [];
  for (let slot = 0; slot < docs.length; slot++) if (docs[slot]) live.push(slot);
  const values = sortColumn(docs, facets, Int32Array.from(live), key);
  const kinds = new Uint8Array(docs.length).fill(sortMissing);
  const numbers = new Float64Array(docs.length);
  const strings: string[] = [];
  live.forEach((slot, k) => {
    kinds[slot] = values.kinds[k]!;
    numbers[slot] = values.numbers[k]!;
    if (values.kinds[k] === sortString) strings[slot] = values.strings[k]!;
  });
  return { descending: key.descending, kinds, numbers, strings };
}

function sortColumn(
  docs: readonly (Doc | undefined)[],
  facets: ReadonlyMap<string, FacetIndex>,
  slots: Int32Array,
  key: SortKey,
  bySlot?: SortColumn | null,
): SortColumn {
  const n = slots.length;
  const kinds = new Uint8Array(n);
  const numbers = new Float64Array(n);
  const strings: string[] = [];
  if (bySlot) {
    for (let k = 0; k < n; k++) {
      const slot = slots[k]!;
      kinds[k] = bySlot.kinds[slot]!;
      numbers[k] = bySlot.numbers[slot]!;
      if (kinds[k] === sortString) strings[k] = bySlot.strings[slot]!;
    }
    return { descending: key.descending, kinds, numbers, strings };
  }
  if (key.point) {
    // By distance from the point; documents without a `_geo` come last either way.
    for (let k = 0; k < n; k++) {
      const point = geoPointOf(docs[slots[k]!]!);
      kinds[k] = point ? sortNumber : sortMissing;
      if (point) numbers[k] = geoDistanceMeters(key.point, point);
    }
    return { descending: key.descending, kinds, numbers, strings };
  }
  const pick = (value: unknown): { kind: number; number?: number; string?: string } => {
    if (typeof value === 'number' && !Number.isNaN(value)) return { kind: sortNumber, number: value };
    if (typeof value === 'string') return { kind: sortString, string: value.toLowerCase() };
    if (typeof value === 'boolean') return { kind: sortString, string: String(value) };
    if (Array.isArray(value)) {
      // An array sorts by its lowest value ascending, its highest descending; numbers first.
      let best: { kind: number; number?: number; string?: string } = { kind: sortMissing };
      for (const item of value.flat(Infinity) as unknown[]) {
        const candidate = pick(item);
        if (candidate.kind === sortMissing) continue;
        if (candidate.kind < best.kind) best = candidate;
        else if (candidate.kind === best.kind) {
          const before = candidate.kind === sortNumber ? candidate.number! < best.number! : candidate.string! < best.string!;
          const after = candidate.kind === sortNumber ? candidate.number! > best.number! : candidate.string! > best.string!;
          if (key.descending ? after : before) best = candidate;
        }
      }
      return best;
    }
    return { kind: sortMissing };
  };
  // A filterable attribute has its numbers in a column already: no need to visit the document.
  const facet = facets.get(key.attribute);
  for (let k = 0; k < n; k++) {
    if (facet) {
      const cell = facet.cells[slots[k]!]!;
      if (cell >= 0 && facet.kinds[cell] === 2) {
        kinds[k] = sortNumber;
        numbers[k] = facet.numbers[cell]!;
        continue;
      }
    }
    const doc = docs[slots[k]!]!;
    const value = valueAt(doc, key.attribute);
    if (typeof value === 'number' && !Number.isNaN(value)) {
      kinds[k] = sortNumber;
      numbers[k] = value;
      continue;
    }
    const picked = pick(value);
    kinds[k] = picked.kind;
    if (picked.kind === sortNumber) numbers[k] = picked.number!;
    else if (picked.kind === sortString) strings[k] = picked.string!;
  }
  return { descending: key.descending, kinds, numbers, strings };
}

/** The slots of one page in ranking order: query words' ranking, then sort, then exactness, then slot. */
export function orderedPage(
  docs: readonly (Doc | undefined)[],
  facets: ReadonlyMap<string, FacetIndex>,
  slots: Int32Array,
  ranks: TextRank[] | null,
  sortKeys: SortKey[],
  start: number,
  count: number,
  slotColumnOf?: (key: SortKey) => SortColumn | null,
): number[] {
  const n = slots.length;
  const end = Math.min(n, start + count);
  if (start >= end) return [];
  if (!ranks && sortKeys.length === 0) return Array.from(slots.subarray(start, end));
  const columns = sortKeys.map((key) => sortColumn(docs, facets, slots, key, slotColumnOf?.(key)));
  const compare = (a: number, b: number): number => {
    if (ranks) {
      const x = ranks[a]!;
      const y = ranks[b]!;
      const relevance =
        x.dropped - y.dropped || x.typos - y.typos || x.proximity - y.proximity || x.attribute - y.attribute || x.position - y.position;
      if (relevance) return relevance;
    }
    for (const column of columns) {
      const kind = column.kinds[a]! - column.kinds[b]!;
      if (kind) return kind;
      if (column.kinds[a] === sortMissing) continue;
      const order =
        column.kinds[a] === sortNumber
          ? column.numbers[a]! - column.numbers[b]!
          : column.strings[a]! < column.strings[b]!
            ? -1
            : column.strings[a]! > column.strings[b]!
              ? 1
              : 0;
      if (order) return column.descending ? -order : order;
    }
    if (ranks) {
      const exactness = ranks[b]!.exactness - ranks[a]!.exactness;
      if (exactness) return exactness;
    }
    return a - b;
  };
  const order = topPositions(n, end, compare);
  return order.slice(start, end).map((position) => slots[position]!);
}

/** Positions 0..n-1 in order, exact for the first `needed`: a bounded heap when few are needed of many. */
function topPositions(n: number, needed: number, compare: (a: number, b: number) => number): number[] {
  if (needed * 4 >= n) {
    const all = Array.from({ length: n }, (_, i) => i);
    all.sort(compare);
    return all;
  }
  // Max-heap of the best `needed` seen so far (root: the worst of them).
  const heap: number[] = [];
  const worse = (a: number, b: number) => compare(a, b) > 0;
  const up = (i: number) => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!worse(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let top = i;
      if (left < heap.length && worse(heap[left]!, heap[top]!)) top = left;
      if (right < heap.length && worse(heap[right]!, heap[top]!)) top = right;
      if (top === i) return;
      [heap[i], heap[top]] = [heap[top]!, heap[i]!];
      i = top;
    }
  };
  for (let i = 0; i < n; i++) {
    if (heap.length < needed) {
      heap.push(i);
      up(heap.length - 1);
    } else if (compare(i, heap[0]!) < 0) {
      heap[0] = i;
      down(0);
    }
  }
  return heap.sort(compare);
}

/** Where a document sits on a sort rule, for `_rankingScoreDetails`. */
export function sortPlace(doc: Doc, key: SortKey): SortPlace {
  if (key.point) {
    const point = geoPointOf(doc);
    return { rule: key.rule, point: point && { lat: point[0], lng: point[1] }, distance: point && geoDistanceMeters(key.point, point) };
  }
  const value = valueAt(doc, key.attribute);
  return { rule: key.rule, value: typeof value === 'number' || typeof value === 'string' ? value : null };
}

/** `lat, lng` of a `_geoPoint(…)` as Rust reads two floats, or null. */
function geoPointArguments(text: string): [lat: number, lng: number] | null {
  const comma = text.indexOf(',');
  if (comma < 0) return null;
  const float = (part: string) => (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(part) ? Number(part) : null);
  const lat = float(text.slice(0, comma).trim());
  const lng = float(text.slice(comma + 1).trim());
  return lat === null || lng === null ? null : [lat, lng];
}
