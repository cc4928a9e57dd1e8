import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { AppRenderer, type Inject, type InjectRequest } from './app-render';

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
