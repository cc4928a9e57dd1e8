import { filterAttributes, FilterSyntaxError, parseFilter, type FilterNode } from './filter-parser';
import { matchesFilter } from './filter-evaluator';
import { MeiliError } from './search-errors';

export type Doc = Record<string, unknown> & { id: number | string };
export type IndexSettings = { filterableAttributes: string[]; sortableAttributes: string[]; searchableAttributes: string[] };

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

const words = (text: string) => text.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').split(/[^a-z0-9]+/).filter(Boolean);

/**
 * One in-memory index answering Meilisearch's search contract. A full scan per query:
 * the stock of a dealer group is small; the search issue brings faster structures.
 */
export class SearchIndex {
  private docs = new Map<string, Doc>();
  private text = new Map<string, string[]>();

  constructor(
    readonly uid: string,
    public settings: IndexSettings = { filterableAttributes: [], sortableAttributes: [], searchableAttributes: ['*'] },
  ) {}

  get size() {
    return this.docs.size;
  }

  upsert(docs: Doc[]) {
    for (const doc of docs) {
      const key = String(doc.id);
      this.docs.set(key, doc);
      this.text.set(key, this.searchableWords(doc));
    }
  }

  remove(ids: (string | number)[]) {
    for (const id of ids) {
      this.docs.delete(String(id));
      this.text.delete(String(id));
    }
  }

  private searchableWords(doc: Doc): string[] {
    const fields = this.settings.searchableAttributes.includes('*') ? Object.keys(doc) : this.settings.searchableAttributes;
    return fields.flatMap((field) => {
      const value = doc[field];
      if (typeof value === 'string' || typeof value === 'number') return words(String(value));
      if (Array.isArray(value)) return value.flatMap((item) => (typeof item === 'string' ? words(item) : []));
      return [];
    });
  }

  private parseFilterChecked(filter: SearchParams['filter']): FilterNode {
    let node: FilterNode;
    try {
      node = parseFilter(filter);
    } catch (error) {
      if (error instanceof FilterSyntaxError) throw new MeiliError('invalid_search_filter', error.message, 400);
      throw error;
    }
    for (const attribute of filterAttributes(node)) {
      if (!this.settings.filterableAttributes.includes(attribute)) {
        throw new MeiliError(
          'invalid_search_filter',
          `Attribute \`${attribute}\` is not filterable. Available filterable attributes are: \`${this.settings.filterableAttributes.join(', ')}\`.`,
          400,
        );
      }
    }
    return node;
  }

  private sorter(sort: string[]) {
    const keys = sort.map((rule) => {
      const match = /^([\w.]+):(asc|desc)$/.exec(rule.trim());
      if (!match) throw new MeiliError('invalid_search_sort', `Invalid syntax for the sort parameter: expected expression ending by \`:asc\` or \`:desc\`, found \`${rule}\`.`, 400);
      const [, attribute, direction] = match;
      if (!this.settings.sortableAttributes.includes(attribute!)) {
        throw new MeiliError(
          'invalid_search_sort',
          `Attribute \`${attribute}\` is not sortable. Available sortable attributes are: \`${this.settings.sortableAttributes.join(', ')}\`.`,
          400,
        );
      }
      return { attribute: attribute!, sign: direction === 'asc' ? 1 : -1 };
    });
    return (a: Doc, b: Doc) => {
      for (const { attribute, sign } of keys) {
        const x = a[attribute];
        const y = b[attribute];
        // Documents without the value go last, whatever the direction (as Meilisearch does).
        if (x === undefined || x === null) return y === undefined || y === null ? 0 : 1;
        if (y === undefined || y === null) return -1;
        if (x < y) return -sign;
        if (x > y) return sign;
      }
      return 0;
    };
  }

  search(params: SearchParams, baseFilter: FilterNode = { type: 'true' }): SearchResponse {
    const started = performance.now();
    const userFilter = this.parseFilterChecked(params.filter);
    for (const facet of params.facets ?? []) {
      if (facet !== '*' && !this.settings.filterableAttributes.includes(facet)) {
        throw new MeiliError(
          'invalid_search_facets',
          `Invalid facet distribution, attribute \`${facet}\` is not filterable. The available filterable attributes are \`${this.settings.filterableAttributes.join(', ')}\`.`,
          400,
        );
      }
    }
    const sort = params.sort?.length ? this.sorter(params.sort) : null;
    const terms = words(params.q ?? '');

    const matched: { doc: Doc; score: number }[] = [];
    for (const [key, doc] of this.docs) {
      if (!matchesFilter(baseFilter, doc) || !matchesFilter(userFilter, doc)) continue;
      let score = 0;
      if (terms.length) {
        const docWords = this.text.get(key)!;
        let all = true;
        for (const [i, term] of terms.entries()) {
          const last = i === terms.length - 1;
          if (docWords.includes(term)) score += 2;
          else if (last && docWords.some((word) => word.startsWith(term))) score += 1;
          else {
            all = false;
            break;
          }
        }
        if (!all) continue;
      }
      matched.push({ doc, score });
    }
    matched.sort((a, b) => (terms.length ? b.score - a.score : 0) || (sort ? sort(a.doc, b.doc) : 0));

    const response: SearchResponse = { hits: [], query: params.q ?? '', processingTimeMs: 0 };
    if (params.facets?.length) {
      const facetNames = params.facets.includes('*') ? this.settings.filterableAttributes : params.facets;
      const distribution: Record<string, Record<string, number>> = {};
      const stats: Record<string, { min: number; max: number }> = {};
      for (const facet of facetNames) {
        const counts: Record<string, number> = {};
        for (const { doc } of matched) {
          const value = doc[facet];
          for (const item of Array.isArray(value) ? value : [value]) {
            if (item === undefined || item === null || typeof item === 'object') continue;
            counts[String(item)] = (counts[String(item)] ?? 0) + 1;
            if (typeof item === 'number') {
              const current = stats[facet];
              stats[facet] = current ? { min: Math.min(current.min, item), max: Math.max(current.max, item) } : { min: item, max: item };
            }
          }
        }
        distribution[facet] = counts;
      }
      response.facetDistribution = distribution;
      response.facetStats = stats;
    }

    const usePages = params.page !== undefined || params.hitsPerPage !== undefined;
    if (usePages) {
      const hitsPerPage = params.hitsPerPage ?? 20;
      const page = params.page ?? 1;
      const start = (page - 1) * hitsPerPage;
      response.hits = matched.slice(start, start + hitsPerPage).map((m) => m.doc);
      Object.assign(response, { page, hitsPerPage, totalHits: matched.length, totalPages: hitsPerPage ? Math.ceil(matched.length / hitsPerPage) : 0 });
    } else {
      const limit = params.limit ?? 20;
      const offset = params.offset ?? 0;
      response.hits = matched.slice(offset, offset + limit).map((m) => m.doc);
      Object.assign(response, { limit, offset, estimatedTotalHits: matched.length });
    }
    response.processingTimeMs = Math.round(performance.now() - started);
    return response;
  }
}
