import { facetHits, maxFacetQueryLength, type FacetHit } from './facet-search';
import type { FilterNode } from './filter-parser';
import {
  applySettings,
  attributeNames,
  defaultIndexSettings,
  searchSettingsOf,
  type IndexSettings,
  type MeiliSettings,
} from './index-settings';
import { MeiliError } from './search-errors';
import { SearchIndex } from './search-index';
import type { Doc, SearchParams, SearchResponse } from './search-types';
import { selectAttributes } from './select-attributes';

/** One index: its documents by primary key, its settings, and the SearchIndex that answers searches on them. */
export class EmbeddedIndex {
  primaryKey: string | null;
  readonly createdAt: string;
  updatedAt: string;
  /** The stored documents, in the order they were first added (what GET /documents pages through). */
  private readonly docs = new Map<string, Doc>();
  private meiliSettings: MeiliSettings = structuredClone(defaultIndexSettings);
  /**
   * The search structure. It keys documents by `id`; `docs` above keeps them by the index's own
   * primary key and in the order they came, for the documents API.
   */
  private readonly engine: SearchIndex;

  constructor(
    readonly uid: string,
    primaryKey: string | null,
    now = new Date(),
  ) {
    this.primaryKey = primaryKey;
    this.createdAt = now.toISOString();
    this.updatedAt = this.createdAt;
    this.engine = new SearchIndex(uid, searchSettingsOf(this.meiliSettings));
  }

  get size() {
    return this.docs.size;
  }

  /** The settings the search structure applies. */
  get settings(): IndexSettings {
    return this.engine.settings;
  }

  allSettings(): MeiliSettings {
    return structuredClone(this.meiliSettings);
  }

  /** Replaces the named settings (null: back to the default); the search structure rebuilds what they affect. */
  updateSettings(partial: Partial<MeiliSettings>) {
    applySettings(this.meiliSettings, partial);
    this.engine.updateSettings(searchSettingsOf(this.meiliSettings));
    this.touch();
  }

  /** What the search structure is given: it keys documents by `id`, so another primary key is copied there. */
  private searchDocs(docs: Doc[]): Doc[] {
    const key = this.primaryKey;
    if (!key || key === 'id') return docs;
    return docs.map((doc) => ({ ...doc, id: doc[key] as string | number }));
  }

  private touch() {
    this.updatedAt = new Date().toISOString();
  }

  /** Adds or replaces whole documents. */
  upsert(docs: Doc[]) {
    for (const doc of docs) this.docs.set(this.keyOf(doc), doc);
    this.engine.upsert(this.searchDocs(docs));
    this.touch();
  }

  /** Adds documents, or updates the fields given of those already there. */
  merge(docs: Doc[]) {
    this.upsert(docs.map((doc) => ({ ...this.docs.get(this.keyOf(doc)), ...doc })));
  }

  remove(ids: (string | number)[]): number {
    const present = ids.map(String).filter((id) => this.docs.has(id));
    for (const id of present) this.docs.delete(id);
    this.engine.remove(present);
    this.touch();
    return present.length;
  }

  clear(): number {
    const count = this.docs.size;
    this.docs.clear();
    this.engine.clear();
    this.touch();
    return count;
  }

  get(id: string | number): Doc | undefined {
    return this.docs.get(String(id));
  }

  /** A document as the documents API gives it: its displayed fields only, and of those the `fields` asked for. */
  shown(doc: Doc, fields?: readonly string[]): Record<string, unknown> {
    const pick = (from: Record<string, unknown>, names: readonly string[]) => (names.includes('*') ? from : selectAttributes(from, names));
    const displayed = pick(doc, attributeNames(this.meiliSettings.displayedAttributes));
    return fields ? pick(displayed, fields) : displayed;
  }

  private keyOf(doc: Doc): string {
    return String(doc[this.primaryKey ?? 'id']);
  }

  /** The documents a filter matches, in stored order. Filter errors come back in the documents API's words. */
  matching(filter: SearchParams['filter']): Doc[] {
    if (filter === undefined || filter === null || filter === '' || (Array.isArray(filter) && filter.length === 0))
      return [...this.docs.values()];
    let hits: Doc[];
    try {
      // The search structure's hits carry the primary key as `id` (see searchDocs).
      hits = this.engine.filterDocuments(filter);
    } catch (error) {
      if (error instanceof MeiliError && error.code === 'invalid_search_filter') {
        throw new MeiliError(
          'invalid_document_filter',
          error.message.replace('Available filterable attributes', 'Available filterable attributes patterns'),
          400,
        );
      }
      throw error;
    }
    const keys = new Set(hits.map((hit) => String(hit.id)));
    return [...this.docs.entries()].filter(([key]) => keys.has(key)).map(([, doc]) => doc);
  }

  search(params: SearchParams, baseFilter?: FilterNode): SearchResponse {
    const response = this.engine.search(params, baseFilter);
    const key = this.primaryKey;
    if (key && key !== 'id') {
      // Give hits back their own `id` field (or none), which searchDocs overwrote with the primary key.
      response.hits = response.hits.map((hit) => {
        const stored = this.docs.get(String(hit.id));
        if (!stored) return hit;
        const { id: _primaryKey, ...rest } = hit;
        return ('id' in stored ? { ...rest, id: stored.id } : rest) as Doc;
      });
    }
    return response;
  }

  /**
   * Meilisearch's facet search: the values of `facetName` held by the documents the search
   * matches that start like `facetQuery` (with the typos a query word of its length may have),
   * with how many hold each; in the order the index gives that facet's values, at most
   * `maxValuesPerFacet` of them.
   */
  facetSearch(facetName: string, facetQuery: string, params: SearchParams, baseFilter?: FilterNode): FacetHit[] {
    // No value is searched for by a query this long; say so before counting any.
    if (facetQuery.length > maxFacetQueryLength) return [];
    return facetHits(
      this.engine.facetValues(params, facetName, baseFilter),
      facetName,
      facetQuery,
      this.meiliSettings.typoTolerance,
      this.settings.faceting,
    );
  }

  info() {
    return { uid: this.uid, primaryKey: this.primaryKey, createdAt: this.createdAt, updatedAt: this.updatedAt };
  }

  stats() {
    const fieldDistribution: Record<string, number> = {};
    for (const doc of this.docs.values())
      for (const field of Object.keys(doc)) fieldDistribution[field] = (fieldDistribution[field] ?? 0) + 1;
    return { numberOfDocuments: this.docs.size, isIndexing: false, fieldDistribution };
  }
}
