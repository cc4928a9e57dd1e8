import { filterLimits } from './filter-parser';
import type { EmbeddedIndex } from './embedded-index';
import { MeiliError } from './search-errors';
import type { Federation, SearchRequest } from './search-request';

/**
 * What one request made with a public key (every shopper's browser holds one) may ask the engine
 * to do. Meilisearch sets no such bounds; a server shared by many sites must, or one request's
 * hundred queries, each highlighting every attribute of fifty hits, hold the process for seconds.
 * Each bound is summed over the request's queries.
 */
export type SearchBudget = {
  /** Queries in one multi-search (the search page sends one, plus one per filter). */
  queries: number;
  /** Hits asked for: each query's `limit` (or `hitsPerPage`); a federated query's `offset` + `limit`. */
  hits: number;
  /** Attributes whose facet values are counted; `*` counts the index's filterable attributes. */
  facets: number;
  /** Hits × attributes highlighted or cropped; `*` counts as `wildcardAttributes` attributes. */
  highlightedFields: number;
  /** Bytes of filter expressions. */
  filterBytes: number;
};

/** What `*` in attributesToHighlight/attributesToCrop is counted as: a document's attributes are not known before it is found. */
export const wildcardAttributes = 50;

/** Meilisearch's default page size. */
const defaultLimit = 20;

type BudgetedQuery = SearchRequest & { index: EmbeddedIndex };

const filterStrings = (filter: SearchRequest['params']['filter']): string[] =>
  filter === undefined || filter === null ? [] : typeof filter === 'string' ? [filter] : filter.flat();
const filterBytes = (filter: SearchRequest['params']['filter']) =>
  filterStrings(filter).reduce((sum, text) => sum + Buffer.byteLength(text), 0);
/** As the filter parser measures a filter's length (its array form joined by AND and OR). */
const filterCharacters = (filter: SearchRequest['params']['filter']) => filterStrings(filter).reduce((sum, text) => sum + text.length, 0);

const facetsCost = (facets: readonly string[] | null | undefined, index: EmbeddedIndex) =>
  (facets ?? []).reduce((sum, facet) => sum + (facet === '*' ? Math.max(1, index.settings.filterableAttributes.length) : 1), 0);

function highlightedAttributes({ attributesToHighlight, attributesToCrop }: SearchRequest['params']): number {
  const names = new Set([...(attributesToHighlight ?? []), ...(attributesToCrop ?? []).map((name) => name.split(':')[0]!)]);
  return names.has('*') ? wildcardAttributes + names.size - 1 : names.size;
}

const over = (code: string, path: string, what: string, allowed: number, asked: number) =>
  new MeiliError(
    code,
    `Invalid value at \`${path}\`: a search with a site's public key may ask for at most ${allowed} ${what} in all, but this one asks for ${asked}. Ask for less, or send the queries in several requests.`,
    400,
  );

/**
 * Refuses, before anything runs, a request whose queries together ask for more than the budget,
 * with Meilisearch's error shape and the code of the parameter that is over.
 */
export function checkSearchBudget(
  queries: readonly BudgetedQuery[],
  federation: Federation | undefined,
  budget: SearchBudget,
  multi: boolean,
) {
  const at = (name: string) => (multi ? `.queries[].${name}` : name);
  if (queries.length > budget.queries) throw over('bad_request', '.queries', 'queries', budget.queries, queries.length);
  let hits = 0;
  let facets = 0;
  let highlighted = 0;
  let filters = 0;
  for (const { params, index } of queries) {
    const asked = federation ? federation.offset + federation.limit : (params.hitsPerPage ?? params.limit ?? defaultLimit);
    hits += asked;
    facets += facetsCost(params.facets, index);
    highlighted += asked * highlightedAttributes(params);
    filters += filterBytes(params.filter);
  }
  if (federation)
    for (const [uid, names] of Object.entries(federation.facetsByIndex ?? {}))
      facets += facetsCost(names, queries.find((query) => query.index.uid === uid)?.index ?? queries[0]!.index);
  if (hits > budget.hits) throw over(multi ? 'bad_request' : 'invalid_search_limit', at('limit'), 'hits', budget.hits, hits);
  if (facets > budget.facets) throw over(multi ? 'bad_request' : 'invalid_search_facets', at('facets'), 'facets', budget.facets, facets);
  if (highlighted > budget.highlightedFields) {
    throw over(
      multi ? 'bad_request' : 'invalid_search_attributes_to_highlight',
      at('attributesToHighlight'),
      'highlighted or cropped fields (hits × attributes)',
      budget.highlightedFields,
      highlighted,
    );
  }
  // A filter over the length any search takes is refused by the search itself, with Meilisearch's own message.
  const oneTooLong = queries.some(({ params }) => filterCharacters(params.filter) > filterLimits.characters);
  if (filters > budget.filterBytes && !oneTooLong)
    throw over(multi ? 'bad_request' : 'invalid_search_filter', at('filter'), 'bytes of filters', budget.filterBytes, filters);
}
