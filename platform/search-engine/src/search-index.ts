import { bitsSet, emptySet, sizeOf, toList, wordsFor, type DocSet } from './bitset';
import { FacetIndex } from './facet-index';
import { isFilterableBy } from './filter-evaluator';
import { filterAttributes, FilterSyntaxError, geoConditions, parseFilter, type FilterNode } from './filter-parser';
import { distinctHits, hitPresentation, presentHit, textScore } from './hits';
import { copySettings, defaultMaxTotalHits, defaultMaxValuesPerFacet, type IndexSettings } from './index-settings';
import { evaluateFilter, type FilterContext } from './indexed-filter';
import type { TextRank } from './match-types';
import type { TextMatcher } from './matcher';
import { parseQuery } from './query-words';
import { rankingScore } from './ranking-score';
import { facetCountsOf, RecentMatches, type FacetCounts, type Matches } from './recent-matches';
import { MeiliError } from './search-errors';
import type { Doc, DocumentsPage, SearchParams, SearchResponse } from './search-types';
import { orderedPage, readSortKeys, slotSortColumn, type SortColumn, type SortKey } from './sort';
import { TextIndex } from './text-index';

const defaultSettings = (): IndexSettings => ({ filterableAttributes: [], sortableAttributes: [], searchableAttributes: ['*'] });

/** Largest filter results kept per index between searches (one multi-search shares its base filter). */
const baseCacheSize = 32;
const parsedFilterCacheSize = 512;
/** Distinct filter and word combinations whose matches are kept (a multi-search's queries mostly repeat one). */
const recentMatchesSize = 8;
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
  private recentMatches = new RecentMatches(recentMatchesSize);
  /** Each sort rule's values by slot (slotSortColumn), for the documents of `version`. */
  private sortColumns: { version: number; byRule: Map<string, SortColumn> } = { version: -1, byRule: new Map() };

  constructor(
    readonly uid: string,
    settings: IndexSettings = defaultSettings(),
  ) {
    this.current = copySettings(settings);
    this.text = new TextIndex(this.current.searchableAttributes, this.universe);
    for (const attribute of new Set(this.current.filterableAttributes))
      this.facets.set(attribute, new FacetIndex(attribute, this.universe));
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

  /**
   * A sort rule's values by slot, made once per version of the documents: every search sorted by
   * that rule then reads its matches' values from it instead of visiting each document. A rule's
   * direction counts (an array sorts by its lowest value ascending, its highest descending); a
   * `_geoPoint` rule depends on its point and is not kept.
   */
  private readonly slotColumnOf = (key: SortKey): SortColumn | null => {
    if (key.point) return null;
    if (this.sortColumns.version !== this.version) this.sortColumns = { version: this.version, byRule: new Map() };
    const rule = `${key.attribute}:${key.descending ? 'desc' : 'asc'}`;
    let column = this.sortColumns.byRule.get(rule);
    if (!column) {
      column = slotSortColumn(this.docs, this.facets, key);
      this.sortColumns.byRule.set(rule, column);
    }
    return column;
  };

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
    // As Meilisearch: the attributes first, then each geo condition needs `_geo`, then its coordinates.
    const geo = geoConditions(node);
    for (const attribute of geo.length ? [...filterAttributes(node), '_geo'] : filterAttributes(node)) {
      if (!isFilterableBy(attribute, this.current.filterableAttributes)) {
        throw new MeiliError(
          'invalid_search_filter',
          `Attribute \`${attribute}\` is not filterable. Available filterable attributes are: \`${this.current.filterableAttributes.join(', ')}\`.`,
          400,
        );
      }
    }
    const invalid = geo.find((condition) => condition.invalid)?.invalid;
    if (invalid) throw new MeiliError('invalid_search_filter', invalid, 400);
    return node;
  }

  /**
   * The attribute numbers `attributesToSearchOn` restricts the words to; null for all. Unknown
   * names are Meilisearch's error when the searchable attributes are set, and ignored when all are.
   */
  private searchOnFields(names: readonly string[]): Uint8Array | null {
    const searchable = this.current.searchableAttributes;
    const everySearchable = searchable.includes('*');
    const fields = new Uint8Array(Math.max(1, this.text.fieldCount));
    for (const name of names) {
      if (name === '*') continue;
      const matching = name.includes('*') ? searchable.filter((attribute) => attributePattern(name).test(attribute)) : [name];
      const numbers = matching.map((attribute) => this.text.fieldNumber(attribute)).filter((field) => field !== undefined);
      for (const field of numbers) fields[field] = 1;
      if (numbers.length || everySearchable || searchable.includes(name)) continue;
      const displayed = this.current.displayedAttributes ?? ['*'];
      const shown = searchable.filter((attribute) => displayed.includes('*') || displayed.includes(attribute)).sort();
      const hidden = shown.length < searchable.length ? ', <..hidden-attributes>' : '';
      throw new MeiliError(
        'invalid_search_attributes_to_search_on',
        `Attribute \`${name}\` is not searchable. Available searchable attributes are: \`${shown.join(', ')}${hidden}\`.`,
        400,
      );
    }
    return names.includes('*') ? null : fields;
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

  /**
   * `matched` (facet search) is handed every slot the search matches, before any is paged out; read
   * only, as later searches may share them.
   */
  search(params: SearchParams, baseFilter: FilterNode = { type: 'true' }, matched?: (slots: Int32Array) => void): SearchResponse {
    const started = performance.now();
    const userFilter = this.parseFilterChecked(params.filter);
    // A facet asked for twice is counted once (its distribution is one entry either way).
    const facets = params.facets ? [...new Set(params.facets)] : null;
    for (const facet of facets ?? []) {
      if (facet !== '*' && !isFilterableBy(facet, this.current.filterableAttributes)) {
        throw new MeiliError(
          'invalid_search_facets',
          `Invalid facet distribution, attribute \`${facet}\` is not filterable. The available filterable attributes are \`${this.current.filterableAttributes.join(', ')}\`.`,
          400,
        );
      }
    }
    const sortKeys = params.sort?.length ? readSortKeys(params.sort, this.current.sortableAttributes) : [];
    const words = parseQuery(params.q);
    const fields = params.attributesToSearchOn ? this.searchOnFields(params.attributesToSearchOn) : null;

    const ctx = this.filterContext();
    const base = this.liveCount ? this.baseSet(baseFilter, ctx) : emptySet;
    const strategy = params.matchingStrategy ?? 'last';
    // Any matcher of the same words ranks alike, so one made after cached matches scores and highlights them as theirs would.
    const matcher = words.length ? this.text.matcher(words, { strategy, fields }) : null;
    const key = {
      base: baseFilter.type === 'true' ? null : base,
      filter: userFilter.type === 'true' ? null : userFilter,
      words: words.length ? `${strategy}|${fields?.join(',') ?? '*'}|${JSON.stringify(words)}` : '',
    };
    let matches = this.recentMatches.get(this.version, key);
    if (!matches) {
      matches = this.match(evaluateFilter(userFilter, base, ctx), matcher);
      this.recentMatches.add(this.version, key, matches);
    }
    let { slots, ranks } = matches;

    // Below the threshold a hit is left out, and out of every count (Meilisearch's rankingScoreThreshold).
    const threshold = params.rankingScoreThreshold ?? null;
    if (threshold !== null && matcher && ranks) {
      const keptSlots = new Int32Array(slots.length);
      const keptRanks: TextRank[] = [];
      for (let k = 0; k < slots.length; k++) {
        if (rankingScore(textScore(matcher, slots[k]!)) < threshold) continue;
        keptSlots[keptRanks.length] = slots[k]!;
        keptRanks.push(ranks[k]!);
      }
      slots = keptSlots.subarray(0, keptRanks.length);
      ranks = keptRanks;
    }
    matched?.(slots);
    // With a distinct attribute, every match is ordered to keep the best of each value; counts are of those kept.
    const distinct = params.distinct ?? this.current.distinctAttribute ?? null;
    let ordered: number[] | null = null;
    if (distinct) {
      ordered = distinctHits(
        this.docs,
        this.facets.get(distinct),
        orderedPage(this.docs, this.facets, slots, ranks, sortKeys, 0, slots.length, this.slotColumnOf),
        distinct,
      );
      slots = Int32Array.from(ordered);
    }

    const response: SearchResponse = { hits: [], query: params.q ?? '', processingTimeMs: 0 };
    if (facets?.length) {
      const names = facets.includes('*') ? this.current.filterableAttributes : facets;
      const count = () => this.facetCounts(names, slots);
      // Counted once per match set, unless a threshold or distinct left out some of its documents.
      Object.assign(response, slots === matches.slots ? facetCountsOf(matches, names, this.current, count) : count());
    }

    // No search reaches past maxTotalHits: its hits, offset and counts stop there (Meilisearch's pagination setting).
    const maxTotalHits = this.current.maxTotalHits ?? defaultMaxTotalHits;
    const total = Math.min(slots.length, maxTotalHits);
    const usePages = params.page !== undefined || params.hitsPerPage !== undefined;
    const hitsPerPage = params.hitsPerPage ?? 20;
    const page = params.page ?? 1;
    const limit = params.limit ?? 20;
    // Page 0 asks for no hit, only the counts.
    const [wantedStart, wanted] = usePages ? (page === 0 ? [0, 0] : [(page - 1) * hitsPerPage, hitsPerPage]) : [params.offset ?? 0, limit];
    const start = Math.min(wantedStart, maxTotalHits);
    const count = Math.min(wanted, maxTotalHits - start);
    const chosen = ordered
      ? ordered.slice(start, start + count)
      : orderedPage(this.docs, this.facets, slots, ranks, sortKeys, start, count, this.slotColumnOf);
    const presentation = hitPresentation(params, sortKeys, this.current.displayedAttributes);
    response.hits = presentation
      ? chosen.map((slot) => presentHit(this.docs[slot]!, slot, presentation, matcher, sortKeys))
      : chosen.map((slot) => this.docs[slot]!);
    if (usePages)
      Object.assign(response, { page, hitsPerPage, totalHits: total, totalPages: hitsPerPage ? Math.ceil(total / hitsPerPage) : 0 });
    else Object.assign(response, { limit, offset: start, estimatedTotalHits: total });
    response.processingTimeMs = Math.round(performance.now() - started);
    return response;
  }

  /** The filtered documents holding the query words (all of them without words), each with its rank. */
  private match(set: DocSet, matcher: TextMatcher | null): Matches {
    if (!matcher) return { slots: toList(set), ranks: null };
    if (sizeOf(set) > textPostingsAbove) set = matcher.candidates(set, this.universe.words);
    const candidates = toList(set);
    const kept = new Int32Array(candidates.length);
    const ranks: TextRank[] = [];
    const rank: TextRank = { dropped: 0, typos: 0, proximity: 0, attribute: 0, position: 0, exactness: 0 };
    for (let k = 0; k < candidates.length; k++) {
      if (!matcher.rank(candidates[k]!, rank)) continue;
      kept[ranks.length] = candidates[k]!;
      ranks.push({ ...rank });
    }
    return { slots: kept.subarray(0, ranks.length), ranks };
  }

  /** Every document a filter matches, however many: the documents API's filter, not a search. */
  filterDocuments(filter: SearchParams['filter']): Doc[] {
    const node = this.parseFilterChecked(filter);
    if (!this.liveCount) return [];
    return Array.from(toList(evaluateFilter(node, this.liveSet(), this.filterContext())), (slot) => this.docs[slot]!);
  }

  // -------------------------------------------------------------------------------------------
  // Facets

  /**
   * The string values a filterable attribute, or a field nested in one, holds among the documents
   * a search matches, each with how many hold it, in no order: what Meilisearch's facet search
   * picks from (it skips numbers).
   */
  facetValues(params: SearchParams, attribute: string, baseFilter?: FilterNode): { value: string; count: number }[] {
    const values: { value: string; count: number }[] = [];
    this.search({ ...params, facets: null, limit: 0, offset: 0, page: undefined, hitsPerPage: undefined }, baseFilter, (slots) => {
      const { facet, of } = this.facetOf(attribute, slots);
      const { ids, counts } = facet.count(of);
      for (const id of ids) if (facet.kinds[id] === 1) values.push({ value: facet.labels[id]!, count: counts[id]! });
      facet.doneCounting(ids);
    });
    return values;
  }

  /** A facet's index and the slots to count in it: for a field nested in a filterable one (`doggos.age`), one built over the matches. */
  private facetOf(name: string, slots: Int32Array): { facet: FacetIndex; of: Int32Array } {
    const facet = this.facets.get(name);
    if (facet) return { facet, of: slots };
    return {
      facet: FacetIndex.over(
        name,
        Array.from(slots, (slot) => this.docs[slot]!),
      ),
      of: Int32Array.from(slots.keys()),
    };
  }

  private facetCounts(names: readonly string[], slots: Int32Array): FacetCounts {
    const facetDistribution: Record<string, Record<string, number>> = {};
    const facetStats: Record<string, { min: number; max: number }> = {};
    const faceting = this.current.faceting ?? {};
    const maxValues = faceting.maxValuesPerFacet ?? defaultMaxValuesPerFacet;
    for (const name of names) {
      const { facet, of } = this.facetOf(name, slots);
      const { ids, counts } = facet.count(of);
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
      const shown = FacetIndex.first(
        ids,
        maxValues + 16,
        orderBy === 'count' ? (a, b) => counts[b]! - counts[a]! || facet.alphaOrder(a, b) : facet.alphaOrder,
      );
      const distribution: Record<string, number> = {};
      let kept = 0;
      for (let k = 0; k < shown.length; k++) {
        const id = shown[k]!;
        const label = facet.labels[id]!;
        // A number and a string can read the same ("5"): one entry, as Meilisearch shows them.
        if (Object.hasOwn(distribution, label)) distribution[label]! += counts[id]!;
        else if (kept < maxValues) {
          kept++;
          if (label === '__proto__')
            Object.defineProperty(distribution, label, { value: counts[id]!, enumerable: true, writable: true, configurable: true });
          else distribution[label] = counts[id]!;
        }
      }
      facet.doneCounting(ids);
      facetDistribution[name] = distribution;
    }
    return { facetDistribution, facetStats };
  }
}

/** An attribute pattern (`doggos.*`, `*_name`) as a regular expression. */
function attributePattern(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((item, i) => item === b[i]);
