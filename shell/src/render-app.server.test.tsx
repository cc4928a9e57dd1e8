import { describe, expect, it, vi } from 'vitest';
import type { ExposedModule } from '@dealer/contracts/remote-modules';
import { testSite } from '@dealer/contracts/testing/test-site';
import { platformApi } from '@dealer/state/platform-api';
import { NamedSlot, RemoteSlot } from '@dealer/ui/remote-slot';
import type { ServerRemote } from '@dealer/state/server-render';
import { renderApp, sharedModules } from './render-app.server';
import { lazySharedModules, sharedModules as pageModules } from './federation/shared-modules';

const site = testSite({
  remotes: [
    {
      name: 'mf-search',
      version: '1.3.1',
      manifestUrl: 'https://remotes.example.com/mf-search/1.3.1/mf-manifest.json',
      entryUrl: 'https://remotes.example.com/mf-search/1.3.1/remoteEntry.js',
    },
    {
      name: 'mf-garage',
      version: '1.2.0',
      manifestUrl: 'https://remotes.example.com/mf-garage/1.2.0/mf-manifest.json',
      entryUrl: 'https://remotes.example.com/mf-garage/1.2.0/remoteEntry.js',
    },
    {
      name: 'mf-checkout',
      version: '1.5.0',
      manifestUrl: 'https://remotes.example.com/mf-checkout/1.5.0/mf-manifest.json',
      entryUrl: 'https://remotes.example.com/mf-checkout/1.5.0/remoteEntry.js',
      slots: { 'vehicle.actions': ['ReserveButton'] },
    },
  ],
});
const searchUrl = `https://www.metrotoyota.example.com.au${site.default_search_path}?make=Toyota`;

const slowSearches: AbortSignal[] = [];

/** A search page as a remote's server build has it: its cars come from its own query. */
const carsApi = platformApi.injectEndpoints({
  endpoints: (build) => ({
    testCars: build.query<string[], string>({ queryFn: (make) => ({ data: [`2024 ${make} HiLux`, `2023 ${make} RAV4`] }) }),
    testBrokenQuery: build.query<string[], void>({ queryFn: () => ({ error: { status: 500, data: 'down' } }) }),
    // Answers only when it is aborted: a search still running when the page's budget is spent.
    testSlowCars: build.query<string[], void>({
      queryFn: (_arg, { signal }) =>
        new Promise((resolve) => {
          slowSearches.push(signal);
          signal.addEventListener('abort', () => resolve({ error: { status: 499, data: 'aborted' } }));
        }),
    }),
  }),
});

function CarList() {
  const { data } = carsApi.useTestCarsQuery('Toyota');
  return <ul className="test-cars">{data?.map((name) => <li key={name}>{name}</li>) ?? <li>searching…</li>}</ul>;
}

const searchRemote = (prefetch: NonNullable<ServerRemote['mf-search/SearchPage']>['prefetch'], Component = CarList): ServerRemote => ({
  'mf-search/SearchPage': { Component, prefetch },
});

async function render(remotes: ServerRemote | null, budgetMs = 200) {
  const fallbacks: [ExposedModule, unknown][] = [];
  const page = await renderApp({
    site,
    url: searchUrl,
    hero: null,
    remotes,
    budgetMs,
    onFallback: (module, reason) => fallbacks.push([module, reason]),
  });
  return { ...page, fallbacks };
}

describe('the server render of a page whose route belongs to a remote', () => {
  it('shows the remote’s first results with the header and footer, and hands the browser the answers it rendered with', async () => {
    const { html, state, fallbacks } = await render(
      searchRemote(async (props, { store, url }) => {
        expect(props).toEqual({ searchSlug: 'new-and-used-cars' });
        expect(url.searchParams.get('make')).toBe('Toyota');
        await store.dispatch(carsApi.endpoints.testCars.initiate('Toyota'));
        await store.dispatch(carsApi.endpoints.testBrokenQuery.initiate());
      }),
    );
    expect(fallbacks).toEqual([]);
    expect(html).toContain('class="site-header"');
    expect(html).toContain('<li>2024 Toyota HiLux</li><li>2023 Toyota RAV4</li>');
    expect(html).toContain('class="site-footer');
    expect(state?.modules).toEqual(['mf-search/SearchPage']);
    const queries = (state?.api as { platformApi: { queries: Record<string, { status: string; data?: unknown }> } }).platformApi.queries;
    // Only answers travel: the failed query is asked again by the browser.
    expect(Object.values(queries)).toEqual([
      expect.objectContaining({ status: 'fulfilled', data: ['2024 Toyota HiLux', '2023 Toyota RAV4'] }),
    ]);
  });

  it('hands the route’s module the search landing the platform read for the page, and nothing it did not look up', async () => {
    const given: unknown[] = [];
    const remotes = searchRemote(async (_props, { routeData }) => void given.push(routeData));
    const landing = { slug: 'used-toyota-hilux', title: 'Used HiLux', intro_html: '', description: '', filters: ['model = "HiLux"'] };
    await renderApp({ site, url: searchUrl, hero: null, remotes, routeData: { content: null, searchLanding: landing } });
    await renderApp({ site, url: searchUrl, hero: null, remotes, routeData: { searchLanding: null } });
    await renderApp({ site, url: searchUrl, hero: null, remotes, routeData: { content: null } });
    expect(given).toEqual([{ searchLanding: landing }, { searchLanding: null }, {}]);
  });

  it('leaves the remote to the browser when its data is not there within the budget; the rest of the page renders', async () => {
    const { html, state, fallbacks } = await render(
      searchRemote(() => new Promise(() => undefined)),
      30,
    );
    expect(html).toContain('class="site-header"');
    expect(html).toContain('class="site-footer');
    expect(html).not.toContain('test-cars');
    expect(state).toBeNull();
    expect(fallbacks).toHaveLength(1);
    expect(fallbacks[0]?.[0]).toBe('mf-search/SearchPage');
    expect(String(fallbacks[0]?.[1])).toContain('over the 30 ms budget');
  });

  it('holds on to nothing of a page once it is rendered: no answer kept on a timer, no search left running', async () => {
    vi.useFakeTimers();
    try {
      await render(
        searchRemote(async (_props, { store }) => {
          await store.dispatch(carsApi.endpoints.testCars.initiate('Toyota'));
          // An answer handed in rather than asked for (as the platform hands in the search landing) has no subscriber.
          const handIn = carsApi.util.upsertQueryData('testCars', 'Mazda', ['2025 Mazda CX-5']);
          await store.dispatch(handIn as unknown as Parameters<typeof store.dispatch>[0]); // typed against RTK Query's own root state
        }),
      );
      // What RTK Query and the store put off for a moment (notifications, the subscriptions' sync) has run by now.
      vi.advanceTimersByTime(1_000);
      expect(vi.getTimerCount()).toBe(0);

      const page = render(
        searchRemote(async (_props, { store }) => void (await store.dispatch(carsApi.endpoints.testSlowCars.initiate()))),
        30,
      );
      await vi.advanceTimersByTimeAsync(30);
      expect((await page).fallbacks).toHaveLength(1);
      expect(slowSearches.map((signal) => signal.aborted)).toEqual([true]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves the remote to the browser when its data fails', async () => {
    const { html, state, fallbacks } = await render(searchRemote(() => Promise.reject(new Error('search failed'))));
    expect(html).toContain('class="site-header"');
    expect(html).not.toContain('test-cars');
    expect(state).toBeNull();
    expect(String(fallbacks[0]?.[1])).toContain('search failed');
  });

  it('renders the rest of the page when the remote throws while rendering; the browser renders that area', async () => {
    const Broken = () => {
      throw new Error('the search page broke');
    };
    const { html } = await render(searchRemote(undefined, Broken));
    expect(html).toContain('class="site-header"');
    expect(html).toContain('class="site-footer');
    // React's marker for a boundary the client renders itself.
    expect(html).toContain('<!--$!-->');
  });

  it('renders the page with the remote’s placeholder when the site’s version has no server build', async () => {
    const { html, state, fallbacks } = await render(null);
    expect(html).toContain('class="site-header"');
    expect(html).not.toContain('test-cars');
    expect(state).toBeNull();
    expect(fallbacks).toEqual([]);
  });
});

describe('the modules a route’s remote places in slots, on the server', () => {
  const car = {
    id: 7,
    name: '2024 Toyota HiLux',
    slug: '2024-toyota-hilux',
    make: 'Toyota',
    model: 'HiLux',
    primary_image_url: '/img/hilux.jpg',
  };
  /** A page with a Save button (a slot by module) and whatever fills `vehicle.actions` (a named slot). */
  function PageWithSlots() {
    return (
      <div className="test-page">
        <NamedSlot
          name="vehicle.actions"
          car={{
            ...car,
            year: 2024,
            car_type: 'used',
            stocknum: 'S1',
            vin: 'JTEBR3FJ00K000001',
            price: 52990,
            tag: null,
            location_id: 1,
            dealership_slug: 'metro',
          }}
        />
        <RemoteSlot module="mf-garage/FavouriteButton" car={car} />
      </div>
    );
  }
  const page = (): ServerRemote => ({ 'mf-search/SearchPage': { Component: PageWithSlots } });
  const save: ServerRemote = {
    'mf-garage/FavouriteButton': { Component: ({ car: saved }) => <button type="button">♡ Save the {saved.name}</button> },
  };
  const reserve: ServerRemote = {
    'mf-checkout/ReserveButton': { Component: () => <a href="/checkout/2024-toyota-hilux">Reserve this car</a> },
  };

  it('renders them from their own remotes’ server builds, and lists them for the browser to hydrate', async () => {
    const { html, state, fallbacks } = await render({ ...page(), ...save, ...reserve });
    expect(fallbacks).toEqual([]);
    expect(html).toMatch(/<div class="test-page">.*Reserve this car.*♡ Save the .*2024 Toyota HiLux/);
    expect(new Set(state?.modules)).toEqual(new Set(['mf-search/SearchPage', 'mf-checkout/ReserveButton', 'mf-garage/FavouriteButton']));
  });

  it('leaves a slot to the browser when its remote published no server build; the rest renders', async () => {
    const { html, state } = await render({ ...page(), ...reserve });
    expect(html).toContain('Reserve this car');
    expect(html).not.toContain('Save the');
    expect(new Set(state?.modules)).toEqual(new Set(['mf-search/SearchPage', 'mf-checkout/ReserveButton']));
  });

  it('renders no slot when the route’s module is left to the browser', async () => {
    const { html, state } = await render({
      'mf-search/SearchPage': { Component: PageWithSlots, prefetch: () => Promise.reject(new Error('search failed')) },
      ...save,
      ...reserve,
    });
    expect(html).not.toContain('Reserve this car');
    expect(html).not.toContain('Save the');
    expect(state).toBeNull();
  });
});

describe('the modules a remote server build may import', () => {
  it('are the ones the browser provides, the lazily loaded ones included, as the same instances', async () => {
    expect(Object.keys(sharedModules).sort()).toEqual([...Object.keys(pageModules), ...Object.keys(lazySharedModules)].sort());
    for (const [name, module] of Object.entries(pageModules)) expect(sharedModules[name], name).toBe(module);
    for (const [name, load] of Object.entries(lazySharedModules)) expect(sharedModules[name], name).toBe(await load());
  });
});
