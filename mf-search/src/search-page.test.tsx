// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SearchLanding } from '@dealer/contracts/content';
import { testSite } from '@dealer/contracts/testing/test-site';
import { hydratePlatformApi } from '@dealer/state/platform-api';
import { createPlatformStore } from '@dealer/state/store';
import { prefetchSearchPage, type SearchHit } from './search-api';
import SearchPage from './search-page';

const site = testSite();
const apiBase = 'https://www.metrotoyota.example.com.au/api';
const hilux: SearchHit = {
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

const landing = (slug: string): SearchLanding => ({
  slug,
  title: 'New and used Toyota HiLux in Parramatta',
  intro_html: '<p>Every <strong>HiLux</strong> on our yard.</p>',
  description: 'New and used Toyota HiLux at Metro Toyota.',
  filters: ['make = "Toyota"', 'model = "HiLux"'],
});

type Asked = { address: string; filter?: unknown };

/**
 * The browser's fetch, as the platform and the search engine answer it: a landing page for the slugs
 * in `landings` (a promise holds its answer back until it settles), a 404 for any other; one car for
 * every search. `asked`: every request in order, with each search's main filter.
 */
function answering(landings: Record<string, SearchLanding | Promise<SearchLanding>>) {
  const asked: Asked[] = [];
  vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
    const address = String(input instanceof Request ? input.url : input);
    if (address.startsWith(`${apiBase}/search-pages/`)) {
      asked.push({ address });
      const found = landings[address.slice(`${apiBase}/search-pages/`.length)];
      return found ? Response.json(await found) : Response.json({ message: 'There is no search page here.' }, { status: 404 });
    }
    const { queries } = JSON.parse(String(init?.body)) as { queries: Record<string, unknown>[] };
    asked.push({ address, filter: queries[0]!.filter });
    const results = queries.map((query, index) => ({
      indexUid: query.indexUid,
      hits: index === 0 ? [hilux] : [],
      query: query.q ?? '',
      processingTimeMs: 1,
      limit: query.limit,
      offset: 0,
      estimatedTotalHits: 1,
      facetDistribution: {},
    }));
    return Response.json({ results });
  });
  return asked;
}

function renderSearchPage(searchSlug: string, store = createPlatformStore(site, { apiBase })) {
  return render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[`/search/${searchSlug}`]}>
        <SearchPage searchSlug={searchSlug} />
      </MemoryRouter>
    </Provider>,
  );
}

const searches = (asked: Asked[]) => asked.filter((request) => request.address === `${site.search.host}/multi-search`);

describe('a search landing page', () => {
  beforeEach(() => vi.stubGlobal('__REMOTE_VERSION__', '1.8.0-test'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists only its own stock (the slug’s filter and the landing’s), under its title and intro', async () => {
    const slug = 'new-and-used-toyota-hilux';
    const asked = answering({ [slug]: landing(slug) });
    const { container } = renderSearchPage(slug);
    expect(await screen.findByRole('heading', { level: 1, name: 'New and used Toyota HiLux in Parramatta' })).toBeTruthy();
    expect(container.querySelector('.search-page__intro')?.innerHTML).toBe('<p>Every <strong>HiLux</strong> on our yard.</p>');
    expect(await screen.findByText('2024 Toyota HiLux SR5')).toBeTruthy();
    expect(searches(asked).map((search) => search.filter)).toEqual([['car_type IN ["new", "used"]', 'make = "Toyota"', 'model = "HiLux"']]);
    await waitFor(() => expect(document.title).toBe(`New and used Toyota HiLux in Parramatta | ${site.name}`));
  });

  it('is a plain search by its slug, titled by it, when the slug is no landing page', async () => {
    const asked = answering({});
    const { container } = renderSearchPage('used-cars');
    expect(await screen.findByText('2024 Toyota HiLux SR5')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Used cars');
    expect(container.querySelector('.search-page__intro')).toBeNull();
    expect(asked.map((request) => request.address)).toEqual([`${apiBase}/search-pages/used-cars`, `${site.search.host}/multi-search`]);
    expect(searches(asked)[0]!.filter).toEqual(['car_type = "used"']);
  });

  it('shows the landing and the cars the server found for the page without asking for them again', async () => {
    const slug = 'toyota-hilux-in-parramatta';
    const asked = answering({});
    const onServer = createPlatformStore(site, { apiBase });
    await prefetchSearchPage(
      { searchSlug: slug },
      {
        url: new URL(`https://www.metrotoyota.example.com.au/search/${slug}`),
        store: onServer,
        routeData: { searchLanding: landing(slug) },
      },
    );
    expect(asked.map((request) => request.address)).toEqual([`${site.search.host}/multi-search`]);
    // The answers as the document carries them (#app-state), into the browser's own store.
    const inBrowser = createPlatformStore(site, { apiBase });
    inBrowser.dispatch(hydratePlatformApi(JSON.parse(JSON.stringify({ platformApi: onServer.getState().platformApi }))));
    const answers = () =>
      Object.values(inBrowser.getState().platformApi?.queries ?? {}).map((query) => [query?.endpointName, query?.requestId]);
    const kept = answers();
    expect(kept.map(([endpoint]) => endpoint)).toEqual(['searchLanding', 'searchCars']);
    renderSearchPage(slug, inBrowser);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('New and used Toyota HiLux in Parramatta');
    expect(screen.getByText('2024 Toyota HiLux SR5')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked).toHaveLength(1);
    // Neither answer was asked for again (a new request would have replaced its entry's request id).
    expect(answers()).toEqual(kept);
  });

  it('does not search before the landing has answered, so its cars are never shown unfiltered', async () => {
    const slug = 'used-toyota-hilux';
    let answer!: (found: SearchLanding) => void;
    const asked = answering({ [slug]: new Promise<SearchLanding>((resolve) => (answer = resolve)) });
    const { container } = renderSearchPage(slug);
    await waitFor(() => expect(asked.map((request) => request.address)).toEqual([`${apiBase}/search-pages/${slug}`]));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(searches(asked)).toEqual([]);
    expect(container.querySelector('.search-page__results')).toBeNull();

    answer({ ...landing(slug), title: 'Used Toyota HiLux', filters: ['car_type = "used"', 'make = "Toyota"', 'model = "HiLux"'] });
    expect(await screen.findByText('2024 Toyota HiLux SR5')).toBeTruthy();
    expect(searches(asked).map((search) => search.filter)).toEqual([['car_type = "used"', 'make = "Toyota"', 'model = "HiLux"']]);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Used Toyota HiLux');
  });
});
