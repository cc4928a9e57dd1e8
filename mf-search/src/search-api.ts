import { Meilisearch, MeilisearchApiError, type MeilisearchErrorResponse, type MultiSearchQuery } from 'meilisearch';
import { platformApi } from '@dealer/state/platform-api';
import { platformFetch } from '@dealer/state/platform-fetch';
import type { RootState } from '@dealer/state/root-reducer';
import { selectSite } from '@dealer/state/site-slice';
import type { PrefetchContext } from '@dealer/state/server-render';
import type { Car } from '@dealer/contracts/car';
import type { SearchLanding } from '@dealer/contracts/content';
import type { SearchPageProps } from '@dealer/contracts/remote-modules';
import {
  buildSearchQueries,
  isRangeFacet,
  pageCount,
  parseSearchState,
  searchSlugFilters,
  type SearchState,
} from '@dealer/rules/search-query';
import { SearchResultCache } from '@dealer/rules/search-cache';

/**
 * What a result card shows (VehicleCard, cardTag, Save): the only fields the search asks for. A whole
 * car is ten times that (description, photos, features), and the first page's answer travels in the
 * server-rendered page, ahead of the first card's photo.
 */
export const cardAttributes = [
  'id',
  'slug',
  'name',
  'make',
  'model',
  'primary_image_url',
  'price',
  'subscription_price',
  'before_price',
  'preorder',
  'autograb_data',
  'location_name',
  'km',
  'simple_fuel',
  'simple_transmission',
  'status',
  'sold',
  'reserved',
  'on_hold_until_timestamp',
  'certified',
  'tag',
  'created_at_timestamp',
] as const satisfies readonly (keyof Car)[];
export type SearchHit = Pick<Car, (typeof cardAttributes)[number]>;

export type FacetStats = Record<string, { min: number; max: number }>;
export type SearchResult = {
  hits: SearchHit[];
  count: number;
  ms: number;
  /** Per facet, the counts from that facet's own query (its own filter left out). */
  facets: Record<string, Record<string, number>>;
  facetStats: FacetStats;
  pagination: { page: number; pages: number; hitsPerPage: number };
};
/** `landingFilters`: the filters of the search landing page at this slug (none when it is no landing page). */
export type SearchArgs = { state: SearchState; searchSlug: string; hitsPerPage: number; landingFilters: string[] };

/** Cars per results page. */
export const hitsPerPage = 24;

const onServer = typeof window === 'undefined';

/**
 * On the server the official client's requests go through the platform's fetch (answered in
 * process); its answers and errors are the client's own, as over the network.
 */
async function requestOnServer(url: URL | RequestInfo, init?: RequestInit): Promise<unknown> {
  const response = await platformFetch(url instanceof Request ? url : String(url), init);
  const text = await response.text();
  const body = text === '' ? undefined : (JSON.parse(text) as unknown);
  if (!response.ok) throw new MeilisearchApiError(response, body as MeilisearchErrorResponse | undefined);
  return body;
}

let client: { key: string; instance: Meilisearch } | null = null;
function searchClient(host: string, apiKey: string) {
  const key = `${host} ${apiKey}`;
  if (client?.key !== key)
    client = { key, instance: new Meilisearch({ host, apiKey, ...(onServer ? { httpClient: requestOnServer } : {}) }) };
  return client.instance;
}

/** SPEC §4: results kept by query; the oldest is dropped when full. Only in the shopper's browser: a server renders many sites, always fresh. */
const resultCache = onServer ? null : new SearchResultCache<SearchResult>(50);

/**
 * The answer frozen as the store keeps it. Immer (RTK Query's reducer) freezes what it is handed by
 * walking it with its own checks for drafts; an answer frozen here is passed over (~0.4 ms of a
 * server render for the search page's first answer, in one thread of a 2-core machine).
 */
export function frozenAnswer<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) frozenAnswer(inner);
  }
  return value;
}

/** A landing page's slug as the platform stores it (lower-case words and dashes). */
const landingSlugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const searchApi = platformApi.injectEndpoints({
  endpoints: (build) => ({
    /**
     * The search landing page at this slug (issue 24), or null when there is none: a 404, or any other
     * failure, leaves the page a plain search by its slug rather than no search at all.
     */
    searchLanding: build.query<SearchLanding | null, string>({
      async queryFn(slug, _api, _options, baseQuery) {
        // The platform's own rule for a landing's slug: anything else is no landing, without asking.
        if (!landingSlugPattern.test(slug) || slug.length > 120) return { data: null };
        const result = await baseQuery(`/search-pages/${slug}`);
        return { data: result.error ? null : (result.data as SearchLanding) };
      },
    }),
    searchCars: build.query<SearchResult, SearchArgs>({
      async queryFn({ state, searchSlug, hitsPerPage, landingFilters }, api) {
        const site = (api.getState() as RootState).site.config;
        if (!site) return { error: { status: 'CUSTOM_ERROR', error: 'No site config' } };
        const { host, apiKey, indexUid } = site.search;
        const facets = site.search_facets;
        const [main, ...perFacet] = buildSearchQueries({
          state,
          facets,
          indexUid,
          hitsPerPage,
          defaultSort: site.default_sort,
          extraFilters: [...searchSlugFilters(searchSlug), ...landingFilters],
        });
        // The cards' fields only; each facet's own query is asked for its counts, not for cars. The
        // main query asks for no counts: every filter's counts come from its own query (with no
        // filter set it is the main query's search), and the main query's would be a third of the
        // answer, carried between the server's threads and into the page for nothing.
        const queries = [
          { ...main!, facets: [], attributesToRetrieve: [...cardAttributes] },
          ...perFacet.map((query) => ({ ...query, limit: 0 })),
        ];
        const cacheKey = JSON.stringify(queries);
        const cached = resultCache?.get(cacheKey);
        if (cached) return { data: cached };
        try {
          const { results } = await searchClient(host, apiKey).multiSearch({ queries: queries as MultiSearchQuery[] });
          const [mainResult, ...perFacetResults] = results;
          const count = mainResult?.estimatedTotalHits ?? mainResult?.totalHits ?? 0;
          const facetCounts: SearchResult['facets'] = {};
          const facetStats: FacetStats = {};
          facets.forEach((facet, i) => {
            // A range (price, km, year) is chosen between its lowest and highest: its counts per value are not shown.
            facetCounts[facet] = isRangeFacet(facet) ? {} : (perFacetResults[i]?.facetDistribution?.[facet] ?? {});
            const stats = perFacetResults[i]?.facetStats?.[facet];
            if (stats) facetStats[facet] = stats;
          });
          const data: SearchResult = {
            // SPEC §8: a missing result list is an empty one.
            hits: (mainResult?.hits ?? []) as SearchHit[],
            count,
            ms: mainResult?.processingTimeMs ?? 0,
            facets: facetCounts,
            facetStats,
            pagination: { page: state.page, pages: pageCount(count, hitsPerPage), hitsPerPage },
          };
          frozenAnswer(data);
          resultCache?.set(cacheKey, data);
          return { data };
        } catch (error) {
          return { error: { status: 'FETCH_ERROR', error: error instanceof Error ? error.message : String(error) } };
        }
      },
    }),
  }),
});

export const { useSearchCarsQuery, useSearchLandingQuery } = searchApi;

/**
 * The search page's first results on the server (its server build): the same queries the page asks
 * for in the browser, so the browser's store already holds the answers when it hydrates. The landing
 * page first: its filters are part of the search, and its title and intro of the page.
 */
export async function prefetchSearchPage({ searchSlug }: SearchPageProps, { url, store, routeData }: PrefetchContext) {
  const site = selectSite(store.getState());
  const state = parseSearchState(url.searchParams, site.search_facets);
  // The platform read the landing for the document already (shell 1.7): kept as the answer, not asked again.
  const known = routeData && 'searchLanding' in routeData ? (routeData.searchLanding ?? null) : undefined;
  if (known !== undefined) {
    // Typed against RTK Query's own root state; the page's store holds that state under the same key.
    const keep = searchApi.util.upsertQueryData('searchLanding', searchSlug, known) as unknown as Parameters<typeof store.dispatch>[0];
    await store.dispatch(keep);
  }
  const landing = known !== undefined ? known : (await store.dispatch(searchApi.endpoints.searchLanding.initiate(searchSlug))).data;
  const landingFilters = landing?.filters ?? [];
  const result = await store.dispatch(searchApi.endpoints.searchCars.initiate({ state, searchSlug, hitsPerPage, landingFilters }));
  if (result.error) throw new Error(`search failed: ${JSON.stringify(result.error)}`);
}
