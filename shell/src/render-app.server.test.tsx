import { describe, expect, it } from 'vitest';
import type { ExposedModule } from '@dealer/contracts/remote-modules';
import { testSite } from '@dealer/contracts/testing/test-site';
import { platformApi } from '@dealer/state/platform-api';
import type { ServerRemote } from '@dealer/state/server-render';
import { renderApp, sharedModules } from './render-app.server';
import { lazySharedModules, sharedModules as pageModules } from './federation/shared-modules';

const site = testSite({
  remotes: [{ name: 'mf-search', version: '1.3.1', manifestUrl: 'https://remotes.example.com/mf-search/1.3.1/mf-manifest.json', entryUrl: 'https://remotes.example.com/mf-search/1.3.1/remoteEntry.js' }],
});
const searchUrl = `https://www.metrotoyota.example.com.au${site.default_search_path}?make=Toyota`;

/** A search page as a remote's server build has it: its cars come from its own query. */
const carsApi = platformApi.injectEndpoints({
  endpoints: (build) => ({
    testCars: build.query<string[], string>({ queryFn: (make) => ({ data: [`2024 ${make} HiLux`, `2023 ${make} RAV4`] }) }),
    testBrokenQuery: build.query<string[], void>({ queryFn: () => ({ error: { status: 500, data: 'down' } }) }),
  }),
});

function CarList() {
  const { data } = carsApi.useTestCarsQuery('Toyota');
  return <ul className="test-cars">{data?.map((name) => <li key={name}>{name}</li>) ?? <li>searching…</li>}</ul>;
}

const searchRemote = (prefetch: NonNullable<ServerRemote['mf-search/SearchPage']>['prefetch'], Component = CarList): ServerRemote => ({
  'mf-search/SearchPage': { Component, prefetch },
});

async function render(remote: ServerRemote | null, budgetMs = 200) {
  const fallbacks: [ExposedModule, unknown][] = [];
  const page = await renderApp({ site, url: searchUrl, hero: null, remote, budgetMs, onFallback: (module, reason) => fallbacks.push([module, reason]) });
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
    expect(Object.values(queries)).toEqual([expect.objectContaining({ status: 'fulfilled', data: ['2024 Toyota HiLux', '2023 Toyota RAV4'] })]);
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

describe('the modules a remote server build may import', () => {
  it('are the ones the browser provides, the lazily loaded ones included, as the same instances', async () => {
    expect(Object.keys(sharedModules).sort()).toEqual([...Object.keys(pageModules), ...Object.keys(lazySharedModules)].sort());
    for (const [name, module] of Object.entries(pageModules)) expect(sharedModules[name], name).toBe(module);
    for (const [name, load] of Object.entries(lazySharedModules)) expect(sharedModules[name], name).toBe(await load());
  });
});
