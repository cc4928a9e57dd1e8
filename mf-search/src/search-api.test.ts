import { afterEach, describe, expect, it } from 'vitest';
import type { SearchLanding } from '@dealer/contracts/content';
import { testSite } from '@dealer/contracts/testing/test-site';
import { createPlatformStore } from '@dealer/state/store';
import { setPlatformFetch } from '@dealer/state/platform-fetch';
import { hydratePlatformApi } from '@dealer/state/platform-api';
import { parseSearchState } from '@dealer/rules/search-query';
import { cardAttributes, frozenAnswer, hitsPerPage, prefetchSearchPage, searchApi } from './search-api';

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

const apiBase = 'https://www.metrotoyota.example.com.au/api';

/** A dealer's landing page over the new and used HiLux (the slug's own filter is new or used). */
const hiluxLanding: SearchLanding = {
  slug: 'new-and-used-toyota-hilux',
  title: 'New and used Toyota HiLux in Parramatta',
  intro_html: '<p>Every <strong>HiLux</strong> we have.</p>',
  description: 'New and used Toyota HiLux at Metro Toyota.',
  filters: ['make = "Toyota"', 'model = "HiLux"'],
};

/**
 * The platform as the search page calls it: its landing pages (`landings`, by slug: the landing, or
 * the status of a failure; any other slug is a 404) and the official client's multi-search, answered
 * with one car. `requests`: every address asked for, in order; `asked`: each multi-search's body.
 */
function answeringSearch(landings: Record<string, SearchLanding | number> = {}) {
  const asked: { queries: Record<string, unknown>[] }[] = [];
  const requests: string[] = [];
  setPlatformFetch(async (input, init) => {
    const address = String(input instanceof Request ? input.url : input);
    requests.push(address);
    if (address.startsWith(`${apiBase}/search-pages/`)) {
      const landing = landings[address.slice(`${apiBase}/search-pages/`.length)];
      if (typeof landing === 'number') return new Response('upstream failed', { status: landing });
      return landing ? Response.json(landing) : Response.json({ message: 'There is no search page here.' }, { status: 404 });
    }
    expect(address).toBe(`${site.search.host}/multi-search`);
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
  return Object.assign(asked, { requests });
}

type QueriesState = { platformApi: { queries: Record<string, { endpointName?: string; data?: unknown }> } };
const storedAnswer = (store: { getState(): unknown }, endpointName: string) =>
  Object.values((store.getState() as QueriesState).platformApi.queries).find((query) => query.endpointName === endpointName)?.data;

afterEach(() => setPlatformFetch(null));

describe('the search page’s search', () => {
  it('asks only for the fields a result card shows, and only counts from each filter’s own query (none kept for a range like price, none asked of the main query)', async () => {
    const asked = answeringSearch();
    const store = createPlatformStore(site, { apiBase });
    await prefetchSearchPage(
      { searchSlug: 'new-and-used-cars' },
      { url: new URL(`https://www.metrotoyota.example.com.au${site.default_search_path}?make=Toyota`), store },
    );
    const [main, ...perFilter] = asked[0]!.queries;
    expect(main).toMatchObject({ limit: 24, offset: 0, facets: [], attributesToRetrieve: [...cardAttributes] });
    expect(perFilter).toHaveLength(site.search_facets.length);
    for (const query of perFilter) {
      expect(query.limit).toBe(0);
      expect(query.facets).toHaveLength(1);
    }
    // The page renders from the answer the store keeps (and the browser hydrates with).
    expect(storedAnswer(store, searchApi.endpoints.searchCars.name)).toMatchObject({
      hits: [hit],
      count: 1,
      facets: { make: { Toyota: 1 }, price: {} },
    });
  });

  it('on a landing page, asks for the landing first, then searches its stock: the slug’s own filter and the landing’s', async () => {
    const asked = answeringSearch({ [hiluxLanding.slug]: hiluxLanding });
    const store = createPlatformStore(site, { apiBase });
    await prefetchSearchPage(
      { searchSlug: hiluxLanding.slug },
      { url: new URL(`https://www.metrotoyota.example.com.au/search/${hiluxLanding.slug}`), store },
    );
    expect(asked.requests).toEqual([`${apiBase}/search-pages/${hiluxLanding.slug}`, `${site.search.host}/multi-search`]);
    // Every query of the search (each filter's counts too) lists only the landing's stock.
    for (const query of asked[0]!.queries) {
      expect(query.filter).toEqual(expect.arrayContaining(['car_type IN ["new", "used"]', 'make = "Toyota"', 'model = "HiLux"']));
    }
    // Both answers travel to the browser in the store: the page hydrates with the same title, intro and cars.
    expect(storedAnswer(store, searchApi.endpoints.searchLanding.name)).toEqual(hiluxLanding);
    expect(storedAnswer(store, searchApi.endpoints.searchCars.name)).toMatchObject({ hits: [hit], count: 1 });
  });

  it('on a slug that is no landing page (a 404), searches by the slug alone, as before', async () => {
    const asked = answeringSearch();
    const store = createPlatformStore(site, { apiBase });
    await prefetchSearchPage(
      { searchSlug: 'used-cars' },
      { url: new URL('https://www.metrotoyota.example.com.au/search/used-cars'), store },
    );
    expect(asked.requests).toEqual([`${apiBase}/search-pages/used-cars`, `${site.search.host}/multi-search`]);
    expect(asked[0]!.queries[0]!.filter).toEqual(['car_type = "used"']);
    expect(storedAnswer(store, searchApi.endpoints.searchLanding.name)).toBeNull();
  });

  it('takes the landing the platform read for the page instead of asking again, and keeps it for the browser', async () => {
    const asked = answeringSearch({ [hiluxLanding.slug]: hiluxLanding });
    const store = createPlatformStore(site, { apiBase });
    await prefetchSearchPage(
      { searchSlug: hiluxLanding.slug },
      {
        url: new URL(`https://www.metrotoyota.example.com.au/search/${hiluxLanding.slug}`),
        store,
        routeData: { searchLanding: hiluxLanding },
      },
    );
    expect(asked.requests).toEqual([`${site.search.host}/multi-search`]);
    expect(asked[0]!.queries[0]!.filter).toEqual(expect.arrayContaining(['make = "Toyota"', 'model = "HiLux"']));
    expect(storedAnswer(store, searchApi.endpoints.searchLanding.name)).toEqual(hiluxLanding);

    // Looked up and none (null): a plain search by the slug, still without asking.
    const plain = createPlatformStore(site, { apiBase });
    await prefetchSearchPage(
      { searchSlug: 'used-cars' },
      { url: new URL('https://www.metrotoyota.example.com.au/search/used-cars'), store: plain, routeData: { searchLanding: null } },
    );
    expect(asked.requests.filter((address) => address.includes('/search-pages/'))).toEqual([]);
    expect(asked[1]!.queries[0]!.filter).toEqual(['car_type = "used"']);
    expect(storedAnswer(plain, searchApi.endpoints.searchLanding.name)).toBeNull();

    // Not looked up (an older shell, or a category page): asked as before.
    await prefetchSearchPage(
      { searchSlug: hiluxLanding.slug },
      {
        url: new URL(`https://www.metrotoyota.example.com.au/search/${hiluxLanding.slug}`),
        store: createPlatformStore(site, { apiBase }),
        routeData: {},
      },
    );
    expect(asked.requests.filter((address) => address.includes('/search-pages/'))).toEqual([
      `${apiBase}/search-pages/${hiluxLanding.slug}`,
    ]);
  });

  it('keeps both answers where the page’s own queries look for them: neither the render nor the browser it hydrates in asks again', async () => {
    const asked = answeringSearch({ [hiluxLanding.slug]: hiluxLanding });
    const store = createPlatformStore(site, { apiBase });
    const url = new URL(`https://www.metrotoyota.example.com.au/search/${hiluxLanding.slug}?make=Toyota&sort=price%3Aasc`);
    await prefetchSearchPage({ searchSlug: hiluxLanding.slug }, { url, store, routeData: { searchLanding: hiluxLanding } });
    const args = {
      state: parseSearchState(url.searchParams, site.search_facets),
      searchSlug: hiluxLanding.slug,
      hitsPerPage,
      landingFilters: hiluxLanding.filters,
    };
    // What the page's hooks select as they render on the server.
    const state = store.getState() as never;
    expect(searchApi.endpoints.searchCars.select(args)(state)).toMatchObject({ isSuccess: true, data: { hits: [hit], count: 1 } });
    expect(searchApi.endpoints.searchLanding.select(hiluxLanding.slug)(state)).toMatchObject({ isSuccess: true, data: hiluxLanding });

    // The browser's store, handed the server's state as the shell hands it over, has both answers already.
    const browser = createPlatformStore(site, { apiBase });
    browser.dispatch(hydratePlatformApi({ platformApi: store.getState().platformApi }));
    const cars = browser.dispatch(searchApi.endpoints.searchCars.initiate(args));
    const landing = browser.dispatch(searchApi.endpoints.searchLanding.initiate(hiluxLanding.slug));
    expect((await cars).data).toMatchObject({ hits: [hit], count: 1 });
    expect((await landing).data).toEqual(hiluxLanding);
    cars.unsubscribe();
    landing.unsubscribe();
    expect(asked.requests).toEqual([`${site.search.host}/multi-search`]);
  });

  it('searches by the slug alone when the landing pages cannot be read, and never asks for a slug no landing page can have', async () => {
    const asked = answeringSearch({ 'used-cars': 502 });
    const store = createPlatformStore(site, { apiBase });
    await prefetchSearchPage(
      { searchSlug: 'used-cars' },
      { url: new URL('https://www.metrotoyota.example.com.au/search/used-cars'), store },
    );
    expect(storedAnswer(store, searchApi.endpoints.searchLanding.name)).toBeNull();
    expect(asked[0]!.queries[0]!.filter).toEqual(['car_type = "used"']);

    await prefetchSearchPage(
      { searchSlug: 'Used/Cars' },
      { url: new URL('https://www.metrotoyota.example.com.au/search/Used/Cars'), store: createPlatformStore(site, { apiBase }) },
    );
    expect(asked.requests.filter((address) => address.includes('/search-pages/'))).toEqual([`${apiBase}/search-pages/used-cars`]);
    expect(asked).toHaveLength(2);
  });
});

describe('an answer kept in the store', () => {
  it('is frozen through and through before the store gets it, the same object', () => {
    const answer = { hits: [{ id: 1, autograb_data: { price: 2 } }], facets: { make: { Toyota: 1 } }, pagination: { page: 1 } };
    expect(frozenAnswer(answer)).toBe(answer);
    for (const part of [answer, answer.hits, answer.hits[0], answer.hits[0]!.autograb_data, answer.facets.make, answer.pagination])
      expect(Object.isFrozen(part)).toBe(true);
  });
});
