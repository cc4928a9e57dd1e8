// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testSite } from '@dealer/contracts/testing/test-site';
import { documentSite } from '@dealer/contracts/site';
import { readDocumentSite, readSiteConfig } from './site-config-source';

const site = testSite();

function page(body: string) {
  document.body.innerHTML = body;
  return document;
}
const appStart = (siteConfig: string) =>
  `<script id="app-start" type="application/json">${JSON.stringify({ siteConfig, scripts: [], preloads: [] })}</script>`;

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('the site config the app starts from', () => {
  it('is read from the page when the page carries it, without a request', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const doc = page(`<script id="site-config" type="application/json">${JSON.stringify(site)}</script>${appStart('/api/site?v=1')}`);
    expect(await readSiteConfig(doc)).toEqual(site);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('is fetched from the address a server-rendered page names', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify(site), { headers: { 'content-type': 'application/json' } }));
    vi.stubGlobal('fetch', fetch);
    expect(await readSiteConfig(page(appStart('/api/site?v=abc')))).toEqual(site);
    expect(fetch).toHaveBeenCalledWith('/api/site?v=abc', { credentials: 'same-origin' });
  });

  it('is asked again when the network or the server fails for a moment', async () => {
    vi.useFakeTimers();
    const answers = [
      () => Promise.reject(new TypeError('Failed to fetch')),
      async () => new Response('busy', { status: 503 }),
      async () => new Response(JSON.stringify(site)),
    ];
    const fetch = vi.fn(() => answers.shift()!());
    vi.stubGlobal('fetch', fetch);
    const read = readSiteConfig(page(appStart('/api/site?v=abc')));
    await vi.runAllTimersAsync();
    expect(await read).toEqual(site);
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('is not asked again when the server refuses it, and says so', async () => {
    const fetch = vi.fn(async () => new Response('{"message":"No dealer site"}', { status: 404 }));
    vi.stubGlobal('fetch', fetch);
    await expect(readSiteConfig(page(appStart('/api/site?v=abc')))).rejects.toThrow('The site config answered 404');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('fails plainly on a page that names none', async () => {
    await expect(readSiteConfig(page('<div id="root"></div>'))).rejects.toThrow('This page names no site config');
  });
});

describe("what the page's analytics and the app's trigger read of the site before the app starts", () => {
  it("is the server's part of the config in app-start, read without a request", () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const start = { siteConfig: '/api/site?v=1', site: documentSite(site), scripts: [], preloads: [] };
    const doc = page(`<script id="app-start" type="application/json">${JSON.stringify(start)}</script>`);
    expect(readDocumentSite(doc)).toEqual({ slug: site.slug, third_party: site.third_party });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('is the whole config when the page carries it, and nothing on a page with neither (the app reads the config)', () => {
    expect(readDocumentSite(page(`<script id="site-config" type="application/json">${JSON.stringify(site)}</script>`))).toEqual(site);
    expect(readDocumentSite(page(appStart('/api/site?v=1')))).toBeNull();
  });
});
