import { bitsSet, emptySet, sizeOf, toList, wordsFor, type DocSet } from './bitset';
import { FacetIndex, manyValues } from './facet-index';
import { geoDistanceMeters, geoPointOf, isFilterableBy, valueAt } from './filter-evaluator';
import { filterAttributes, FilterSyntaxError, geoConditions, parseFilter, type FilterNode } from './filter-parser';
import { formatHit, type FormatRequest } from './highlight';
import { evaluateFilter, type FilterContext } from './indexed-filter';
import { MeiliError } from './search-errors';
import { rankingScore, rankingScoreDetails, type SortPlace } from './ranking-score';
import { selectAttributes } from './select-attributes';
import { parseQuery, TextIndex, type TextMatcher, type TextRank, type TextScore } from './text-index';

export type Doc = Record<string, unknown> & { id: number | string };
export type FacetOrder = 'alpha' | 'count';
export type IndexSettings = {
  filterableAttributes: string[];
  sortableAttributes: string[];
  searchableAttributes: string[];
  /** Meilisearch's faceting settings: at most 100 values per facet, in alphanumeric order, unless set. */
  faceting?: { maxValuesPerFacet?: number; sortFacetValuesBy?: Record<string, FacetOrder> };
  /** Fields a search or document read may return (`['*']`: all). */
  displayedAttributes?: string[];
  /** At most one hit per value of this attribute (Meilisearch's `distinctAttribute`). */
  distinctAttribute?: string | null;
  /** Meilisearch's `pagination.maxTotalHits`: no search reaches past this many hits (default 1000). */
  maxTotalHits?: number;
};

/** Meilisearch's `matchingStrategy`. */
export type MatchingStrategy = 'last' | 'all' | 'frequency';

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
  attributesToRetrieve?: string[] | null;
  attributesToCrop?: string[] | null;
  cropLength?: number;
  cropMarker?: string;
  showMatchesPosition?: boolean;
  showRankingScore?: boolean;
  showRankingScoreDetails?: boolean;
  rankingScoreThreshold?: number | null;
  matchingStrategy?: MatchingStrategy;
  distinct?: string | null;
  attributesToSearchOn?: string[] | null;
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
const defaultMaxTotalHits = 1000;
const defaultCropLength = 10;

/** A sort rule: an attribute, or (`_geoPoint(lat, lng)`) the distance from a point to each document's `_geo`. */
type SortKey = { rule: string; attribute: string; point: [lat: number, lng: number] | null; descending: boolean };

/** What a hit shows besides the stored document: chosen only when the search asks for any of it. */
type Presentation = {
  /** The attributes a hit shows; null: all of them. */
  retrieve: string[] | null;
  format: FormatRequest | null;
  /** The first `_geoPoint` sorted by: each hit with a `_geo` gets its `_geoDistance`. */
  geoPoint: [lat: number, lng: number] | null;
  score: boolean;
  details: boolean;
};

/** Meilisearch's reserved attribute names, which no sort rule may name. */
const reservedSortNames = ['_geo', '_geoDistance', '_geoPoint', '_geoRadius', '_geoBoundingBox'];

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

  /** Sort rules as Meilisearch reads them (milli's `AscDesc`), with its error for each way one can be wrong. */
  private sortKeys(sort: string[]): SortKey[] {
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
          throw invalid(`Invalid syntax for the geo parameter: expected expression formated like \`_geoPoint(latitude, longitude)\` and ending by \`:asc\` or \`:desc\`, found \`${member}\`.`);
        }
        const [lat, lng] = point;
        if (lat < -90 || lat > 90) throw invalid(`Bad latitude \`${lat}\`. Latitude must be contained between -90 and 90 degrees. `);
        if (lng < -180 || lng > 180) throw invalid(`Bad longitude \`${lng}\`. Longitude must be contained between -180 and 180 degrees. `);
        this.mustBeSortable('_geo');
        return { rule: `_geoPoint(${lat}, ${lng}):${direction}`, attribute: '_geo', point, descending };
      }
      const reserved = reservedSortNames.includes(member) || ['_geoRadius(', '_geoBoundingBox(', '_geo(', '_geoDistance('].some((start) => member.startsWith(start));
      if (reserved) {
        if (member.startsWith('_geoPoint')) {
          throw invalid(`Invalid syntax for the geo parameter: expected expression formated like \`_geoPoint(latitude, longitude)\` and ending by \`:asc\` or \`:desc\`, found \`${member}\`.`);
        }
        const geoName = member === '_geo' ? member : ['_geoRadius', '_geoBoundingBox'].find((name) => member.startsWith(name));
        if (geoName) {
          throw invalid(`\`${geoName}\` is a reserved keyword and thus can't be used as a sort expression. Use the _geoPoint(latitude, longitude) built-in rule to sort on _geo field coordinates.`);
        }
        throw invalid(`\`${member}\` is a reserved keyword and thus can't be used as a sort expression.`);
      }
      this.mustBeSortable(member);
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

  private mustBeSortable(attribute: string) {
    const sortable = this.current.sortableAttributes;
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

  /** `matched` (facet search) is handed every slot the search matches, before any is paged out. */
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
    const sortKeys = params.sort?.length ? this.sortKeys(params.sort) : [];
    const words = parseQuery(params.q);
    const fields = params.attributesToSearchOn ? this.searchOnFields(params.attributesToSearchOn) : null;

    const ctx = this.filterContext();
    let set = this.liveCount ? this.baseSet(baseFilter, ctx) : emptySet;
    set = evaluateFilter(userFilter, set, ctx);

    let matcher: TextMatcher | null = null;
    let slots: Int32Array;
    let ranks: TextRank[] | null = null;
    if (words.length) {
      matcher = this.text.matcher(words, { strategy: params.matchingStrategy ?? 'last', fields });
      if (sizeOf(set) > textPostingsAbove) set = matcher.candidates(set, this.universe.words);
      const candidates = toList(set);
      const kept = new Int32Array(candidates.length);
      ranks = [];
      let n = 0;
      const rank: TextRank = { dropped: 0, typos: 0, proximity: 0, attribute: 0, position: 0, exactness: 0 };
      for (let k = 0; k < candidates.length; k++) {
        if (!matcher.rank(candidates[k]!, rank)) continue;
        kept[n++] = candidates[k]!;
        ranks.push({ ...rank });
      }
      slots = kept.subarray(0, n);
    } else slots = toList(set);

    // Below the threshold a hit is left out, and out of every count (Meilisearch's rankingScoreThreshold).
    const threshold = params.rankingScoreThreshold ?? null;
    if (threshold !== null && matcher && ranks) {
      let n = 0;
      for (let k = 0; k < slots.length; k++) {
        if (rankingScore(this.textScore(matcher, slots[k]!)) < threshold) continue;
        slots[n] = slots[k]!;
        ranks[n++] = ranks[k]!;
      }
      slots = slots.subarray(0, n);
      ranks.length = n;
    }
    matched?.(slots);
    // With a distinct attribute, every match is ordered to keep the best of each value; counts are of those kept.
    const distinct = params.distinct ?? this.current.distinctAttribute ?? null;
    let ordered: number[] | null = null;
    if (distinct) {
      ordered = this.distinctHits(this.orderedPage(slots, ranks, sortKeys, 0, slots.length), distinct);
      slots = Int32Array.from(ordered);
    }

    const response: SearchResponse = { hits: [], query: params.q ?? '', processingTimeMs: 0 };
    if (facets?.length) Object.assign(response, this.facetCounts(facets.includes('*') ? this.current.filterableAttributes : facets, slots));

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
    const chosen = ordered ? ordered.slice(start, start + count) : this.orderedPage(slots, ranks, sortKeys, start, count);
    const presentation = this.presentation(params, sortKeys);
    response.hits = presentation ? chosen.map((slot) => this.present(slot, presentation, matcher, sortKeys)) : chosen.map((slot) => this.docs[slot]!);
    if (usePages) Object.assign(response, { page, hitsPerPage, totalHits: total, totalPages: hitsPerPage ? Math.ceil(total / hitsPerPage) : 0 });
    else Object.assign(response, { limit, offset: start, estimatedTotalHits: total });
    response.processingTimeMs = Math.round(performance.now() - started);
    return response;
  }

  /** Every document a filter matches, however many: the documents API's filter, not a search. */
  filterDocuments(filter: SearchParams['filter']): Doc[] {
    const node = this.parseFilterChecked(filter);
    if (!this.liveCount) return [];
    return Array.from(toList(evaluateFilter(node, this.liveSet(), this.filterContext())), (slot) => this.docs[slot]!);
  }

  // -------------------------------------------------------------------------------------------
  // Hits

  private textScore(matcher: TextMatcher, slot: number): TextScore {
    matcher.rank(slot, scratchRank);
    return matcher.score();
  }

  /** What the hits show besides the stored documents; null when they are the documents as stored. */
  private presentation(params: SearchParams, sortKeys: SortKey[]): Presentation | null {
    const plain =
      !params.attributesToRetrieve && !params.attributesToHighlight?.length && !params.attributesToCrop?.length && !params.showMatchesPosition && !params.showRankingScore && !params.showRankingScoreDetails;
    const displayed = this.current.displayedAttributes ?? ['*'];
    if (plain && displayed.includes('*') && !sortKeys.some((key) => key.point)) return null;
    const everyDisplayed = displayed.includes('*');
    const isDisplayed = (attribute: string) => everyDisplayed || displayed.some((name) => attribute === name || attribute.startsWith(`${name}.`));
    const asked = params.attributesToRetrieve ?? ['*'];
    const retrieve = asked.includes('*') ? (everyDisplayed ? null : displayed) : asked.filter(isDisplayed);
    const highlight = params.attributesToHighlight ?? [];
    const crop = params.attributesToCrop ?? [];
    const format: FormatRequest | null =
      highlight.length || crop.length || params.showMatchesPosition
        ? {
            highlight,
            crop,
            cropLength: params.cropLength ?? defaultCropLength,
            cropMarker: params.cropMarker ?? '…',
            preTag: params.highlightPreTag ?? '<em>',
            postTag: params.highlightPostTag ?? '</em>',
            matchesPosition: params.showMatchesPosition === true,
            displayed: isDisplayed,
            retrieved: retrieve,
          }
        : null;
    const geoPoint = sortKeys.find((key) => key.point)?.point ?? null;
    const score = params.showRankingScore === true;
    const details = params.showRankingScoreDetails === true;
    if (!retrieve && !format && !geoPoint && !score && !details) return null;
    return { retrieve, format, geoPoint, score, details };
  }

  /** A hit as Meilisearch returns it: the attributes shown, `_geoDistance`, then `_formatted`, `_matchesPosition` and the ranking score. */
  private present(slot: number, presentation: Presentation, matcher: TextMatcher | null, sortKeys: SortKey[]): Doc {
    const doc = this.docs[slot]!;
    const hit: Record<string, unknown> = presentation.retrieve ? selectAttributes(doc, presentation.retrieve) : { ...doc };
    const point = presentation.geoPoint && geoPointOf(hit);
    if (presentation.geoPoint && point) hit._geoDistance = Math.round(geoDistanceMeters(presentation.geoPoint, point));
    if (presentation.format) {
      const { formatted, matchesPosition } = formatHit(doc, matcher, presentation.format);
      if (formatted) hit._formatted = formatted;
      if (matchesPosition) hit._matchesPosition = matchesPosition;
    }
    if (presentation.score || presentation.details) {
      const score = matcher ? this.textScore(matcher, slot) : null;
      if (presentation.score) hit._rankingScore = rankingScore(score);
      if (presentation.details) hit._rankingScoreDetails = rankingScoreDetails(score, sortKeys.map((key) => sortPlace(doc, key)));
    }
    return hit as Doc;
  }

  /** Of the ordered slots, the first holding each value of the attribute; documents without it all stay. */
  private distinctHits(ordered: number[], attribute: string): number[] {
    const facet = this.facets.get(attribute);
    const seen = new Set<string | number>();
    const kept: number[] = [];
    for (const slot of ordered) {
      const values: (string | number)[] = facet ? facetValueIds(facet, slot) : distinctValues(valueAt(this.docs[slot]!, attribute));
      if (values.some((value) => seen.has(value))) continue;
      for (const value of values) seen.add(value);
      kept.push(slot);
    }
    return kept;
  }

  // -------------------------------------------------------------------------------------------
  // Ordering

  private sortColumn(slots: Int32Array, key: SortKey): SortColumn {
    const n = slots.length;
    const kinds = new Uint8Array(n);
    const numbers = new Float64Array(n);
    const strings: string[] = [];
    if (key.point) {
      // By distance from the point; documents without a `_geo` come last either way.
      for (let k = 0; k < n; k++) {
        const point = geoPointOf(this.docs[slots[k]!]!);
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
        const relevance = x.dropped - y.dropped || x.typos - y.typos || x.proximity - y.proximity || x.attribute - y.attribute || x.position - y.position;
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
    return { facet: FacetIndex.over(name, Array.from(slots, (slot) => this.docs[slot]!)), of: Int32Array.from(slots.keys()) };
  }

  private facetCounts(names: readonly string[], slots: Int32Array) {
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
  if (settings.displayedAttributes) copy.displayedAttributes = [...settings.displayedAttributes];
  if (settings.distinctAttribute !== undefined) copy.distinctAttribute = settings.distinctAttribute;
  if (settings.maxTotalHits !== undefined) copy.maxTotalHits = settings.maxTotalHits;
  return copy;
}

/** Scratch for re-ranking one document when its score is wanted. */
const scratchRank: TextRank = { dropped: 0, typos: 0, proximity: 0, attribute: 0, position: 0, exactness: 0 };

/** The value ids a document holds in a facet (one, several, or none). */
function facetValueIds(facet: FacetIndex, slot: number): number[] {
  const cell = facet.cells[slot]!;
  if (cell >= 0) return [cell];
  return cell === manyValues ? Array.from(facet.manyOf(slot)) : [];
}

/** A value's distinct keys when its attribute is not filterable: numbers as themselves, text without case. */
function distinctValues(value: unknown): (string | number)[] {
  if (Array.isArray(value)) return value.flatMap(distinctValues);
  if (typeof value === 'number') return [value];
  if (typeof value === 'string' || typeof value === 'boolean') return [`${String(value).trim().toLowerCase()}`];
  return [];
}

/** Where a document sits on a sort rule, for `_rankingScoreDetails`. */
function sortPlace(doc: Doc, key: SortKey): SortPlace {
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

/** An attribute pattern (`doggos.*`, `*_name`) as a regular expression. */
function attributePattern(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((item, i) => item === b[i]);
