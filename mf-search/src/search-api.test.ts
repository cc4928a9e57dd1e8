import { afterEach, describe, expect, it } from 'vitest';
import { testSite } from '@dealer/contracts/testing/test-site';
import { createPlatformStore } from '@dealer/state/store';
import { setPlatformFetch } from '@dealer/state/platform-fetch';
import { cardAttributes, prefetchSearchPage, searchApi } from './search-api';

const site = testSite();
const hit = {
  id: 7,
  slug: '2024-toyota-hilux-sr5',
  name: '2024 Toyota HiLux SR5',
  make: 'Toyota',
  model: 'HiLux',
  primary_image_url: '/img/hilux.jpg',
  price: 52990,
  subscription_price: null,
  before_price: null,
  preorder: false,
  autograb_data: null,
  location_name: 'Parramatta',
  km: 12000,
  simple_fuel: 'Diesel',
  simple_transmission: 'Automatic',
  status: 'in_stock',
  sold: false,
  reserved: false,
  certified: false,
  tag: null,
  created_at_timestamp: 1_700_000_000,
};

/** The official client's multi-search, as the platform answers it: what was asked, and one car. */
function answeringSearch() {
  const asked: { queries: Record<string, unknown>[] }[] = [];
  setPlatformFetch(async (input, init) => {
    expect(String(input instanceof Request ? input.url : input)).toBe(`${site.search.host}/multi-search`);
    const body = JSON.parse(String(init?.body)) as { queries: Record<string, unknown>[] };
    asked.push(body);
    const results = body.queries.map((query, index) => ({
      indexUid: query.indexUid,
      hits: index === 0 ? [hit] : [],
      query: query.q ?? '',
      processingTimeMs: 1,
      limit: query.limit,
      offset: 0,
      estimatedTotalHits: 1,
      facetDistribution: Object.fromEntries(((query.facets as string[] | undefined) ?? []).map((facet) => [facet, { Toyota: 1 }])),
    }));
    return new Response(JSON.stringify({ results }), { headers: { 'content-type': 'application/json' } });
  });
  return asked;
}

afterEach(() => setPlatformFetch(null));

describe('the search page’s search', () => {
  it('asks only for the fields a result card shows, and only counts from each filter’s own query (none kept for a range like price)', async () => {
    const asked = answeringSearch();
    const store = createPlatformStore(site, { apiBase: 'https://www.metrotoyota.example.com.au/api' });
    await prefetchSearchPage(
      { searchSlug: 'new-and-used-cars' },
      { url: new URL(`https://www.metrotoyota.example.com.au${site.default_search_path}?make=Toyota`), store },
    );
    const [main, ...perFilter] = asked[0]!.queries;
    expect(main).toMatchObject({ limit: 24, offset: 0, attributesToRetrieve: [...cardAttributes] });
    expect(perFilter).toHaveLength(site.search_facets.length);
    for (const query of perFilter) {
      expect(query.limit).toBe(0);
      expect(query.facets).toHaveLength(1);
    }
    // The page renders from the answer the store keeps (and the browser hydrates with).
    const queries = (store.getState() as { platformApi: { queries: Record<string, { endpointName?: string; data?: unknown }> } })
      .platformApi.queries;
    expect(Object.values(queries).find((query) => query.endpointName === searchApi.endpoints.searchCars.name)?.data).toMatchObject({
      hits: [hit],
      count: 1,
      facets: { make: { Toyota: 1 }, price: {} },
    });
  });
});
