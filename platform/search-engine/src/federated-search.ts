import type { FilterNode } from './filter-parser';
import type { EmbeddedIndex } from './embedded-index';
import { inside, MeiliError } from './search-errors';
import type { FacetOrder } from './index-settings';
import type { Doc, SearchParams, SearchResponse } from './search-types';
import type { Federation, SearchRequest } from './search-request';

/*
 * Meilisearch's federated multi-search: the queries run as one, their hits merged into a single
 * list by ranking score times each query's weight, then `federation.offset`/`limit` applied.
 */

export type FederatedQuery = { index: EmbeddedIndex; request: SearchRequest; weight: number };
type FacetResult = { distribution: Record<string, Record<string, number>>; stats: Record<string, { min: number; max: number }> };
type Ranked = { hit: Doc; score: number; query: number };

export type FederatedResponse = {
  hits: Doc[];
  processingTimeMs: number;
  limit: number;
  offset: number;
  estimatedTotalHits: number;
  facetsByIndex?: Record<string, FacetResult>;
  facetDistribution?: Record<string, Record<string, number>>;
  facetStats?: Record<string, { min: number; max: number }>;
};

const scoreOf = (hit: Doc) => (typeof hit._rankingScore === 'number' ? hit._rankingScore : 1);

/**
 * The queries' own orders merged, as Meilisearch merges them: the next hit is always the head of
 * some query's list with the highest weighted score, ties going to the earlier query.
 */
function mergeByScore(lists: Ranked[][]): Ranked[] {
  const heads = lists.map(() => 0);
  const merged: Ranked[] = [];
  for (;;) {
    let best = -1;
    for (let q = 0; q < lists.length; q++) {
      const head = lists[q]![heads[q]!];
      if (head && (best < 0 || head.score > lists[best]![heads[best]!]!.score)) best = q;
    }
    if (best < 0) return merged;
    merged.push(lists[best]![heads[best]!++]!);
  }
}

/** A filter in the expression form, so several can be joined with OR. */
function filterExpression(filter: SearchParams['filter']): string {
  if (filter === undefined || filter === null) return '';
  if (typeof filter === 'string') return filter.trim();
  return filter
    .map((item) =>
      Array.isArray(item)
        ? item
            .filter((inner) => inner.trim())
            .map((inner) => `(${inner})`)
            .join(' OR ')
        : item.trim(),
    )
    .filter(Boolean)
    .map((expression) => `(${expression})`)
    .join(' AND ');
}

const textParams = (params: SearchParams) =>
  JSON.stringify([
    params.q ?? '',
    params.matchingStrategy ?? 'last',
    params.attributesToSearchOn ?? null,
    params.rankingScoreThreshold ?? null,
  ]);

/**
 * Facet counts over every document the queries on one index match. Queries with the same words
 * match the union of their filters; queries with different words are counted each on its own and
 * added up, as this engine cannot join two word matches.
 */
function facetsOver(index: EmbeddedIndex, requests: SearchRequest[], facets: string[], base: FilterNode | undefined): FacetResult {
  const run = (params: SearchParams) =>
    index.search({ ...params, facets, limit: 0, offset: 0, page: undefined, hitsPerPage: undefined }, base);
  const groups = new Map<string, SearchParams[]>();
  for (const { params } of requests) groups.set(textParams(params), [...(groups.get(textParams(params)) ?? []), params]);
  const results: SearchResponse[] = [...groups.values()].map((group) => {
    const filters = group.map((params) => filterExpression(params.filter));
    const filter = filters.some((expression) => expression === '')
      ? undefined
      : filters.map((expression) => `(${expression})`).join(' OR ');
    return run({ ...group[0]!, filter });
  });
  return mergeFacetResults(results.map((result) => ({ distribution: result.facetDistribution ?? {}, stats: result.facetStats ?? {} })));
}

function mergeFacetResults(results: FacetResult[]): FacetResult {
  const merged: FacetResult = { distribution: {}, stats: {} };
  for (const { distribution, stats } of results) {
    for (const [facet, values] of Object.entries(distribution)) {
      const into = (merged.distribution[facet] ??= {});
      for (const [value, count] of Object.entries(values)) into[value] = (into[value] ?? 0) + count;
    }
    for (const [facet, { min, max }] of Object.entries(stats)) {
      const into = merged.stats[facet];
      merged.stats[facet] = into ? { min: Math.min(into.min, min), max: Math.max(into.max, max) } : { min, max };
    }
  }
  return merged;
}

const facetOrder = (index: EmbeddedIndex, facet: string): FacetOrder => {
  const sortBy = index.settings.faceting?.sortFacetValuesBy;
  return sortBy?.[facet] ?? sortBy?.['*'] ?? 'alpha';
};

/** `federation.mergeFacets`: one distribution over all indexes, in the order the indexes agree on, trimmed to `maxValuesPerFacet`. */
function mergeAcrossIndexes(byIndex: Map<EmbeddedIndex, FacetResult>, maxValuesPerFacet: number | undefined) {
  const merged = mergeFacetResults([...byIndex.values()]);
  const orders = new Map<string, { order: FacetOrder; uid: string }>();
  for (const [index, result] of byIndex) {
    for (const facet of Object.keys(result.distribution)) {
      const order = facetOrder(index, facet);
      const previous = orders.get(facet);
      if (previous && previous.order !== order) {
        throw new MeiliError(
          'invalid_multi_search_facet_order',
          `Inconsistent order for values in facet \`${facet}\`: index \`${previous.uid}\` orders ${previous.order === 'alpha' ? 'alphabetically' : 'by count'}, but index \`${index.uid}\` orders ${order === 'alpha' ? 'alphabetically' : 'by count'}.\n - Hint: Remove \`federation.mergeFacets\` or change \`faceting.sortFacetValuesBy\` to be consistent in settings.`,
          400,
        );
      }
      orders.set(facet, { order, uid: index.uid });
    }
  }
  const facetDistribution: Record<string, Record<string, number>> = {};
  for (const [facet, values] of Object.entries(merged.distribution)) {
    const byCount = orders.get(facet)?.order === 'count';
    const entries = Object.entries(values).sort(([a, x], [b, y]) => (byCount ? y - x : 0) || (a < b ? -1 : a > b ? 1 : 0));
    facetDistribution[facet] = Object.fromEntries(maxValuesPerFacet === undefined ? entries : entries.slice(0, maxValuesPerFacet));
  }
  return { facetDistribution, facetStats: merged.stats };
}

/**
 * Runs a federated multi-search. Each query fetches enough hits to fill the federation's page;
 * a document two queries of one index both find is listed once, where it ranks best. Every hit
 * says where it came from in `_federation`.
 */
export async function federatedSearch(
  queries: FederatedQuery[],
  federation: Federation,
  facetIndexes: Map<string, EmbeddedIndex>,
  base: FilterNode | undefined,
  /** Awaited between two queries' searches, so that one request never holds the process for all of them. */
  between: () => Promise<unknown> = async () => undefined,
): Promise<FederatedResponse> {
  const started = performance.now();
  const wanted = federation.offset + federation.limit;
  let estimatedTotalHits = 0;
  const lists: Ranked[][] = [];
  for (const [query, { index, request, weight }] of queries.entries()) {
    if (query > 0) await between();
    let result: SearchResponse;
    try {
      result = index.search({ ...request.params, offset: 0, limit: wanted, showRankingScore: true }, base);
    } catch (error) {
      throw inside(`.queries[${query}]`, error);
    }
    estimatedTotalHits += result.estimatedTotalHits ?? 0;
    lists.push(result.hits.map((hit) => ({ hit, score: scoreOf(hit) * weight, query })));
  }

  const seen = new Set<string>();
  const hits: Doc[] = [];
  for (const { hit, score, query } of mergeByScore(lists)) {
    const { index, request } = queries[query]!;
    const key = `${index.uid}\u0000${String(hit[index.primaryKey ?? 'id'])}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (seen.size <= federation.offset) continue;
    if (hits.length === federation.limit) break;
    const { _rankingScore, ...rest } = hit;
    hits.push({
      ...(request.params.showRankingScore ? hit : rest),
      _federation: { indexUid: index.uid, queriesPosition: query, weightedRankingScore: score },
    } as Doc);
  }

  const response: FederatedResponse = { hits, processingTimeMs: 0, limit: federation.limit, offset: federation.offset, estimatedTotalHits };
  const byIndex = new Map<EmbeddedIndex, FacetResult>();
  for (const [uid, facets] of Object.entries(federation.facetsByIndex ?? {})) {
    const index = facetIndexes.get(uid)!;
    const requests = queries.filter((query) => query.index === index).map((query) => query.request);
    try {
      // An index no query searches still has its facets checked, as Meilisearch checks them.
      if (requests.length === 0) index.search({ facets: facets ?? [], limit: 0 }, base);
      else byIndex.set(index, facetsOver(index, requests, facets ?? [], base));
    } catch (error) {
      const placed = inside(`.federation.facetsByIndex.${uid}`, error);
      throw placed instanceof MeiliError && placed.code === 'invalid_search_facets'
        ? new MeiliError('invalid_multi_search_facets', placed.message, 400)
        : placed;
    }
  }
  if (byIndex.size > 0) {
    if (federation.mergeFacets) Object.assign(response, mergeAcrossIndexes(byIndex, federation.mergeFacets.maxValuesPerFacet));
    else response.facetsByIndex = Object.fromEntries([...byIndex].map(([index, result]) => [index.uid, result]));
  }
  response.processingTimeMs = Math.round(performance.now() - started);
  return response;
}
