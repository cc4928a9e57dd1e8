import { bitsSet, emptySet, sizeOf, toList, wordsFor, type DocSet } from './bitset';
import { FacetIndex } from './facet-index';
import { valueAt } from './filter-evaluator';
import { filterAttributes, FilterSyntaxError, parseFilter, type FilterNode } from './filter-parser';
import { formatHit } from './highlight';
import { evaluateFilter, type FilterContext } from './indexed-filter';
import { MeiliError } from './search-errors';
import { parseQuery, TextIndex, type TextMatcher, type TextRank } from './text-index';

export type Doc = Record<string, unknown> & { id: number | string };
export type FacetOrder = 'alpha' | 'count';
export type IndexSettings = {
  filterableAttributes: string[];
  sortableAttributes: string[];
  searchableAttributes: string[];
  /** Meilisearch's faceting settings: at most 100 values per facet, in alphanumeric order, unless set. */
  faceting?: { maxValuesPerFacet?: number; sortFacetValuesBy?: Record<string, FacetOrder> };
};

export type SearchParams = {
  q?: string | null;
  filter?: string | (string | string[])[] | null;
  facets?: string[] | null;
  sort?: string[] | null;
  limit?: number;
  offset?: number;
  page?: number;
  hitsPerPage?: number;
  attributesToHighlight?: string[] | null;
  highlightPreTag?: string;
  highlightPostTag?: string;
};

export type SearchResponse = {
  hits: Doc[];
  query: string;
  processingTimeMs: number;
  facetDistribution?: Record<string, Record<string, number>>;
  facetStats?: Record<string, { min: number; max: number }>;
  limit?: number;
  offset?: number;
  estimatedTotalHits?: number;
  page?: number;
  hitsPerPage?: number;
  totalHits?: number;
  totalPages?: number;
};

export type DocumentsPage = { results: Doc[]; offset: number; limit: number; total: number };

const defaultSettings = (): IndexSettings => ({ filterableAttributes: [], sortableAttributes: [], searchableAttributes: ['*'] });
const defaultMaxValuesPerFacet = 100;

type SortKey = { attribute: string; descending: boolean };

/** Sort values of the matching documents: numbers before strings, documents without a value last. */
type SortColumn = { descending: boolean; kinds: Uint8Array; numbers: Float64Array; strings: string[] };
const sortNumber = 0;
const sortString = 1;
const sortMissing = 2;

/** Largest filter results kept per index between searches (one multi-search shares its base filter). */
const baseCacheSize = 32;
const parsedFilterCacheSize = 512;
/** Above this many filtered documents, the word postings narrow them before each is ranked. */
const textPostingsAbove = 4096;

/**
 * One in-memory index answering Meilisearch's search contract. Documents sit in numbered slots;
 * per filterable attribute a FacetIndex keeps value postings and per-slot value columns, and a
 * TextIndex keeps the words of the searchable attributes. A search narrows the slots with the
 * filters (postings for selective values, per-slot tests on few candidates), then the query words,
 * then counts facets over every match and orders only the page it returns.
 */
export class SearchIndex {
  private current: IndexSettings;
  private docs: (Doc | undefined)[] = [];
  private slotOf = new Map<string, number>();
  private freeSlots: number[] = [];
  private capacity = 0;
  private readonly universe = { words: 0 };
  private live = new Uint32Array(0);
  private liveCount = 0;
  private facets = new Map<string, FacetIndex>();
  private text: TextIndex;
  /** Bumped on every change, so cached filter results are never stale. */
  private version = 0;
  private baseCache = new Map<string, { version: number; set: DocSet }>();
  private baseByNode = new WeakMap<FilterNode, { version: number; set: DocSet }>();
  /** Parsed and checked user filters by their text (cleared when the filterable attributes change). */
  private parsedFilters = new Map<string, FilterNode>();

  constructor(
    readonly uid: string,
    settings: IndexSettings = defaultSettings(),
  ) {
    this.current = copySettings(settings);
    this.text = new TextIndex(this.current.searchableAttributes, this.universe);
    for (const attribute of new Set(this.current.filterableAttributes)) this.facets.set(attribute, new FacetIndex(attribute, this.universe));
  }

  /** A copy: change settings with updateSettings, which rebuilds what they affect. */
  get settings(): IndexSettings {
    return copySettings(this.current);
  }

  get size() {
    return this.liveCount;
  }

  // -------------------------------------------------------------------------------------------
  // Documents

  private grow(needed: number) {
    if (needed <= this.capacity) return;
    const capacity = Math.max(1024, this.capacity * 2, needed);
    this.capacity = capacity;
    this.universe.words = wordsFor(capacity);
    const live = new Uint32Array(this.universe.words);
    live.set(this.live);
    this.live = live;
    for (const facet of this.facets.values()) facet.ensureDocs(capacity);
    this.text.ensureDocs(capacity);
  }

  private indexSlot(slot: number, doc: Doc) {
    for (const facet of this.facets.values()) facet.add(slot, doc);
    this.text.add(slot, doc);
  }

  private unindexSlot(slot: number) {
    for (const facet of this.facets.values()) facet.remove(slot);
    this.text.remove(slot);
  }

  /** Adds documents, replacing any with the same id; the next search sees them. */
  upsert(docs: Doc[]) {
    for (const doc of docs) {
      const key = String(doc.id);
      let slot = this.slotOf.get(key);
      if (slot !== undefined) this.unindexSlot(slot);
      else {
        slot = this.freeSlots.length ? this.freeSlots.pop()! : this.docs.length;
        this.grow(slot + 1);
        this.slotOf.set(key, slot);
        this.live[slot >>> 5]! |= 1 << (slot & 31);
        this.liveCount++;
      }
      this.docs[slot] = doc;
      this.indexSlot(slot, doc);
    }
    if (docs.length) this.version++;
  }

  remove(ids: (string | number)[]) {
    for (const id of ids) {
      const key = String(id);
      const slot = this.slotOf.get(key);
      if (slot === undefined) continue;
      this.unindexSlot(slot);
      this.slotOf.delete(key);
      this.docs[slot] = undefined;
      this.live[slot >>> 5]! &= ~(1 << (slot & 31));
      this.liveCount--;
      this.freeSlots.push(slot);
    }
    this.version++;
  }

  clear() {
    this.docs = [];
    this.slotOf.clear();
    this.freeSlots = [];
    this.capacity = 0;
    this.universe.words = 0;
    this.live = new Uint32Array(0);
    this.liveCount = 0;
    this.facets = new Map([...this.facets.keys()].map((attribute) => [attribute, new FacetIndex(attribute, this.universe)]));
    this.text = new TextIndex(this.current.searchableAttributes, this.universe);
    this.version++;
  }

  get(id: string | number): Doc | undefined {
    const slot = this.slotOf.get(String(id));
    return slot === undefined ? undefined : this.docs[slot];
  }

  /** Meilisearch's GET /documents page. */
  documents({ offset = 0, limit = 20 }: { offset?: number; limit?: number } = {}): DocumentsPage {
    const results: Doc[] = [];
    let skipped = 0;
    for (let slot = 0; slot < this.docs.length && results.length < limit; slot++) {
      const doc = this.docs[slot];
      if (!doc) continue;
      if (skipped++ < offset) continue;
      results.push(doc);
    }
    return { results, offset, limit, total: this.liveCount };
  }

  private *liveSlots(): Iterable<number> {
    for (let slot = 0; slot < this.docs.length; slot++) if (this.docs[slot]) yield slot;
  }

  /** Changes settings, rebuilding only the structures they affect. */
  updateSettings(partial: Partial<IndexSettings>) {
    const next = copySettings({ ...this.current, ...partial });
    const filterable = new Set(next.filterableAttributes);
    for (const attribute of [...this.facets.keys()]) if (!filterable.has(attribute)) this.facets.delete(attribute);
    for (const attribute of filterable) {
      if (this.facets.has(attribute)) continue;
      const facet = new FacetIndex(attribute, this.universe);
      facet.ensureDocs(this.capacity);
      for (const slot of this.liveSlots()) facet.add(slot, this.docs[slot]!);
      this.facets.set(attribute, facet);
    }
    if (!sameList(next.searchableAttributes, this.current.searchableAttributes)) {
      this.text = new TextIndex(next.searchableAttributes, this.universe);
      this.text.ensureDocs(this.capacity);
      for (const slot of this.liveSlots()) this.text.add(slot, this.docs[slot]!);
    }
    this.current = next;
    this.parsedFilters.clear();
    this.version++;
  }

  /** Approximate bytes held by the index structures (not the documents themselves). */
  memoryEstimateBytes(): number {
    let total = this.live.byteLength + this.docs.length * 8 + this.slotOf.size * 80 + this.text.bytes();
    for (const facet of this.facets.values()) total += facet.bytes();
    return total;
  }

  // -------------------------------------------------------------------------------------------
  // Search

  private parseFilterChecked(filter: SearchParams['filter']): FilterNode {
    if (filter === undefined || filter === null) return { type: 'true' };
    // The same few filters come again and again (a multi-search's facet queries, the next page).
    const key = typeof filter === 'string' ? filter : JSON.stringify(filter);
    const cached = this.parsedFilters.get(key);
    if (cached) return cached;
    const node = this.parseAndCheck(filter);
    if (this.parsedFilters.size >= parsedFilterCacheSize) this.parsedFilters.delete(this.parsedFilters.keys().next().value!);
    this.parsedFilters.set(key, node);
    return node;
  }

  private parseAndCheck(filter: SearchParams['filter']): FilterNode {
    let node: FilterNode;
    try {
      node = parseFilter(filter);
    } catch (error) {
      if (error instanceof FilterSyntaxError) throw new MeiliError('invalid_search_filter', error.message, 400);
      throw error;
    }
    for (const attribute of filterAttributes(node)) {
      if (!this.current.filterableAttributes.includes(attribute)) {
        throw new MeiliError(
          'invalid_search_filter',
          `Attribute \`${attribute}\` is not filterable. Available filterable attributes are: \`${this.current.filterableAttributes.join(', ')}\`.`,
          400,
        );
      }
    }
    return node;
  }

  private sortKeys(sort: string[]): SortKey[] {
    return sort.map((rule) => {
      const match = /^([\w.]+):(asc|desc)$/.exec(rule.trim());
      if (!match) throw new MeiliError('invalid_search_sort', `Invalid syntax for the sort parameter: expected expression ending by \`:asc\` or \`:desc\`, found \`${rule}\`.`, 400);
      const [, attribute, direction] = match;
      if (!this.current.sortableAttributes.includes(attribute!)) {
        throw new MeiliError(
          'invalid_search_sort',
          `Attribute \`${attribute}\` is not sortable. Available sortable attributes are: \`${this.current.sortableAttributes.join(', ')}\`.`,
          400,
        );
      }
      return { attribute: attribute!, descending: direction === 'desc' };
    });
  }

  private filterContext(): FilterContext {
    return { facets: this.facets, docs: this.docs, nWords: this.universe.words, liveCount: this.liveCount };
  }

  private liveSet(): DocSet {
    return bitsSet(this.live, this.liveCount);
  }

  /** The base filter's documents, cached: every query of a multi-search carries the same one. */
  private baseSet(base: FilterNode, ctx: FilterContext): DocSet {
    if (base.type === 'true') return this.liveSet();
    const byNode = this.baseByNode.get(base);
    if (byNode?.version === this.version) return byNode.set;
    const key = JSON.stringify(base);
    const cached = this.baseCache.get(key);
    if (cached?.version === this.version) {
      this.baseByNode.set(base, cached);
      return cached.set;
    }
    const entry = { version: this.version, set: evaluateFilter(base, this.liveSet(), ctx) };
    this.baseCache.delete(key);
    this.baseCache.set(key, entry);
    if (this.baseCache.size > baseCacheSize) this.baseCache.delete(this.baseCache.keys().next().value!);
    this.baseByNode.set(base, entry);
    return entry.set;
  }

  search(params: SearchParams, baseFilter: FilterNode = { type: 'true' }): SearchResponse {
    const started = performance.now();
    const userFilter = this.parseFilterChecked(params.filter);
    for (const facet of params.facets ?? []) {
      if (facet !== '*' && !this.current.filterableAttributes.includes(facet)) {
        throw new MeiliError(
          'invalid_search_facets',
          `Invalid facet distribution, attribute \`${facet}\` is not filterable. The available filterable attributes are \`${this.current.filterableAttributes.join(', ')}\`.`,
          400,
        );
      }
    }
    const sortKeys = params.sort?.length ? this.sortKeys(params.sort) : [];
    const words = parseQuery(params.q);

    const ctx = this.filterContext();
    let set = this.liveCount ? this.baseSet(baseFilter, ctx) : emptySet;
    set = evaluateFilter(userFilter, set, ctx);

    let matcher: TextMatcher | null = null;
    let slots: Int32Array;
    let ranks: TextRank[] | null = null;
    if (words.length) {
      matcher = this.text.matcher(words);
      if (sizeOf(set) > textPostingsAbove) set = matcher.candidates(set, this.universe.words);
      const candidates = toList(set);
      const kept = new Int32Array(candidates.length);
      ranks = [];
      let n = 0;
      const rank: TextRank = { typos: 0, proximity: 0, attribute: 0, position: 0, exactness: 0 };
      for (let k = 0; k < candidates.length; k++) {
        if (!matcher.rank(candidates[k]!, rank)) continue;
        kept[n++] = candidates[k]!;
        ranks.push({ ...rank });
      }
      slots = kept.subarray(0, n);
    } else slots = toList(set);

    const response: SearchResponse = { hits: [], query: params.q ?? '', processingTimeMs: 0 };
    if (params.facets?.length) Object.assign(response, this.facetCounts(params.facets.includes('*') ? this.current.filterableAttributes : params.facets, slots));

    const total = slots.length;
    const usePages = params.page !== undefined || params.hitsPerPage !== undefined;
    const hitsPerPage = params.hitsPerPage ?? 20;
    const page = params.page ?? 1;
    const start = usePages ? (page - 1) * hitsPerPage : (params.offset ?? 0);
    const count = usePages ? hitsPerPage : (params.limit ?? 20);
    const chosen = this.orderedPage(slots, ranks, sortKeys, start, count);
    const highlight = params.attributesToHighlight?.length
      ? {
          attributes: params.attributesToHighlight,
          searchable: this.current.searchableAttributes,
          preTag: params.highlightPreTag ?? '<em>',
          postTag: params.highlightPostTag ?? '</em>',
        }
      : null;
    response.hits = chosen.map((slot) => {
      const doc = this.docs[slot]!;
      return highlight ? ({ ...doc, _formatted: formatHit(doc, matcher, highlight) } as Doc) : doc;
    });
    if (usePages) Object.assign(response, { page, hitsPerPage, totalHits: total, totalPages: hitsPerPage ? Math.ceil(total / hitsPerPage) : 0 });
    else Object.assign(response, { limit: count, offset: start, estimatedTotalHits: total });
    response.processingTimeMs = Math.round(performance.now() - started);
    return response;
  }

  // -------------------------------------------------------------------------------------------
  // Ordering

  private sortColumn(slots: Int32Array, key: SortKey): SortColumn {
    const n = slots.length;
    const kinds = new Uint8Array(n);
    const numbers = new Float64Array(n);
    const strings: string[] = [];
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
    const facet = this.facets.get(key.attribute);
    for (let k = 0; k < n; k++) {
      if (facet) {
        const cell = facet.cells[slots[k]!]!;
        if (cell >= 0 && facet.kinds[cell] === 2) {
          kinds[k] = sortNumber;
          numbers[k] = facet.numbers[cell]!;
          continue;
        }
      }
      const doc = this.docs[slots[k]!]!;
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
  private orderedPage(slots: Int32Array, ranks: TextRank[] | null, sortKeys: SortKey[], start: number, count: number): number[] {
    const n = slots.length;
    const end = Math.min(n, start + count);
    if (start >= end) return [];
    if (!ranks && sortKeys.length === 0) return Array.from(slots.subarray(start, end));
    const columns = sortKeys.map((key) => this.sortColumn(slots, key));
    const compare = (a: number, b: number): number => {
      if (ranks) {
        const x = ranks[a]!;
        const y = ranks[b]!;
        const relevance = x.typos - y.typos || x.proximity - y.proximity || x.attribute - y.attribute || x.position - y.position;
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

  // -------------------------------------------------------------------------------------------
  // Facets

  private facetCounts(names: readonly string[], slots: Int32Array) {
    const facetDistribution: Record<string, Record<string, number>> = {};
    const facetStats: Record<string, { min: number; max: number }> = {};
    const faceting = this.current.faceting ?? {};
    const maxValues = faceting.maxValuesPerFacet ?? defaultMaxValuesPerFacet;
    for (const name of names) {
      const facet = this.facets.get(name)!;
      const { ids, counts } = facet.count(slots);
      let min = Infinity;
      let max = -Infinity;
      for (let k = 0; k < ids.length; k++) {
        const value = facet.numbers[ids[k]!]!;
        if (value < min) min = value;
        if (value > max) max = value;
      }
      if (min <= max) facetStats[name] = { min, max };
      const orderBy = faceting.sortFacetValuesBy?.[name] ?? faceting.sortFacetValuesBy?.['*'] ?? 'alpha';
      // A few spare values: a number and a string that read the same share one entry.
      const shown = FacetIndex.first(ids, maxValues + 16, orderBy === 'count' ? (a, b) => counts[b]! - counts[a]! || facet.alphaOrder(a, b) : facet.alphaOrder);
      const distribution: Record<string, number> = {};
      let kept = 0;
      for (let k = 0; k < shown.length; k++) {
        const id = shown[k]!;
        const label = facet.labels[id]!;
        // A number and a string can read the same ("5"): one entry, as Meilisearch shows them.
        if (Object.hasOwn(distribution, label)) distribution[label]! += counts[id]!;
        else if (kept < maxValues) {
          kept++;
          if (label === '__proto__') Object.defineProperty(distribution, label, { value: counts[id]!, enumerable: true, writable: true, configurable: true });
          else distribution[label] = counts[id]!;
        }
      }
      facet.doneCounting(ids);
      facetDistribution[name] = distribution;
    }
    return { facetDistribution, facetStats };
  }
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

function copySettings(settings: IndexSettings): IndexSettings {
  const copy: IndexSettings = {
    filterableAttributes: [...settings.filterableAttributes],
    sortableAttributes: [...settings.sortableAttributes],
    searchableAttributes: [...settings.searchableAttributes],
  };
  if (settings.faceting) {
    copy.faceting = { ...settings.faceting };
    if (settings.faceting.sortFacetValuesBy) copy.faceting.sortFacetValuesBy = { ...settings.faceting.sortFacetValuesBy };
  }
  return copy;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((item, i) => item === b[i]);
