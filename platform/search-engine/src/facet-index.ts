import { ListArena, PostingTable, union, type DocSet } from './bitset';
import { geoPointOf, normalise, readAttribute, type Scalar } from './filter-evaluator';

/** Column cell: a value id (≥ 0), no scalar value, or several (in the arena). */
export const noValue = -1;
export const manyValues = -2;

/**
 * One filterable attribute: its distinct values (strings normalised as the filter compares them,
 * booleans as the strings "true"/"false", numbers by value), which documents hold each value (for
 * `=` and `IN` on many documents), and per document its value ids (for per-document tests, range
 * comparisons and facet counts over the matching documents).
 */
export class FacetIndex {
  private readonly stringIds = new Map<string, number>();
  private readonly numberIds = new Map<number, number>();
  /** Per value id: 1 string (or boolean), 2 number, 0 free. */
  kinds = new Uint8Array(16);
  /** Per value id: the number, NaN for strings. */
  numbers = new Float64Array(16);
  /** Per value id: the facet value shown (the first spelling indexed). */
  labels: string[] = [];
  /** Per value id: what strings are ordered by (lower case, trimmed). */
  private keys: string[] = [];
  private scratchCounts = new Int32Array(0);
  private scratchIds = new Int32Array(0);
  private readonly freeIds: number[] = [];
  private nextId = 0;
  readonly postings: PostingTable;

  /** Per document: value id, noValue or manyValues. */
  cells = new Int32Array(0);
  /** Per document: Presence flags. */
  presence = new Uint8Array(0);
  private multi: ListArena | null = null;
  /** For `_geo`, per document: the point's latitude and longitude, NaN without one (for `_geoRadius` and `_geoBoundingBox`). */
  lat: Float64Array | null = null;
  lng: Float64Array | null = null;

  constructor(
    readonly attribute: string,
    universe: { words: number },
  ) {
    this.postings = new PostingTable(universe);
    if (attribute === '_geo') {
      this.lat = new Float64Array(0);
      this.lng = new Float64Array(0);
    }
  }

  /** A throwaway index of an attribute over some documents, numbered 0..n-1 in the order given. */
  static over(attribute: string, docs: readonly Record<string, unknown>[]): FacetIndex {
    const facet = new FacetIndex(attribute, { words: Math.ceil(docs.length / 32) });
    facet.ensureDocs(docs.length);
    docs.forEach((doc, slot) => facet.add(slot, doc));
    return facet;
  }

  ensureDocs(capacity: number) {
    if (capacity <= this.cells.length) return;
    const cells = new Int32Array(capacity).fill(noValue);
    cells.set(this.cells);
    this.cells = cells;
    const presence = new Uint8Array(capacity);
    presence.set(this.presence);
    this.presence = presence;
    this.multi?.ensureDocs(capacity);
    if (this.lat && this.lng) {
      const lat = new Float64Array(capacity).fill(Number.NaN);
      lat.set(this.lat);
      this.lat = lat;
      const lng = new Float64Array(capacity).fill(Number.NaN);
      lng.set(this.lng);
      this.lng = lng;
    }
  }

  /** Values held by a document with several (cell manyValues); empty for others. */
  manyOf(doc: number): Int32Array {
    const arena = this.multi;
    if (!arena || doc >= arena.lengths.length) return new Int32Array(0);
    const start = arena.offsets[doc]!;
    return arena.data.subarray(start, start + arena.lengths[doc]!);
  }

  /** The arena of multi-valued documents, for loops that must not allocate. */
  get arena(): ListArena | null {
    return this.multi;
  }

  private valueId(item: string | number | boolean, create: boolean): number {
    if (typeof item === 'number') {
      if (Number.isNaN(item)) return -1;
      const id = this.numberIds.get(item);
      if (id !== undefined || !create) return id ?? -1;
      const created = this.allocate(2, item, String(item), '');
      this.numberIds.set(item, created);
      return created;
    }
    const label = typeof item === 'boolean' ? String(item) : item;
    const key = normalise(label);
    const id = this.stringIds.get(key);
    if (id !== undefined || !create) return id ?? -1;
    const created = this.allocate(1, Number.NaN, label, key);
    this.stringIds.set(key, created);
    return created;
  }

  private allocate(kind: number, value: number, label: string, key: string): number {
    const id = this.freeIds.pop() ?? this.nextId++;
    if (id >= this.kinds.length) {
      const size = this.kinds.length * 2;
      const kinds = new Uint8Array(size);
      kinds.set(this.kinds);
      this.kinds = kinds;
      const numbers = new Float64Array(size);
      numbers.set(this.numbers);
      this.numbers = numbers;
    }
    this.kinds[id] = kind;
    this.numbers[id] = value;
    this.labels[id] = label;
    this.keys[id] = key;
    return id;
  }

  private release(id: number) {
    if (this.kinds[id] === 2) this.numberIds.delete(this.numbers[id]!);
    else this.stringIds.delete(this.keys[id]!);
    this.kinds[id] = 0;
    this.labels[id] = '';
    this.keys[id] = '';
    this.postings.reset(id);
    this.freeIds.push(id);
  }

  add(doc: number, source: Record<string, unknown>) {
    const values: Scalar[] = [];
    this.presence[doc] = readAttribute(source, this.attribute, values);
    const ids: number[] = [];
    for (const value of values) {
      const id = this.valueId(value, true);
      if (id >= 0 && !ids.includes(id)) ids.push(id);
    }
    if (this.lat && this.lng) {
      const point = geoPointOf(source);
      this.lat[doc] = point ? point[0] : Number.NaN;
      this.lng[doc] = point ? point[1] : Number.NaN;
    }
    for (const id of ids) this.postings.add(id, doc);
    if (ids.length === 0) this.cells[doc] = noValue;
    else if (ids.length === 1) this.cells[doc] = ids[0]!;
    else {
      this.cells[doc] = manyValues;
      if (!this.multi) {
        this.multi = new ListArena();
        this.multi.ensureDocs(this.cells.length);
      }
      this.multi.set(doc, ids);
    }
  }

  remove(doc: number) {
    const cell = this.cells[doc]!;
    const drop = (id: number) => {
      this.postings.delete(id, doc);
      if (this.postings.count(id) === 0) this.release(id);
    };
    if (cell >= 0) drop(cell);
    else if (cell === manyValues) {
      for (const id of Array.from(this.manyOf(doc))) drop(id);
      this.multi!.clear(doc);
    }
    this.cells[doc] = noValue;
    this.presence[doc] = 0;
    if (this.lat && this.lng) {
      this.lat[doc] = Number.NaN;
      this.lng[doc] = Number.NaN;
    }
  }

  /**
   * Counts the values the documents hold: the value ids held (in no order) and the count per id.
   * Both arrays are scratch: call doneCounting(ids) before counting again.
   */
  count(docs: Int32Array): { ids: Int32Array; counts: Int32Array } {
    if (this.scratchCounts.length < this.kinds.length) {
      this.scratchCounts = new Int32Array(this.kinds.length);
      this.scratchIds = new Int32Array(this.kinds.length);
    }
    const counts = this.scratchCounts;
    const ids = this.scratchIds;
    let n = 0;
    const cells = this.cells;
    const arena = this.multi;
    for (let k = 0; k < docs.length; k++) {
      const doc = docs[k]!;
      const cell = cells[doc]!;
      if (cell >= 0) {
        if (counts[cell]!++ === 0) ids[n++] = cell;
      } else if (cell === manyValues) {
        const data = arena!.data;
        for (let a = arena!.offsets[doc]!, end = a + arena!.lengths[doc]!; a < end; a++) {
          const id = data[a]!;
          if (counts[id]!++ === 0) ids[n++] = id;
        }
      }
    }
    return { ids: ids.subarray(0, n), counts };
  }

  /** Meilisearch's facet value order: numbers ascending, then strings in byte order of their lower-case form. */
  readonly alphaOrder = (a: number, b: number): number => {
    const kind = this.kinds[b]! - this.kinds[a]!;
    if (kind) return kind;
    if (this.kinds[a] === 2) return this.numbers[a]! - this.numbers[b]!;
    const x = this.keys[a]!;
    const y = this.keys[b]!;
    return x < y ? -1 : x > y ? 1 : 0;
  };

  /** The first `limit` of `ids` in the order `compare` gives (sorts `ids` in place when that is cheaper). */
  static first(ids: Int32Array, limit: number, compare: (a: number, b: number) => number): Int32Array {
    if (ids.length <= limit * 4) return ids.sort(compare).subarray(0, Math.min(limit, ids.length));
    // Keep the best `limit` in a max-heap (root: the worst kept).
    const heap = new Int32Array(limit);
    let size = 0;
    const swap = (i: number, j: number) => {
      const t = heap[i]!;
      heap[i] = heap[j]!;
      heap[j] = t;
    };
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k]!;
      if (size < limit) {
        heap[size] = id;
        for (let i = size++; i > 0;) {
          const parent = (i - 1) >> 1;
          if (compare(heap[i]!, heap[parent]!) <= 0) break;
          swap(i, parent);
          i = parent;
        }
      } else if (compare(id, heap[0]!) < 0) {
        heap[0] = id;
        for (let i = 0; ;) {
          const left = 2 * i + 1;
          let top = i;
          if (left < size && compare(heap[left]!, heap[top]!) > 0) top = left;
          if (left + 1 < size && compare(heap[left + 1]!, heap[top]!) > 0) top = left + 1;
          if (top === i) break;
          swap(i, top);
          i = top;
        }
      }
    }
    return heap.subarray(0, size).sort(compare);
  }

  doneCounting(ids: Int32Array) {
    for (let k = 0; k < ids.length; k++) this.scratchCounts[ids[k]!] = 0;
  }

  /** Value ids a filter value `=` matches: the string spelling and, if it reads as a number, the number. */
  idsEqualTo(expected: string): number[] {
    const ids: number[] = [];
    const text = this.stringIds.get(normalise(expected));
    if (text !== undefined) ids.push(text);
    if (expected.trim() !== '') {
      const number = Number(expected);
      if (!Number.isNaN(number)) {
        const id = this.numberIds.get(number);
        if (id !== undefined) ids.push(id);
      }
    }
    return ids;
  }

  /** The documents holding any of the value ids. */
  docsWith(ids: number[], nWords: number): DocSet {
    return union(
      ids.map((id) => this.postings.view(id)),
      nWords,
    );
  }

  /** Number of documents holding any of the ids (an upper bound when documents hold several). */
  countOf(ids: number[]): number {
    let total = 0;
    for (const id of ids) total += this.postings.count(id);
    return total;
  }

  readCost(ids: number[]): number {
    let total = 0;
    for (const id of ids) total += this.postings.readCost(id);
    return total;
  }

  get valueCount(): number {
    return this.stringIds.size + this.numberIds.size;
  }

  bytes(): number {
    return (
      this.kinds.byteLength +
      this.numbers.byteLength +
      this.labels.length * 8 +
      this.valueCount * 80 +
      this.postings.bytes() +
      this.cells.byteLength +
      this.presence.byteLength +
      (this.multi?.bytes() ?? 0) +
      (this.lat?.byteLength ?? 0) * 2
    );
  }
}
