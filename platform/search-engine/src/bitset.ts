/**
 * Document sets for the search index. Documents are numbered densely (0, 1, 2, …), so a set is
 * either a sorted list of numbers (few documents) or a bitset of 32-bit words (many documents).
 *
 * `DocSet` is what a query works with: immutable, built fresh per query (it may share storage with
 * an index posting, so never write into one). `Posting` and `PostingTable` are what the index keeps:
 * mutable, one per facet value or word.
 */

export type DocSet = ListSet | BitsSet;
export type ListSet = { readonly kind: 'list'; readonly ids: Int32Array };
export type BitsSet = { readonly kind: 'bits'; readonly words: Uint32Array; readonly count: number };

export const emptySet: ListSet = { kind: 'list', ids: new Int32Array(0) };

export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

export function countBits(words: Uint32Array): number {
  let count = 0;
  for (let w = 0; w < words.length; w++) if (words[w]) count += popcount(words[w]!);
  return count;
}

export const wordsFor = (capacity: number) => (capacity + 31) >>> 5;

export const listSet = (ids: Int32Array): ListSet => ({ kind: 'list', ids });
export const bitsSet = (words: Uint32Array, count = countBits(words)): BitsSet => ({ kind: 'bits', words, count });

export const sizeOf = (set: DocSet): number => (set.kind === 'list' ? set.ids.length : set.count);

export function hasBit(words: Uint32Array, i: number): boolean {
  const w = i >>> 5;
  return w < words.length && (words[w]! & (1 << (i & 31))) !== 0;
}

function listHas(ids: Int32Array, i: number): boolean {
  return ids[lowerBound(ids, i)] === i;
}

export const setHas = (set: DocSet, i: number): boolean => (set.kind === 'list' ? listHas(set.ids, i) : hasBit(set.words, i));

/** The members in ascending order. */
export function toList(set: DocSet): Int32Array {
  if (set.kind === 'list') return set.ids;
  const out = new Int32Array(set.count);
  let n = 0;
  const words = set.words;
  for (let w = 0; w < words.length; w++) {
    let word = words[w]!;
    while (word !== 0) {
      const low = word & -word;
      out[n++] = (w << 5) + (31 - Math.clz32(low));
      word ^= low;
    }
  }
  return n === out.length ? out : out.subarray(0, n);
}

export function listToBits(ids: ArrayLike<number>, nWords: number): Uint32Array {
  const words = new Uint32Array(nWords);
  for (let k = 0; k < ids.length; k++) {
    const i = ids[k]!;
    words[i >>> 5]! |= 1 << (i & 31);
  }
  return words;
}

/** A list when small enough that a bitset would waste space, otherwise a bitset. */
function fromBits(words: Uint32Array, count: number): DocSet {
  const set = bitsSet(words, count);
  return count * 4 < words.length ? listSet(toList(set)) : set;
}

function intersectLists(a: Int32Array, b: Int32Array): Int32Array {
  if (a.length > b.length) [a, b] = [b, a];
  const out = new Int32Array(a.length);
  let n = 0;
  if (a.length * 16 < b.length) {
    // Much smaller: look each one up.
    for (let k = 0; k < a.length; k++) if (listHas(b, a[k]!)) out[n++] = a[k]!;
  } else {
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      const x = a[i]!;
      const y = b[j]!;
      if (x === y) {
        out[n++] = x;
        i++;
        j++;
      } else if (x < y) i++;
      else j++;
    }
  }
  return out.subarray(0, n);
}

export function intersect(a: DocSet, b: DocSet): DocSet {
  if (a.kind === 'list' && b.kind === 'list') return listSet(intersectLists(a.ids, b.ids));
  if (a.kind === 'bits' && b.kind === 'bits') {
    const n = Math.min(a.words.length, b.words.length);
    const words = new Uint32Array(Math.max(a.words.length, b.words.length));
    let count = 0;
    for (let w = 0; w < n; w++) {
      const x = (a.words[w]! & b.words[w]!) >>> 0;
      words[w] = x;
      if (x) count += popcount(x);
    }
    return fromBits(words, count);
  }
  const list = (a.kind === 'list' ? a : (b as ListSet)).ids;
  const bits = (a.kind === 'bits' ? a : (b as BitsSet)).words;
  const out = new Int32Array(list.length);
  let n = 0;
  for (let k = 0; k < list.length; k++) if (hasBit(bits, list[k]!)) out[n++] = list[k]!;
  return listSet(out.subarray(0, n));
}

/** a without b. */
export function minus(a: DocSet, b: DocSet): DocSet {
  if (sizeOf(b) === 0) return a;
  if (a.kind === 'list') {
    const out = new Int32Array(a.ids.length);
    let n = 0;
    if (b.kind === 'bits') {
      for (let k = 0; k < a.ids.length; k++) if (!hasBit(b.words, a.ids[k]!)) out[n++] = a.ids[k]!;
    } else {
      const bIds = b.ids;
      let j = 0;
      for (let k = 0; k < a.ids.length; k++) {
        const x = a.ids[k]!;
        while (j < bIds.length && bIds[j]! < x) j++;
        if (j < bIds.length && bIds[j] === x) continue;
        out[n++] = x;
      }
    }
    return listSet(out.subarray(0, n));
  }
  const words = a.words.slice();
  let count = a.count;
  if (b.kind === 'list') {
    for (let k = 0; k < b.ids.length; k++) {
      const i = b.ids[k]!;
      const w = i >>> 5;
      const bit = 1 << (i & 31);
      if (w < words.length && words[w]! & bit) {
        words[w]! &= ~bit;
        count--;
      }
    }
  } else {
    count = 0;
    const n = Math.min(words.length, b.words.length);
    for (let w = 0; w < words.length; w++) {
      const x = w < n ? (words[w]! & ~b.words[w]!) >>> 0 : words[w]!;
      words[w] = x;
      if (x) count += popcount(x);
    }
  }
  return fromBits(words, count);
}

export function union(sets: DocSet[], nWords: number): DocSet {
  const nonEmpty = sets.filter((set) => sizeOf(set) > 0);
  if (nonEmpty.length === 0) return emptySet;
  if (nonEmpty.length === 1) return nonEmpty[0]!;
  let total = 0;
  let allLists = true;
  for (const set of nonEmpty) {
    total += sizeOf(set);
    if (set.kind !== 'list') allLists = false;
  }
  if (allLists && total * 4 < nWords) {
    const all = new Int32Array(total);
    let n = 0;
    for (const set of nonEmpty) {
      all.set((set as ListSet).ids, n);
      n += (set as ListSet).ids.length;
    }
    all.sort();
    let m = 0;
    for (let k = 0; k < all.length; k++) if (k === 0 || all[k] !== all[k - 1]) all[m++] = all[k]!;
    return listSet(all.subarray(0, m));
  }
  let size = nWords;
  for (const set of nonEmpty) if (set.kind === 'bits') size = Math.max(size, set.words.length);
  const words = new Uint32Array(size);
  for (const set of nonEmpty) {
    if (set.kind === 'bits') for (let w = 0; w < set.words.length; w++) words[w]! |= set.words[w]!;
    else for (let k = 0; k < set.ids.length; k++) words[set.ids[k]! >>> 5]! |= 1 << (set.ids[k]! & 31);
  }
  return fromBits(words, countBits(words));
}

/** The members for which `test` holds, as a new set. */
export function filterSet(set: DocSet, test: (i: number) => boolean): DocSet {
  if (set.kind === 'list') {
    const ids = set.ids;
    const out = new Int32Array(ids.length);
    let n = 0;
    for (let k = 0; k < ids.length; k++) if (test(ids[k]!)) out[n++] = ids[k]!;
    return listSet(n === ids.length ? ids : out.subarray(0, n));
  }
  const words = new Uint32Array(set.words.length);
  let count = 0;
  for (let w = 0; w < set.words.length; w++) {
    let word = set.words[w]!;
    let kept = 0;
    while (word !== 0) {
      const low = word & -word;
      word ^= low;
      if (test((w << 5) + (31 - Math.clz32(low)))) {
        kept |= low;
        count++;
      }
    }
    words[w] = kept >>> 0;
  }
  return fromBits(words, count);
}

/**
 * One stored posting: the documents holding one value. A sorted array while small, a bitset once
 * it would take more room than one (`bitsAbove`, the universe's word count).
 */
export class Posting {
  list: number[] | null = [];
  bits: Uint32Array | null = null;
  count = 0;

  add(i: number, bitsAbove: number) {
    if (this.bits) {
      const w = i >>> 5;
      if (w >= this.bits.length) {
        const grown = new Uint32Array(Math.max(w + 1, this.bits.length * 2));
        grown.set(this.bits);
        this.bits = grown;
      }
      const bit = 1 << (i & 31);
      if (!(this.bits[w]! & bit)) {
        this.bits[w]! |= bit;
        this.count++;
      }
      return;
    }
    const list = this.list!;
    if (list.length === 0 || list[list.length - 1]! < i) list.push(i);
    else {
      const lo = lowerBound(list, i);
      if (list[lo] === i) return;
      list.splice(lo, 0, i);
    }
    this.count++;
    if (this.count > 64 && this.count > bitsAbove) {
      this.bits = listToBits(list, Math.max(bitsAbove, wordsFor(list[list.length - 1]! + 1)));
      this.list = null;
    }
  }

  delete(i: number, bitsAbove: number) {
    if (this.bits) {
      const w = i >>> 5;
      const bit = 1 << (i & 31);
      if (w < this.bits.length && this.bits[w]! & bit) {
        this.bits[w]! &= ~bit;
        this.count--;
        if (this.count * 4 < bitsAbove) {
          this.list = Array.from(toList(bitsSet(this.bits, this.count)));
          this.bits = null;
        }
      }
      return;
    }
    const list = this.list!;
    const lo = lowerBound(list, i);
    if (list[lo] === i) {
      list.splice(lo, 1);
      this.count--;
    }
  }

  view(): DocSet {
    return this.bits ? bitsSet(this.bits, this.count) : listSet(Int32Array.from(this.list!));
  }

  bytes(): number {
    return this.bits ? this.bits.byteLength + 64 : this.list!.length * 8 + 64;
  }
}

/**
 * Postings for numbered keys (facet value ids, word ids). A key held by one document keeps that
 * document inline: most stock numbers, VINs and slugs are unique, and an object each would cost
 * far more than the number.
 */
export class PostingTable {
  counts = new Int32Array(16);
  private single = new Int32Array(16).fill(-1);
  private postings: (Posting | undefined)[] = [];

  constructor(private readonly universe: { words: number }) {}

  private ensure(key: number) {
    if (key < this.counts.length) return;
    const size = Math.max(key + 1, this.counts.length * 2);
    const counts = new Int32Array(size);
    counts.set(this.counts);
    this.counts = counts;
    const single = new Int32Array(size).fill(-1);
    single.set(this.single);
    this.single = single;
  }

  count(key: number): number {
    return key < this.counts.length ? this.counts[key]! : 0;
  }

  add(key: number, doc: number) {
    this.ensure(key);
    const posting = this.postings[key];
    if (posting) {
      posting.add(doc, this.universe.words);
      this.counts[key] = posting.count;
    } else if (this.counts[key] === 0) {
      this.single[key] = doc;
      this.counts[key] = 1;
    } else if (this.single[key] !== doc) {
      const created = new Posting();
      created.add(this.single[key]!, this.universe.words);
      created.add(doc, this.universe.words);
      this.postings[key] = created;
      this.single[key] = -1;
      this.counts[key] = created.count;
    }
  }

  delete(key: number, doc: number) {
    if (key >= this.counts.length || this.counts[key] === 0) return;
    const posting = this.postings[key];
    if (posting) {
      posting.delete(doc, this.universe.words);
      this.counts[key] = posting.count;
      if (posting.count === 1 && posting.list) {
        this.single[key] = posting.list[0]!;
        this.postings[key] = undefined;
      } else if (posting.count === 0) this.postings[key] = undefined;
    } else if (this.single[key] === doc) {
      this.single[key] = -1;
      this.counts[key] = 0;
    }
  }

  /** Forget a key entirely (it is about to be reused for another value). */
  reset(key: number) {
    if (key >= this.counts.length) return;
    this.counts[key] = 0;
    this.single[key] = -1;
    this.postings[key] = undefined;
  }

  view(key: number): DocSet {
    if (key >= this.counts.length || this.counts[key] === 0) return emptySet;
    const posting = this.postings[key];
    return posting ? posting.view() : listSet(Int32Array.of(this.single[key]!));
  }

  /** Rough cost of reading a key's documents into a query set. */
  readCost(key: number): number {
    if (key >= this.counts.length) return 0;
    const posting = this.postings[key];
    return posting?.bits ? posting.bits.length : this.counts[key]!;
  }

  bytes(): number {
    let total = this.counts.byteLength + this.single.byteLength + this.postings.length * 8;
    for (const posting of this.postings) if (posting) total += posting.bytes();
    return total;
  }
}

/**
 * Variable-length number lists per document (a multi-valued facet, a document's words), packed in
 * one growing Int32Array. Replacing a document's list leaves the old run as garbage until compaction.
 */
export class ListArena {
  data = new Int32Array(1024);
  offsets = new Int32Array(0);
  lengths = new Int32Array(0);
  private used = 0;
  private garbage = 0;

  ensureDocs(capacity: number) {
    if (capacity <= this.offsets.length) return;
    const offsets = new Int32Array(capacity);
    offsets.set(this.offsets);
    this.offsets = offsets;
    const lengths = new Int32Array(capacity);
    lengths.set(this.lengths);
    this.lengths = lengths;
  }

  set(doc: number, values: ArrayLike<number>) {
    this.ensureDocs(doc + 1);
    this.clear(doc);
    if (values.length === 0) return;
    if (this.used + values.length > this.data.length) this.grow(values.length);
    this.data.set(values, this.used);
    this.offsets[doc] = this.used;
    this.lengths[doc] = values.length;
    this.used += values.length;
  }

  clear(doc: number) {
    if (doc >= this.lengths.length) return;
    this.garbage += this.lengths[doc]!;
    this.lengths[doc] = 0;
  }

  private grow(extra: number) {
    if (this.garbage > this.used / 2) {
      // Compact in place of growing: copy the live runs in document order.
      const data = new Int32Array(Math.max(1024, (this.used - this.garbage + extra) * 2));
      let at = 0;
      for (let doc = 0; doc < this.lengths.length; doc++) {
        const length = this.lengths[doc]!;
        if (!length) continue;
        data.set(this.data.subarray(this.offsets[doc]!, this.offsets[doc]! + length), at);
        this.offsets[doc] = at;
        at += length;
      }
      this.data = data;
      this.used = at;
      this.garbage = 0;
      if (this.used + extra <= this.data.length) return;
    }
    const data = new Int32Array(Math.max(Math.ceil((this.used + extra) * 1.5), 1024));
    data.set(this.data.subarray(0, this.used));
    this.data = data;
  }

  bytes(): number {
    return this.data.byteLength + this.offsets.byteLength + this.lengths.byteLength;
  }
}

/** The first index of a sorted list whose value is not below `value` (binary search). */
function lowerBound(list: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
