import { Meilisearch, MeilisearchApiError, type MeilisearchErrorResponse, type MultiSearchQuery } from 'meilisearch';
import { defaultSerializeQueryArgs, QueryStatus } from '@reduxjs/toolkit/query';
import { hydratePlatformApi, platformApi } from '@dealer/state/platform-api';
import { platformFetch } from '@dealer/state/platform-fetch';
import type { RootState } from '@dealer/state/root-reducer';
import { selectSite } from '@dealer/state/site-slice';
import type { PrefetchContext } from '@dealer/state/server-render';
import type { Car } from '@dealer/contracts/car';
import type { PublicSiteConfig } from '@dealer/contracts/site';
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

type SearchOutcome = { data: SearchResult } | { error: { status: 'FETCH_ERROR'; error: string } };

/**
 * The search page's search (SPEC §7), as the store keeps its answer: the page's query in the browser
 * (RTK Query's `searchCars`), and the server's prefetch, which needs none of RTK Query's machinery
 * for one answer it hands to the page's store whole.
 */
async function searchCars({ state, searchSlug, hitsPerPage, landingFilters }: SearchArgs, site: PublicSiteConfig): Promise<SearchOutcome> {
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
      async queryFn(args, api) {
        const site = (api.getState() as RootState).site.config;
        if (!site) return { error: { status: 'CUSTOM_ERROR', error: 'No site config' } };
        return searchCars(args, site);
      },
    }),
  }),
});

export const { useSearchCarsQuery, useSearchLandingQuery } = searchApi;

/** One answer the server's prefetch hands to the page's store: the endpoint, its arguments and its data. */
type ServerAnswer = {
  [E in keyof typeof searchApi.endpoints]: [endpointName: E, args: unknown, data: unknown];
}[keyof typeof searchApi.endpoints];

/**
 * The page's answers put into its store the way the browser's store takes the server's
 * (`hydratePlatformApi`, RTK Query's rehydration): one action, with no query thunk, no round of
 * the middleware and no reducer pass per answer, which were most of RTK Query's share of a server
 * render. Each entry is what RTK Query keeps for a fulfilled query, under the key its hooks ask for
 * (its default `serializeQueryArgs`; no endpoint of the search has its own).
 */
function serverAnswersAction(store: PrefetchContext['store'], answers: ServerAnswer[]) {
  const api = store.getState().platformApi;
  if (!api) throw new Error('the platform API is not in the store');
  const now = Date.now();
  const queries = { ...api.queries };
  for (const [endpointName, originalArgs, data] of answers) {
    const key = defaultSerializeQueryArgs({ endpointName, queryArgs: originalArgs, endpointDefinition: undefined as never });
    queries[key] = {
      status: QueryStatus.fulfilled,
      endpointName,
      requestId: `server-${endpointName}`,
      originalArgs,
      startedTimeStamp: now,
      data,
      fulfilledTimeStamp: now,
    } as (typeof queries)[string];
  }
  return hydratePlatformApi({ platformApi: { ...api, queries } });
}

/**
 * The search page's first results on the server (its server build): the same search the page asks
 * for in the browser, kept in the page's store as its query's answer, so the render and the
 * browser's store find it. The landing page first: its filters are part of the search, and its
 * title and intro of the page.
 */
export async function prefetchSearchPage({ searchSlug }: SearchPageProps, { url, store, routeData }: PrefetchContext) {
  const site = selectSite(store.getState());
  const state = parseSearchState(url.searchParams, site.search_facets);
  // The platform read the landing for the document already (shell 1.7): kept as the answer, not
  // asked again. An older platform hands in none: asked as the browser asks it.
  const known = routeData && 'searchLanding' in routeData ? (routeData.searchLanding ?? null) : undefined;
  const landing =
    known !== undefined ? known : ((await store.dispatch(searchApi.endpoints.searchLanding.initiate(searchSlug))).data ?? null);
  const args: SearchArgs = { state, searchSlug, hitsPerPage, landingFilters: landing?.filters ?? [] };
  const outcome = await searchCars(args, site);
  if ('error' in outcome) throw new Error(`search failed: ${JSON.stringify(outcome.error)}`);
  store.dispatch(
    serverAnswersAction(store, [
      ['searchLanding', searchSlug, landing],
      ['searchCars', args, outcome.data],
    ]),
  );
}
