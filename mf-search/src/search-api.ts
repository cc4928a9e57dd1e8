import { Meilisearch, type MultiSearchQuery } from 'meilisearch';
import { platformApi } from '@dealer/state/platform-api';
import type { RootState } from '@dealer/state/root-reducer';
import type { Car } from '@dealer/contracts/car';
import { buildSearchQueries, pageCount, searchSlugFilters, type SearchState } from '@dealer/rules/search-query';
import { SearchResultCache } from '@dealer/rules/search-cache';

export type FacetStats = Record<string, { min: number; max: number }>;
export type SearchResult = {
  hits: Car[];
  count: number;
  ms: number;
  /** Per facet, the counts from that facet's own query (its own filter left out). */
  facets: Record<string, Record<string, number>>;
  facetStats: FacetStats;
  pagination: { page: number; pages: number; hitsPerPage: number };
};
export type SearchArgs = { state: SearchState; searchSlug: string; hitsPerPage: number };

let client: { key: string; instance: Meilisearch } | null = null;
function searchClient(host: string, apiKey: string) {
  const key = `${host} ${apiKey}`;
  if (client?.key !== key) client = { key, instance: new Meilisearch({ host, apiKey }) };
  return client.instance;
}

/** SPEC §4: results kept by query; the oldest is dropped when full. */
const resultCache = new SearchResultCache<SearchResult>(50);

export const searchApi = platformApi.injectEndpoints({
  endpoints: (build) => ({
    searchCars: build.query<SearchResult, SearchArgs>({
      async queryFn({ state, searchSlug, hitsPerPage }, api) {
        const site = (api.getState() as RootState).site.config;
        if (!site) return { error: { status: 'CUSTOM_ERROR', error: 'No site config' } };
        const { host, apiKey, indexUid } = site.search;
        const facets = site.search_facets;
        const queries = buildSearchQueries({ state, facets, indexUid, hitsPerPage, defaultSort: site.default_sort, extraFilters: searchSlugFilters(searchSlug) });
        const cacheKey = JSON.stringify(queries);
        const cached = resultCache.get(cacheKey);
        if (cached) return { data: cached };
        try {
          const { results } = await searchClient(host, apiKey).multiSearch({ queries: queries as MultiSearchQuery[] });
          const [main, ...perFacet] = results;
          const count = main?.estimatedTotalHits ?? main?.totalHits ?? 0;
          const facetCounts: SearchResult['facets'] = {};
          const facetStats: FacetStats = {};
          facets.forEach((facet, i) => {
            facetCounts[facet] = perFacet[i]?.facetDistribution?.[facet] ?? {};
            const stats = perFacet[i]?.facetStats?.[facet];
            if (stats) facetStats[facet] = stats;
          });
          const data: SearchResult = {
            // SPEC §8: a missing result list is an empty one.
            hits: (main?.hits ?? []) as Car[],
            count,
            ms: main?.processingTimeMs ?? 0,
            facets: facetCounts,
            facetStats,
            pagination: { page: state.page, pages: pageCount(count, hitsPerPage), hitsPerPage },
          };
          resultCache.set(cacheKey, data);
          return { data };
        } catch (error) {
          return { error: { status: 'FETCH_ERROR', error: error instanceof Error ? error.message : String(error) } };
        }
      },
    }),
  }),
});

export const { useSearchCarsQuery } = searchApi;
