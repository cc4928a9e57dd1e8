import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSiteCars, updateCar } from '@dealer/db/car-store';
import { findSiteIdBySlug, setSiteRemote } from '@dealer/db/site-store';
import { skipPostgres } from '@dealer/testing/postgres';
import { isListed } from '@dealer/demo/demo-sites';
import { createTestPlatform, siteRequest, type TestPlatform } from '../testing/test-platform';
import { PageCache, pageCacheKey, pageEncodingFor } from './page-cache';

const page = (html: string) => ({ status: 200, html, policy: "default-src 'self'" });
/** A page rendered twice (a second request): kept. */
const keep = (cache: PageCache, key: string, stamp: string, html: string, now: number) => {
  cache.set(key, stamp, page(html), now);
  cache.set(key, stamp, page(html), now);
};

describe('the page cache’s own bounds', () => {
  it('gives a page back only for the content stamp it was rendered with, and for at most its age', () => {
    const cache = new PageCache({ maxBytes: 10_000, maxPageBytes: 5_000, maxAgeMs: 60_000 });
    keep(cache, 'https://a.example/search', 'stamp-1', '<p>24 cars</p>', 1_000);
    expect(cache.get('https://a.example/search', 'stamp-1', 2_000)).toEqual(page('<p>24 cars</p>'));
    expect(cache.get('https://a.example/search', 'stamp-2', 2_000)).toBeNull();
    // Forgotten once stale: the old stamp does not bring it back.
    expect(cache.get('https://a.example/search', 'stamp-1', 2_000)).toBeNull();
    keep(cache, 'https://a.example/', 'stamp-1', '<p>home</p>', 1_000);
    expect(cache.get('https://a.example/', 'stamp-1', 61_001)).toBeNull();
    expect(cache.size()).toMatchObject({ pages: 0, bytes: 0 });
  });

  it('keeps within its size by forgetting the least recently used pages, and never keeps an oversized one', () => {
    const cache = new PageCache({ maxBytes: 100, maxPageBytes: 60, maxAgeMs: 60_000 });
    keep(cache, '/a', 's', 'a'.repeat(28), 0);
    keep(cache, '/b', 's', 'b'.repeat(28), 0);
    cache.get('/a', 's', 0);
    keep(cache, '/c', 's', 'c'.repeat(28), 0);
    keep(cache, '/d', 's', 'd'.repeat(28), 0);
    expect(cache.get('/b', 's', 0)).toBeNull();
    expect(cache.get('/a', 's', 0)?.html).toBe('a'.repeat(28));
    expect(cache.size().bytes).toBeLessThanOrEqual(100);
    keep(cache, '/huge', 's', 'x'.repeat(61), 0);
    expect(cache.get('/huge', 's', 0)).toBeNull();
  });

  it('compresses a kept page once per encoding and sends that from then on, counting it in its size', () => {
    const cache = new PageCache({ maxBytes: 100_000, maxPageBytes: 50_000, maxAgeMs: 60_000 });
    const html = `<main>${'<article class="vehicle-card">2021 Toyota HiLux SR5</article>'.repeat(200)}</main>`;
    keep(cache, '/search', 's', html, 0);
    const textBytes = cache.size().bytes;

    const gzip = cache.getBody('/search', 's', 'gzip', 0)!;
    expect(gzip).toMatchObject({ status: 200, encoding: 'gzip' });
    expect(gunzipSync(gzip.body as Buffer).toString()).toBe(html);
    expect(cache.getBody('/search', 's', 'gzip', 0)!.body).toBe(gzip.body);
    const br = cache.getBody('/search', 's', 'br', 0)!;
    expect(brotliDecompressSync(br.body as Buffer).toString()).toBe(html);
    expect(cache.size().bytes).toBe(textBytes + (gzip.body as Buffer).length + (br.body as Buffer).length);
    expect(cache.getBody('/search', 's', null, 0)).toEqual({ status: 200, policy: "default-src 'self'", encoding: null, body: html });
    // A new stamp: the page and its compressed forms go together.
    expect(cache.getBody('/search', 's2', 'gzip', 0)).toBeNull();
    expect(cache.size()).toMatchObject({ pages: 0, bytes: 0 });
  });

  it('forgets other pages when a compressed form takes it over its size, never the page being sent', () => {
    const cache = new PageCache({ maxBytes: 600, maxPageBytes: 500, maxAgeMs: 60_000 });
    keep(cache, '/old', 's', 'o'.repeat(200), 0);
    keep(cache, '/new', 's', Array.from({ length: 350 }, (_, i) => String.fromCharCode(33 + ((i * 7919) % 90))).join(''), 0);
    expect(cache.getBody('/new', 's', 'gzip', 0)).not.toBeNull();
    expect(cache.get('/old', 's', 0)).toBeNull();
    expect(cache.get('/new', 's', 0)).not.toBeNull();
    expect(cache.size().bytes).toBeLessThanOrEqual(600);
  });
});

describe('which pages are kept', () => {
  it('keeps a page on its second render within the max age, so a crawler’s one-off addresses do not push others out', () => {
    const cache = new PageCache({ maxBytes: 10_000, maxPageBytes: 5_000, maxAgeMs: 60_000 });
    cache.set('/search?bench=1', 's', page('<p>once</p>'), 0);
    expect(cache.get('/search?bench=1', 's', 0)).toBeNull();
    expect(cache.size()).toMatchObject({ pages: 0, bytes: 0, seen: 1 });
    cache.set('/search?bench=1', 's', page('<p>again</p>'), 30_000);
    expect(cache.get('/search?bench=1', 's', 30_000)?.html).toBe('<p>again</p>');
    // Asked for again after the max age: as good as new.
    cache.set('/cars/a', 's', page('<p>a</p>'), 0);
    cache.set('/cars/a', 's', page('<p>a</p>'), 60_001);
    expect(cache.get('/cars/a', 's', 60_001)).toBeNull();
  });

  it('keeps the next render of a page that was kept and went stale (a change, or its age) at once', () => {
    const cache = new PageCache({ maxBytes: 10_000, maxPageBytes: 5_000, maxAgeMs: 60_000 });
    keep(cache, '/', 's1', '<p>home</p>', 0);
    expect(cache.get('/', 's2', 1_000)).toBeNull();
    cache.set('/', 's2', page('<p>home, changed</p>'), 1_000);
    expect(cache.get('/', 's2', 1_000)?.html).toBe('<p>home, changed</p>');
    expect(cache.get('/', 's2', 62_000)).toBeNull();
    cache.set('/', 's2', page('<p>home, later</p>'), 62_000);
    expect(cache.get('/', 's2', 62_000)?.html).toBe('<p>home, later</p>');
  });

  it('remembers a bounded number of addresses rendered once', () => {
    const cache = new PageCache({ maxBytes: 10_000, maxPageBytes: 5_000, maxAgeMs: 60_000, maxSeen: 3 });
    for (const n of [1, 2, 3, 4]) cache.set(`/search?bench=${n}`, 's', page('<p>x</p>'), 0);
    expect(cache.size()).toMatchObject({ pages: 0, seen: 3 });
    // The oldest was forgotten: its second render counts as a first.
    cache.set('/search?bench=1', 's', page('<p>x</p>'), 0);
    expect(cache.get('/search?bench=1', 's', 0)).toBeNull();
    cache.set('/search?bench=4', 's', page('<p>x</p>'), 0);
    expect(cache.get('/search?bench=4', 's', 0)).not.toBeNull();
  });
});

describe('the address a page is kept under', () => {
  it.each([
    ['/search?utm_source=mail&utm_medium=email', '/search'],
    ['/search?make=Toyota&gclid=abc', '/search?make=Toyota'],
    ['/?fbclid=x&page=2&msclkid=y&UTM_Campaign=eofy', '/?page=2'],
    ['/cars/a?utm_id=', '/cars/a'],
    ['/search?make=Toyota', '/search?make=Toyota'],
    ['/search?utmost=1&gclids=2', '/search?utmost=1&gclids=2'],
    ['/', '/'],
  ])('%s is kept as %s', (url, kept) => {
    expect(pageCacheKey('https://a.example', url)).toBe(`https://a.example${kept}`);
  });
});

describe('the encoding a kept page is sent in', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip;q=0.8', 'gzip'],
    ['GZIP', 'gzip'],
    ['identity', null],
    ['', null],
    [undefined, null],
    ['gzip;q=0', null],
  ])('Accept-Encoding %j → %s', (header, encoding) => {
    expect(pageEncodingFor(header)).toBe(encoding);
  });
});

describe.each(['sqlite', 'postgres'] as const)('pages kept between shoppers, on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }
  let platform: TestPlatform;
  const site = 'metro-motor-group';
  const otherSite = 'harbour-used-cars';

  beforeAll(async () => {
    platform = await createTestPlatform({ engine });
    // A shell server render that says how many pages it has rendered.
    const server = join(platform.ctx.config.shellClientDir, '..', 'server');
    await mkdir(server, { recursive: true });
    await writeFile(
      join(server, 'render-app.cjs'),
      `let renders = 0; exports.renderApp = async ({ url }) => ({ html: '<p>render ' + (++renders) + ' of ' + url + '</p>', state: null });`,
    );
  });
  afterAll(() => platform?.close());

  const get = (slug: string, url: string) => siteRequest(platform.app, slug, 'GET', url);
  const siteId = async (slug: string) => (await findSiteIdBySlug(platform.ctx.db, slug))!;
  const aListedCar = async (slug: string) => (await listSiteCars(platform.ctx.db, await siteId(slug))).find(isListed)!;

  it('sends the same page to the next shopper without rendering it again, once it was asked for twice', async () => {
    const first = await get(site, '/');
    const second = await get(site, '/');
    const third = await get(site, '/');
    // Kept on its second render: an address asked for once is not kept.
    expect([first, second, third].map((res) => res.headers['x-page-cache'])).toEqual(['miss', 'miss', 'hit']);
    expect(third.body).toBe(second.body);
    // Sent with the policy of the site it was rendered for.
    expect(third.headers['content-security-policy']).toBe(second.headers['content-security-policy']);
    expect(third.headers['content-security-policy']).toContain('https://www.googletagmanager.com');
    expect(third.headers['content-type']).toMatch(/^text\/html/);
    // Kept compressed: a browser that takes gzip or brotli gets the same page, compressed once.
    const gzipped = await siteRequest(platform.app, site, 'GET', '/', { headers: { 'accept-encoding': 'gzip' } });
    expect(gzipped.headers).toMatchObject({
      'x-page-cache': 'hit',
      'content-encoding': 'gzip',
      vary: expect.stringContaining('Accept-Encoding'),
    });
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(second.body);
    const brotli = await siteRequest(platform.app, site, 'GET', '/', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(second.body);
    // Each address and query is a page of its own.
    expect((await get(site, '/?page=2')).headers['x-page-cache']).toBe('miss');
  });

  it('sends a shopper who came from an ad or a campaign link the page kept for the address without its tracking parameters', async () => {
    await get(site, '/search/new-used-and-demo-cars');
    await get(site, '/search/new-used-and-demo-cars');
    const clean = await get(site, '/search/new-used-and-demo-cars');
    expect(clean.headers['x-page-cache']).toBe('hit');
    const fromAd = await get(site, '/search/new-used-and-demo-cars?utm_source=google&utm_medium=cpc&gclid=abc123');
    expect(fromAd.headers['x-page-cache']).toBe('hit');
    expect(fromAd.body).toBe(clean.body);
    expect(fromAd.body).not.toContain('gclid');
  });

  it('renders a car’s page and the site’s pages afresh as soon as the car changes (a price, a sale)', async () => {
    const car = await aListedCar(site);
    const carPage = `/cars/${car.slug}`;
    await get(site, carPage);
    await get(site, carPage);
    await get(site, '/');
    await get(site, '/');
    expect((await get(site, carPage)).headers['x-page-cache']).toBe('hit');

    await updateCar(platform.ctx.db, car.id, { price: car.price - 1_000 });
    const changed = await get(site, carPage);
    expect(changed.headers['x-page-cache']).toBe('miss');
    expect(changed.body).toContain(`"price":${car.price - 1_000}`);
    expect((await get(site, '/')).headers['x-page-cache']).toBe('miss');
  });

  it('keeps another dealer’s pages when one dealer’s car changes', async () => {
    await get(otherSite, '/');
    await get(otherSite, '/');
    expect((await get(otherSite, '/')).headers['x-page-cache']).toBe('hit');
    const car = await aListedCar(site);
    await updateCar(platform.ctx.db, car.id, { price: car.price + 500 });
    expect((await get(otherSite, '/')).headers['x-page-cache']).toBe('hit');
  });

  it('renders afresh when the dealer switches a feature (a remote) on or off', async () => {
    await get(site, '/');
    await get(site, '/');
    const before = await get(site, '/');
    expect(before.headers['x-page-cache']).toBe('hit');
    expect(before.body).toContain('mf-chat');
    await setSiteRemote(platform.ctx.db, await siteId(site), 'mf-chat', { enabled: false }, Date.now() + 1);
    const after = await get(site, '/');
    expect(after.headers['x-page-cache']).toBe('miss');
    expect(after.body).not.toContain('mf-chat');
  });

  it('never keeps a missing page', async () => {
    const pages = [await get(site, '/cars/no-such-car'), await get(site, '/cars/no-such-car'), await get(site, '/cars/no-such-car')];
    expect(pages.map((res) => res.statusCode)).toEqual([404, 404, 404]);
    expect(pages[2]!.headers['x-page-cache']).toBe('miss');
  });
});
