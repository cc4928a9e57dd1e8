import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSiteIdBySlug } from '@dealer/db/site-store';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { carsIndexUid, searchKeyForSite } from '../search/site-search';
import { createTestPlatform, testSearchKeySecret, type TestPlatform } from '../testing/test-platform';
import { AppRenderer, TextResponse, type Inject, type InjectRequest } from './app-render';
import { RenderThreads } from './render-threads';

const roots: string[] = [];
afterAll(() => roots.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/**
 * A build folder: the shell's (client/ and server/render-app.cjs, whose code is `shell`, or none)
 * and published remotes (`remotes/<name>/<version>/server/remote.cjs`).
 */
function builds(shell: string | null, remotes: Record<string, string> = {}) {
  const root = mkdtempSync(join(tmpdir(), 'shell-build-'));
  roots.push(root);
  mkdirSync(join(root, 'client'));
  if (shell !== null) {
    mkdirSync(join(root, 'server'));
    writeFileSync(join(root, 'server', 'render-app.cjs'), shell);
  }
  for (const [key, code] of Object.entries(remotes)) {
    const [name = '', version = ''] = key.split('@');
    mkdirSync(join(root, 'remotes', name, version, 'server'), { recursive: true });
    writeFileSync(join(root, 'remotes', name, version, 'server', 'remote.cjs'), code);
  }
  return { shellClientDir: join(root, 'client'), remotesDir: join(root, 'remotes') };
}

function recordingLog() {
  const warnings: string[] = [];
  return { warnings, log: { warn: (_details: object, message: string) => warnings.push(message) } };
}

const site = { name: 'Metro Motor Group' } as PublicSiteConfig;
const page = (url: string, extra: Partial<Parameters<AppRenderer['renderPage']>[0]> = {}) => ({
  site,
  origin: 'http://metro.example',
  url,
  hero: null,
  remotes: [],
  ip: '203.0.113.9',
  ...extra,
});

/** A shell render that shows the page's address and, when given one, what the route's remote renders. */
const echoShell = `
exports.sharedModules = { react: { name: 'the shell’s React' } };
exports.renderApp = async ({ site, url, hero, remotes }) => {
  const searchPage = remotes && remotes['mf-search/SearchPage'];
  const save = remotes && remotes['mf-garage/FavouriteButton'];
  const body = (searchPage ? searchPage.Component() : '') + (save ? save.Component() : '');
  return { html: '<h1>' + site.name + '</h1><p>' + url + '</p>' + (hero ? '<img alt="' + hero.alt + '">' : '') + body, state: searchPage ? { modules: ['mf-search/SearchPage'] } : null };
};`;

describe('the shell’s server render, as the platform runs it', () => {
  it('puts the markup the shell renders for the page and its hero into the first response', async () => {
    const { log, warnings } = recordingLog();
    const renderer = new AppRenderer({ ...builds(echoShell), log });
    expect(await renderer.renderPage(page('/search/suv?make=Mazda'))).toEqual({
      html: '<h1>Metro Motor Group</h1><p>http://metro.example/search/suv?make=Mazda</p>',
      state: null,
      degraded: false,
    });
    const hero = { slug: 'a-car', src: '/img/a.jpg', srcSet: '', sizes: '100vw', alt: '2024 Mazda CX-5' };
    expect((await renderer.renderPage(page('/cars/a-car', { hero })))?.html).toContain('<img alt="2024 Mazda CX-5">');
    expect(warnings).toEqual([]);
  });

  it('leaves the page to the browser when the shell was built without a server render', async () => {
    const { log, warnings } = recordingLog();
    expect(await new AppRenderer({ ...builds(null), log }).renderPage(page('/'))).toBeNull();
    expect(warnings).toEqual([]);
  });

  it('leaves the page to the browser, and says why, when a render throws; the next page is rendered again', async () => {
    const { log, warnings } = recordingLog();
    const renderer = new AppRenderer({
      ...builds(
        `exports.renderApp = async ({ url }) => { if (url.endsWith('/broken')) throw new Error('boom'); return { html: '<main>ok</main>', state: null }; };`,
      ),
      log,
    });
    expect(await renderer.renderPage(page('/broken'))).toBeNull();
    expect(warnings).toEqual(['server render failed; the browser renders this page']);
    expect((await renderer.renderPage(page('/')))?.html).toBe('<main>ok</main>');
  });

  it('leaves every page to the browser when the server render cannot be loaded', async () => {
    const { log, warnings } = recordingLog();
    const renderer = new AppRenderer({ ...builds(`throw new Error('cannot load');`), log });
    expect(await renderer.renderPage(page('/'))).toBeNull();
    expect(await renderer.renderPage(page('/search'))).toBeNull();
    expect(warnings).toEqual(['the shell server render could not be loaded; pages render in the browser']);
  });
});

describe('remotes rendered on the server, at the version the site runs', () => {
  const remoteUsingSharedReact = `
const React = require('react');
exports.modules = { 'mf-search/SearchPage': { Component: () => '<ul>cars, with ' + React.name + '</ul>' } };`;

  it('renders the route’s remote from the server build of the version the site pins, with the shell’s shared modules', async () => {
    const { log, warnings } = recordingLog();
    const renderer = new AppRenderer({
      ...builds(echoShell, {
        'mf-search@1.3.1-new': remoteUsingSharedReact,
        'mf-search@1.3.0-old': `exports.modules = { 'mf-search/SearchPage': { Component: () => '<ul>old</ul>' } };`,
      }),
      log,
    });
    const rendered = await renderer.renderPage(page('/search', { remotes: [{ name: 'mf-search', version: '1.3.1-new' }] }));
    expect(rendered?.html).toContain('<ul>cars, with the shell’s React</ul>');
    expect(rendered?.state).toEqual({ modules: ['mf-search/SearchPage'] });
    expect((await renderer.renderPage(page('/search', { remotes: [{ name: 'mf-search', version: '1.3.0-old' }] })))?.html).toContain(
      '<ul>old</ul>',
    );
    expect(warnings).toEqual([]);
  });

  it('renders the modules other remotes place in the page from their own server builds, at the versions the site runs', async () => {
    const { log, warnings } = recordingLog();
    const renderer = new AppRenderer({
      ...builds(echoShell, {
        'mf-search@1.3.1': remoteUsingSharedReact,
        'mf-garage@1.2.0': `exports.modules = { 'mf-garage/FavouriteButton': { Component: () => '<button>♡ Save</button>' } };`,
      }),
      log,
    });
    const remotes = [
      { name: 'mf-search', version: '1.3.1' },
      { name: 'mf-garage', version: '1.2.0' },
      { name: 'mf-leads', version: '1.0.0-browser-only' },
    ] as const;
    const rendered = await renderer.renderPage(page('/search', { remotes }));
    expect(rendered?.html).toContain('<ul>cars, with the shell’s React</ul><button>♡ Save</button>');
    expect(warnings).toEqual([]);
  });

  it('leaves a remote to the browser when its version has no server build, or its build needs a module the page does not share', async () => {
    const { log, warnings } = recordingLog();
    const renderer = new AppRenderer({
      ...builds(echoShell, { 'mf-search@2.0.0-other-shell': `require('some-other-store'); exports.modules = {};` }),
      log,
    });
    const withoutBuild = await renderer.renderPage(page('/search', { remotes: [{ name: 'mf-search', version: '1.0.0-browser-only' }] }));
    expect(withoutBuild).toEqual({ html: '<h1>Metro Motor Group</h1><p>http://metro.example/search</p>', state: null, degraded: false });
    const needsAnotherStore = await renderer.renderPage(
      page('/search', { remotes: [{ name: 'mf-search', version: '2.0.0-other-shell' }] }),
    );
    expect(needsAnotherStore?.state).toBeNull();
    expect(needsAnotherStore?.html).toContain('<h1>Metro Motor Group</h1>');
    expect(warnings).toEqual(['a remote server build could not be loaded; the browser renders that remote']);
  });

  it('refuses a version name that could leave the remotes folder', async () => {
    const { log } = recordingLog();
    const renderer = new AppRenderer({ ...builds(echoShell, { 'mf-search@1.0.0': remoteUsingSharedReact }), log });
    const rendered = await renderer.renderPage(page('/search', { remotes: [{ name: 'mf-search', version: '../mf-search/1.0.0' }] }));
    expect(rendered?.state).toBeNull();
  });
});

describe('the page’s own API calls while it renders', () => {
  /** A shell whose render fetches `target` through the fetch the platform gave it and shows the answer. */
  const fetchingShell = (target: string) => `
let platformFetch = null;
exports.setPlatformFetch = (fetchImpl) => { platformFetch = fetchImpl; };
exports.renderApp = async ({ url }) => {
  const response = await platformFetch(${JSON.stringify(target)}.replace('ORIGIN', new URL(url).origin), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"q":"suv"}' });
  return { html: response.status + ' ' + response.headers.get('x-answer') + ' ' + (await response.text()), state: null };
};`;

  it('are answered by the platform in process, for the shopper’s address and the site’s host', async () => {
    const requests: InjectRequest[] = [];
    const inject: Inject = async (request) => {
      requests.push(request);
      return {
        statusCode: 200,
        headers: { 'x-answer': 'in process', 'content-type': 'application/json' },
        rawPayload: Buffer.from('{"hits":[]}'),
      };
    };
    const renderer = new AppRenderer({ ...builds(fetchingShell('ORIGIN/meili/multi-search?x=1')), log: recordingLog().log, inject });
    expect((await renderer.renderPage(page('/search')))?.html).toBe('200 in process {"hits":[]}');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      method: 'POST',
      url: '/meili/multi-search?x=1',
      remoteAddress: '203.0.113.9',
      headers: { host: 'metro.example', 'content-type': 'application/json' },
    });
    expect(requests[0]?.payload?.toString()).toBe('{"q":"suv"}');
  });

  it('are not answered in process when they go to another host (a hosted Meilisearch)', async () => {
    const requests: InjectRequest[] = [];
    const inject: Inject = async (request) => {
      requests.push(request);
      return { statusCode: 200, headers: {}, rawPayload: Buffer.from('') };
    };
    const renderer = new AppRenderer({ ...builds(fetchingShell('http://127.0.0.1:9/multi-search')), log: recordingLog().log, inject });
    // Port 9 (discard) refuses: the request really went to the network, and the render failed over to the browser.
    expect(await renderer.renderPage(page('/search'))).toBeNull();
    expect(requests).toEqual([]);
  });
});

describe('the page’s search while it renders, answered by the search routes without inject', () => {
  let platform: TestPlatform;
  let metroKey: string;

  beforeAll(async () => {
    platform = await createTestPlatform({ env: { SEARCH_RATE_LIMIT: '5' } });
    metroKey = searchKeyForSite((await findSiteIdBySlug(platform.ctx.db, 'metro-motor-group'))!, testSearchKeySecret);
  });
  afterAll(async () => {
    await platform?.close();
  });

  /** A shell whose render posts the multi-search the page's `SEARCH` placeholder holds, as the official client does, and shows the answer. */
  const searchingShell = `
let platformFetch = null;
exports.setPlatformFetch = (fetchImpl) => { platformFetch = fetchImpl; };
exports.renderApp = async ({ url }) => {
  const { key, body } = JSON.parse(decodeURIComponent(new URL(url).searchParams.get('search')));
  const headers = new Headers({ authorization: 'Bearer ' + key, 'content-type': 'application/json', 'x-meilisearch-client': 'Meilisearch JavaScript' });
  const response = await platformFetch(new URL(url).origin + '/meili/multi-search', { method: 'POST', headers, body });
  const answer = { status: response.status, retryAfter: response.headers.get('retry-after'), body: JSON.parse(await response.text()) };
  return { html: JSON.stringify(answer), state: null };
};`;
  type Answer = { status: number; retryAfter: string | null; body: Record<string, unknown> };

  const notInjected: Inject = async () => {
    throw new Error('the search went through inject');
  };
  /** The page's search, rendered for a shopper at `ip` (its address as the platform reads it). */
  async function searchWhileRendering(body: string, ip: string, key = metroKey): Promise<Answer> {
    const renderer = new AppRenderer({
      ...builds(searchingShell),
      log: recordingLog().log,
      inject: notInjected,
      multiSearch: (request) => platform.ctx.inProcessSearch.multiSearch(request),
    });
    const rendered = await renderer.renderPage(
      page(`/search?search=${encodeURIComponent(JSON.stringify({ key, body }))}`, {
        origin: 'http://metro-motor-group.localhost:3000',
        ip,
      }),
    );
    return JSON.parse(typeof rendered!.html === 'string' ? rendered!.html : new TextDecoder().decode(rendered!.html)) as Answer;
  }
  /** The same search over HTTP, from a browser at `ip`. */
  async function searchOverHttp(body: string, ip: string, key = metroKey): Promise<Answer> {
    const res = await platform.app.inject({
      method: 'POST',
      url: '/meili/multi-search',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-forwarded-for': ip },
      payload: body,
    });
    return { status: res.statusCode, retryAfter: (res.headers['retry-after'] as string | undefined) ?? null, body: res.json() };
  }
  /** An answer without the time each search took. */
  const timeless = (answer: Answer) =>
    JSON.parse(JSON.stringify(answer), (name, value: unknown) => (name === 'processingTimeMs' ? undefined : value)) as Answer;

  const pageSearch = JSON.stringify({
    queries: [
      { indexUid: carsIndexUid, q: '', filter: ['make = "Mazda"'], limit: 24, facets: ['make', 'body'], sort: ['price:asc'] },
      { indexUid: carsIndexUid, q: '', limit: 0, facets: ['make'] },
    ],
  });

  it('gets the cars and counts the page gets over HTTP', async () => {
    const rendered = await searchWhileRendering(pageSearch, '198.51.100.1');
    expect(rendered.status).toBe(200);
    expect((rendered.body.results as { hits: unknown[] }[])[0]!.hits.length).toBeGreaterThan(0);
    expect(timeless(rendered)).toEqual(timeless(await searchOverHttp(pageSearch, '198.51.100.2')));
  });

  it('gets the same answer, for the shopper’s address, when the page renders on a render thread', async () => {
    const threads = new RenderThreads({
      ...builds(searchingShell),
      threads: 1,
      log: recordingLog().log,
      inject: notInjected,
      multiSearch: (request) => platform.ctx.inProcessSearch.multiSearch(request),
    });
    try {
      const rendered = await threads.renderPage(
        page(`/search?search=${encodeURIComponent(JSON.stringify({ key: metroKey, body: pageSearch }))}`, {
          origin: 'http://metro-motor-group.localhost:3000',
          ip: '198.51.100.9',
        }),
      );
      const answer = JSON.parse(typeof rendered!.html === 'string' ? rendered!.html : new TextDecoder().decode(rendered!.html)) as Answer;
      expect(answer.status).toBe(200);
      expect(timeless(answer)).toEqual(timeless(await searchOverHttp(pageSearch, '198.51.100.10')));
    } finally {
      await threads.close();
    }
  });

  it('refuses a key that is not the site’s, as over HTTP', async () => {
    const rendered = await searchWhileRendering(pageSearch, '198.51.100.3', 'not-a-search-key');
    expect(rendered).toMatchObject({ status: 403, body: { code: 'invalid_api_key' } });
    expect(rendered).toEqual(await searchOverHttp(pageSearch, '198.51.100.4', 'not-a-search-key'));
  });

  it('counts its queries against the shopper’s address, with the searches the shopper’s browser makes', async () => {
    const shopper = '198.51.100.5';
    // Two queries count two: twice in pages, once from the browser, and the fifth search is the last.
    expect((await searchWhileRendering(pageSearch, shopper)).status).toBe(200);
    expect((await searchOverHttp(pageSearch, shopper)).status).toBe(200);
    const oneQuery = JSON.stringify({ queries: [{ indexUid: carsIndexUid, limit: 1 }] });
    expect((await searchWhileRendering(oneQuery, shopper)).status).toBe(200);
    const refused = await searchWhileRendering(oneQuery, shopper);
    expect(refused).toMatchObject({ status: 429, body: { code: 'too_many_search_requests' } });
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect((await searchOverHttp(oneQuery, shopper)).status).toBe(429);
    // Another shopper's page is not held back by it.
    expect((await searchWhileRendering(oneQuery, '198.51.100.6')).status).toBe(200);
  });

  let refusals = 0;
  it.each([
    [
      'over the public budget',
      JSON.stringify({
        queries: [
          { indexUid: carsIndexUid, limit: 50 },
          { indexUid: carsIndexUid, hitsPerPage: 51 },
        ],
      }),
      400,
    ],
    ['nested too deep', `{"queries": [{"indexUid": "cars", "filter": ${'['.repeat(40)}${']'.repeat(40)}}]}`, 400],
    ['not JSON', '{"queries": [', 400],
    ['not an object', '[]', 400],
    ['asking for another index', JSON.stringify({ queries: [{ indexUid: 'users' }] }), 403],
  ])('refuses a body %s as over HTTP', async (_what, body, status) => {
    // Each case from addresses of its own, clear of the search limit.
    refusals += 1;
    const rendered = await searchWhileRendering(body, `198.51.100.${100 + refusals}`);
    expect(rendered.status).toBe(status);
    expect(rendered).toEqual(await searchOverHttp(body, `198.51.100.${200 + refusals}`));
  });
});

describe('the page’s search answer, answered in process', () => {
  const answer = () =>
    new TextResponse('{"results":[{"hits":[{"id":7}]}]}', { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } });

  it('is a Response that reads as the answer’s text and JSON, as often as it is read', async () => {
    const response = answer();
    expect(response).toBeInstanceOf(Response);
    expect([response.ok, response.status, response.headers.get('content-type')]).toEqual([true, 200, 'application/json; charset=utf-8']);
    expect(await response.text()).toBe('{"results":[{"hits":[{"id":7}]}]}');
    expect(await response.json()).toEqual({ results: [{ hits: [{ id: 7 }] }] });
    expect(new TextDecoder().decode(await response.arrayBuffer())).toBe('{"results":[{"hits":[{"id":7}]}]}');
    expect(await (await response.blob()).text()).toBe('{"results":[{"hits":[{"id":7}]}]}');
    expect(await response.clone().json()).toEqual({ results: [{ hits: [{ id: 7 }] }] });
  });

  it('keeps a refusal’s status and headers, and rejects JSON that is not JSON', async () => {
    const refused = new TextResponse('{"code":"too_many_search_requests"}', { status: 429, headers: { 'retry-after': '3' } });
    expect([refused.ok, refused.status, refused.headers.get('retry-after')]).toEqual([false, 429, '3']);
    expect(refused.clone().status).toBe(429);
    await expect(new TextResponse('<html>', { status: 502 }).json()).rejects.toThrow(SyntaxError);
  });
});
