import { Meilisearch, type MultiSearchQuery } from 'meilisearch';
import { platformApi } from '@dealer/state/platform-api';
import type { RootState } from '@dealer/state/root-reducer';
import type { Car } from '@dealer/contracts/car';

export type SearchArgs = { q: string; make: string | null; page: number; hitsPerPage: number; sort: string };
export type SearchResult = {
  hits: Car[];
  count: number;
  ms: number;
  makes: Record<string, number>;
  pagination: { page: number; pages: number };
};

let client: { host: string; apiKey: string; instance: Meilisearch } | null = null;
function searchClient(host: string, apiKey: string) {
  if (!client || client.host !== host || client.apiKey !== apiKey) {
    client = { host, apiKey, instance: new Meilisearch({ host, apiKey }) };
  }
  return client.instance;
}

const quote = (value: string) => `"${value.replace(/["']/g, '')}"`;

export const searchApi = platformApi.injectEndpoints({
  endpoints: (build) => ({
    searchCars: build.query<SearchResult, SearchArgs>({
      async queryFn(args, api) {
        const site = (api.getState() as RootState).site.config;
        if (!site) return { error: { status: 'CUSTOM_ERROR', error: 'No site config' } };
        const { host, apiKey, indexUid } = site.search;
        const offset = (args.page - 1) * args.hitsPerPage;
        const makeFilter = args.make ? [`make = ${quote(args.make)}`] : [];
        // Disjunctive facets: the main query, plus one limit-1 query per facet without that facet's own filter.
        const queries: MultiSearchQuery[] = [
          { indexUid, q: args.q, filter: makeFilter, sort: [args.sort], limit: args.hitsPerPage, offset, facets: ['make'] },
          { indexUid, q: args.q, filter: [], limit: 1, facets: ['make'] },
        ];
        try {
          const { results } = await searchClient(host, apiKey).multiSearch({ queries });
          const [main, makeFacet] = results;
          const count = main?.estimatedTotalHits ?? 0;
          return {
            data: {
              hits: (main?.hits ?? []) as Car[],
              count,
              ms: main?.processingTimeMs ?? 0,
              makes: makeFacet?.facetDistribution?.make ?? {},
              pagination: { page: args.page, pages: Math.ceil(count / args.hitsPerPage) },
            },
          };
        } catch (error) {
          return { error: { status: 'FETCH_ERROR', error: error instanceof Error ? error.message : String(error) } };
        }
      },
    }),
  }),
});

export const { useSearchCarsQuery } = searchApi;
