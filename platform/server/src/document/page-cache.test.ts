import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSiteCars, updateCar } from '@dealer/db/car-store';
import { findSiteIdBySlug, setSiteRemote } from '@dealer/db/site-store';
import { skipPostgres } from '@dealer/db/testing/postgres';
import { isListed } from '@dealer/demo/demo-sites';
import { createTestPlatform, siteRequest, type TestPlatform } from '../testing/test-platform';
import { PageCache } from './page-cache';

describe('the page cache’s own bounds', () => {
  const page = (html: string) => ({ status: 200, html });

  it('gives a page back only for the content stamp it was rendered with, and for at most its age', () => {
    const cache = new PageCache({ maxBytes: 10_000, maxPageBytes: 5_000, maxAgeMs: 60_000 });
    cache.set('https://a.example/search', 'stamp-1', page('<p>24 cars</p>'), 1_000);
    expect(cache.get('https://a.example/search', 'stamp-1', 2_000)).toEqual(page('<p>24 cars</p>'));
    expect(cache.get('https://a.example/search', 'stamp-2', 2_000)).toBeNull();
    // Forgotten once stale: the old stamp does not bring it back.
    expect(cache.get('https://a.example/search', 'stamp-1', 2_000)).toBeNull();
    cache.set('https://a.example/', 'stamp-1', page('<p>home</p>'), 1_000);
    expect(cache.get('https://a.example/', 'stamp-1', 61_001)).toBeNull();
    expect(cache.size()).toEqual({ pages: 0, bytes: 0 });
  });

  it('keeps within its size by forgetting the least recently used pages, and never keeps an oversized one', () => {
    const cache = new PageCache({ maxBytes: 100, maxPageBytes: 60, maxAgeMs: 60_000 });
    cache.set('/a', 's', page('a'.repeat(28)), 0);
    cache.set('/b', 's', page('b'.repeat(28)), 0);
    cache.get('/a', 's', 0);
    cache.set('/c', 's', page('c'.repeat(28)), 0);
    cache.set('/d', 's', page('d'.repeat(28)), 0);
    expect(cache.get('/b', 's', 0)).toBeNull();
    expect(cache.get('/a', 's', 0)?.html).toBe('a'.repeat(28));
    expect(cache.size().bytes).toBeLessThanOrEqual(100);
    cache.set('/huge', 's', page('x'.repeat(61)), 0);
    expect(cache.get('/huge', 's', 0)).toBeNull();
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
    await writeFile(join(server, 'render-app.cjs'), `let renders = 0; exports.renderApp = async ({ url }) => ({ html: '<p>render ' + (++renders) + ' of ' + url + '</p>', state: null });`);
  });
  afterAll(() => platform?.close());

  const get = (slug: string, url: string) => siteRequest(platform.app, slug, 'GET', url);
  const siteId = async (slug: string) => (await findSiteIdBySlug(platform.ctx.db, slug))!;
  const aListedCar = async (slug: string) => (await listSiteCars(platform.ctx.db, await siteId(slug))).find(isListed)!;

  it('sends the same page to the next shopper without rendering it again', async () => {
    const first = await get(site, '/');
    const second = await get(site, '/');
    expect(first.headers['x-page-cache']).toBe('miss');
    expect(second.headers['x-page-cache']).toBe('hit');
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toMatch(/^text\/html/);
    // Each address and query is a page of its own.
    expect((await get(site, '/?utm_source=mail')).headers['x-page-cache']).toBe('miss');
  });

  it('renders a car’s page and the site’s pages afresh as soon as the car changes (a price, a sale)', async () => {
    const car = await aListedCar(site);
    const carPage = `/cars/${car.slug}`;
    await get(site, carPage);
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
    expect((await get(otherSite, '/')).headers['x-page-cache']).toBe('hit');
    const car = await aListedCar(site);
    await updateCar(platform.ctx.db, car.id, { price: car.price + 500 });
    expect((await get(otherSite, '/')).headers['x-page-cache']).toBe('hit');
  });

  it('renders afresh when the dealer switches a feature (a remote) on or off', async () => {
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
    const first = await get(site, '/cars/no-such-car');
    const second = await get(site, '/cars/no-such-car');
    expect([first.statusCode, second.statusCode]).toEqual([404, 404]);
    expect(second.headers['x-page-cache']).toBe('miss');
  });
});
