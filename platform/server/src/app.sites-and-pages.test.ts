import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicSiteConfigSchema, type SiteConfig } from '@dealer/contracts/site';
import { listSiteCars } from '@dealer/db/car-store';
import { setSiteRemote } from '@dealer/db/site-store';
import { demoSiteSlugs } from '@dealer/demo/demo-sites';
import { carsIndexUid, searchKeyForSite } from './search/site-search';
import { skipPostgres } from '@dealer/testing/postgres';
import { siteRequest, testRemoteVersion, testSearchKeySecret, writeFakeRemotes, type TestPlatform } from './testing/test-platform';
import { aListedCar, closeAppPlatforms, listedCars, platformOn, siteBySlug } from './testing/app-platform';

// The platform server, the dealer sites it serves: each site kept apart from the others (on both
// engines), its config and remotes, and its pages. Admin access, enquiries and search are in
// app.leads-and-search.test.ts.

afterAll(closeAppPlatforms);

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
const secretNames = ['DEMO_SECRET', 'podium_api_token', 'stripe_secret_key', 'stripe_webhook_secret', 'lead_webhook_secret', 'secrets'];

function siteConfigOf(html: string): Record<string, unknown> {
  const match = /<script id="site-config" type="application\/json">(.*?)<\/script>/s.exec(html);
  if (!match) throw new Error('document has no site-config script');
  return JSON.parse(match[1]!) as Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------
// Tenant isolation and secrets: on both engines.
// ---------------------------------------------------------------------------------------------

describe.each(['sqlite', 'postgres'] as const)('dealer sites kept apart on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await platformOn(engine);
  });

  it.each([...demoSiteSlugs])('never shows a browser the secrets of %s, in its config or its home page', async (slug) => {
    const config = await siteRequest(platform.app, slug, 'GET', '/api/site');
    const home = await siteRequest(platform.app, slug, 'GET', '/');
    expect(config.statusCode).toBe(200);
    expect(home.statusCode).toBe(200);
    for (const name of secretNames) {
      expect(config.body, `/api/site of ${slug} leaks ${name}`).not.toContain(name);
      expect(home.body, `home page of ${slug} leaks ${name}`).not.toContain(name);
    }
    // The secrets exist server-side: the check above would pass vacuously otherwise.
    expect(JSON.stringify((await siteBySlug(platform, slug)).secrets)).toContain('DEMO_SECRET');
  });

  it("never shows another dealer's car on this site", async () => {
    const harbourCar = await aListedCar(platform, 'harbour-used-cars');
    const onMetro = await siteRequest(platform.app, 'metro-motor-group', 'GET', `/api/cars/${harbourCar.slug}`);
    expect(onMetro.statusCode).toBe(404);
    expect(onMetro.body).not.toContain(harbourCar.vin);
    const onHarbour = await siteRequest(platform.app, 'harbour-used-cars', 'GET', `/api/cars/${harbourCar.slug}`);
    expect(onHarbour.statusCode).toBe(200);
    expect(onHarbour.json()).toMatchObject({ id: harbourCar.id, slug: harbourCar.slug });
  });

  it("never renders another dealer's car page on this site", async () => {
    const harbourCar = await aListedCar(platform, 'harbour-used-cars');
    const onMetro = await siteRequest(platform.app, 'metro-motor-group', 'GET', `/cars/${harbourCar.slug}`);
    expect(onMetro.statusCode).toBe(404);
    expect(onMetro.body).not.toContain(harbourCar.vin);
    expect(onMetro.body).not.toContain('id="route-data"');
    expect((await siteRequest(platform.app, 'harbour-used-cars', 'GET', `/cars/${harbourCar.slug}`)).statusCode).toBe(200);
  });

  it('serves each dealer its own config, found by its own domain as well as its local address', async () => {
    for (const slug of demoSiteSlugs) {
      const site = await siteBySlug(platform, slug);
      const local = (await siteRequest(platform.app, slug, 'GET', '/api/site')).json<{ id: number; slug: string }>();
      expect(local).toMatchObject({ id: site.id, slug });
      if (site.domain_name) {
        const byDomain = await platform.app.inject({ url: '/api/site', headers: { host: site.domain_name.toUpperCase() } });
        expect(byDomain.statusCode, site.domain_name).toBe(200);
        expect(byDomain.json<{ slug: string }>().slug).toBe(slug);
      }
    }
  });

  it("never returns another dealer's stock from search, whatever filter the browser sends", async () => {
    const metro = await siteBySlug(platform, 'metro-motor-group');
    const harbour = await siteBySlug(platform, 'harbour-used-cars');
    const res = await platform.app.inject({
      method: 'POST',
      url: '/meili/multi-search',
      headers: { host: 'metro-motor-group.localhost:3000', authorization: `Bearer ${searchKeyForSite(metro.id, testSearchKeySecret)}` },
      payload: {
        queries: [
          { indexUid: carsIndexUid, limit: 5000 },
          { indexUid: carsIndexUid, filter: `site_id = ${harbour.id}`, limit: 5000 },
          { indexUid: carsIndexUid, filter: `site_id != ${metro.id}`, limit: 5000 },
          { indexUid: carsIndexUid, filter: [[`site_id = ${harbour.id}`, `site_id = ${metro.id}`]], limit: 5000 },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    const [all, other, notMine, either] = res.json<{ results: { hits: { site_id: number }[]; estimatedTotalHits: number }[] }>().results;
    expect(all!.hits.length).toBe((await listedCars(platform, metro)).length);
    expect(all!.hits.every((hit) => hit.site_id === metro.id)).toBe(true);
    expect(other!.estimatedTotalHits).toBe(0);
    expect(notMine!.estimatedTotalHits).toBe(0);
    expect(either!.hits.length).toBe(all!.hits.length);
    expect(either!.hits.every((hit) => hit.site_id === metro.id)).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// The rest of the server contract, on SQLite.
// ---------------------------------------------------------------------------------------------

describe('the platform server', () => {
  let platform: TestPlatform;
  let metro: SiteConfig;
  let harbour: SiteConfig;
  beforeAll(async () => {
    platform = await platformOn('sqlite');
    metro = await siteBySlug(platform, 'metro-motor-group');
    harbour = await siteBySlug(platform, 'harbour-used-cars');
  });

  it('answers its health check', async () => {
    const res = await platform.app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  describe('site config', () => {
    it.each([...demoSiteSlugs])('gives %s its own name, its switched-on remotes and its search access', async (slug) => {
      const site = await siteBySlug(platform, slug);
      const res = await siteRequest(platform.app, slug, 'GET', '/api/site');
      expect(res.statusCode).toBe(200);
      const config = res.json<{
        slug: string;
        name: string;
        remotes: { name: string; version: string; manifestUrl: string; entryUrl: string }[];
        search: unknown;
      }>();
      expect(publicSiteConfigSchema.safeParse(config).success).toBe(true);
      expect(config.slug).toBe(slug);
      expect(config.name).toBe(site.name);

      const enabled = site.remotes.filter((remote) => remote.enabled).map((remote) => remote.name);
      expect(enabled.length).toBeGreaterThan(0);
      expect(config.remotes.map((remote) => remote.name)).toEqual(enabled);
      for (const remote of config.remotes) {
        expect(remote.version).toBe(testRemoteVersion);
        expect(remote.manifestUrl.endsWith(`/remotes/${remote.name}/${testRemoteVersion}/mf-manifest.json`), remote.manifestUrl).toBe(true);
        expect(remote.entryUrl, 'the entry the browser loads, beside the manifest').toBe(
          remote.manifestUrl.replace('mf-manifest.json', 'remoteEntry.js'),
        );
      }
      expect(config.search).toEqual({
        host: `http://${slug}.localhost:3000/meili`,
        apiKey: searchKeyForSite(site.id, testSearchKeySecret),
        indexUid: carsIndexUid,
      });
    });

    it('leaves out a remote the dealer switched off, on the next load', async () => {
      const citi = await siteRequest(platform.app, 'citi-rentals', 'GET', '/api/site');
      expect(citi.json<{ remotes: { name: string }[] }>().remotes.map((remote) => remote.name)).not.toContain('mf-checkout');
    });

    it('runs the remote version a dealer pinned, and the latest when the pinned one was never published', async () => {
      await writeFakeRemotes(platform.ctx.config.remotesDir, '0.9.0-test');
      // Publishing an older version must not move `latest` back: restore it.
      await writeFakeRemotes(platform.ctx.config.remotesDir, testRemoteVersion);
      const searchRemote = async () =>
        (await siteRequest(platform.app, 'harbour-used-cars', 'GET', '/api/site'))
          .json<{ remotes: { name: string; version: string; manifestUrl: string }[] }>()
          .remotes.find((remote) => remote.name === 'mf-search');
      try {
        await setSiteRemote(platform.ctx.db, harbour.id, 'mf-search', { version: '0.9.0-test' });
        expect(await searchRemote()).toEqual({
          name: 'mf-search',
          version: '0.9.0-test',
          manifestUrl: 'http://harbour-used-cars.localhost:3000/remotes/mf-search/0.9.0-test/mf-manifest.json',
          entryUrl: 'http://harbour-used-cars.localhost:3000/remotes/mf-search/0.9.0-test/remoteEntry.js',
        });
        expect(
          (await siteRequest(platform.app, 'metro-motor-group', 'GET', '/api/site'))
            .json<{ remotes: { name: string; version: string }[] }>()
            .remotes.find((remote) => remote.name === 'mf-search')?.version,
        ).toBe(testRemoteVersion);
        await setSiteRemote(platform.ctx.db, harbour.id, 'mf-search', { version: '7.7.7' });
        expect((await searchRemote())?.version).toBe(testRemoteVersion);
      } finally {
        await setSiteRemote(platform.ctx.db, harbour.id, 'mf-search', { version: null });
      }
    });

    it('serves a remote manifest and entry at the addresses it hands out', async () => {
      const config = (await siteRequest(platform.app, 'metro-motor-group', 'GET', '/api/site')).json<{
        remotes: { manifestUrl: string; entryUrl: string }[];
      }>();
      const url = new URL(config.remotes[0]!.manifestUrl);
      const res = await siteRequest(platform.app, 'metro-motor-group', 'GET', url.pathname);
      expect(res.statusCode).toBe(200);
      expect(res.json<{ exposes: unknown[] }>().exposes.length).toBeGreaterThan(0);
      const entry = await siteRequest(platform.app, 'metro-motor-group', 'GET', new URL(config.remotes[0]!.entryUrl).pathname);
      expect(entry.statusCode).toBe(200);
      expect(entry.headers['content-type']).toMatch(/javascript/);
    });

    it('is kept by the browser at the address of its current version, and asked afresh at any other; a dealer’s change makes a new version', async () => {
      const plain = await siteRequest(platform.app, 'metro-motor-group', 'GET', '/api/site');
      expect(plain.headers['cache-control']).toBe('no-cache');
      const version = /^"([\w-]+)"$/.exec(String(plain.headers.etag))?.[1];
      expect(version).toBeDefined();
      const current = await siteRequest(platform.app, 'metro-motor-group', 'GET', `/api/site?v=${version}`);
      expect(current.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(current.json()).toEqual(plain.json());
      const old = await siteRequest(platform.app, 'metro-motor-group', 'GET', '/api/site?v=an-older-version');
      expect(old.headers['cache-control']).toBe('no-cache');
      expect(old.json()).toEqual(plain.json());
      // Another site's config is another version.
      expect((await siteRequest(platform.app, 'harbour-used-cars', 'GET', '/api/site')).headers.etag).not.toBe(plain.headers.etag);
      const chatWasOn = metro.remotes.find((remote) => remote.name === 'mf-chat')?.enabled ?? false;
      await setSiteRemote(platform.ctx.db, metro.id, 'mf-chat', { enabled: !chatWasOn });
      try {
        const changed = await siteRequest(platform.app, 'metro-motor-group', 'GET', `/api/site?v=${version}`);
        expect(changed.headers['cache-control']).toBe('no-cache');
        expect(changed.headers.etag).not.toBe(plain.headers.etag);
      } finally {
        await setSiteRemote(platform.ctx.db, metro.id, 'mf-chat', { enabled: chatWasOn });
      }
      expect((await siteRequest(platform.app, 'metro-motor-group', 'GET', '/api/site?v=' + 'x'.repeat(65))).statusCode).toBe(400);
    });

    it('answers 404 for the config of an address that is no dealer site', async () => {
      const res = await siteRequest(platform.app, 'no-such-dealer', 'GET', '/api/site');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toHaveProperty('message');
    });
  });

  describe('documents', () => {
    it('shows a plain "Site not found" page at an address that is no dealer site', async () => {
      for (const host of ['no-such-dealer.localhost:3000', 'www.nobody-sells-cars.example']) {
        const res = await platform.app.inject({ url: '/', headers: { host } });
        expect(res.statusCode, host).toBe(404);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.body).toContain('Site not found');
        expect(res.body).not.toContain('site-config');
      }
    });

    it("lists every demo dealer on the platform's own page at bare localhost", async () => {
      const res = await platform.app.inject({ url: '/', headers: { host: 'localhost:3000' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      for (const slug of demoSiteSlugs) expect(res.body).toContain(`href="http://${slug}.localhost:3000/"`);
    });

    it("renders a car's page with its name, canonical address, site config and preloads for the vehicle remote and hero photo", async () => {
      const car = await aListedCar(platform, 'metro-motor-group');
      const res = await siteRequest(platform.app, 'metro-motor-group', 'GET', `/cars/${car.slug}`);
      expect(res.statusCode).toBe(200);
      const html = res.body;
      expect(html).toContain(`<title>${escapeHtml(`${car.name} | ${metro.name}`)}</title>`);
      expect(html).toContain(`<link rel="canonical" href="https://${metro.domain_name}/cars/${car.slug}">`);
      expect(siteConfigOf(html)).toMatchObject({ id: metro.id, slug: metro.slug });
      const remotes = `http://metro-motor-group.localhost:3000/remotes/mf-vehicle/${testRemoteVersion}`;
      // The browser's runtime loads the remote's entry, not its manifest.
      expect(html).not.toContain('mf-manifest.json">');
      expect(html).toContain(`<link rel="preload" as="script" href="${remotes}/remoteEntry.js">`);
      expect(html).toContain(`<link rel="preload" as="script" href="${remotes}/static/js/VehicleDetailPage.js">`);
      const hero = /<link rel="preload" as="image" href="([^"]+)" imagesrcset="([^"]+)"/.exec(html);
      expect(hero?.[1]?.startsWith(`${car.primary_image_url}?`)).toBe(true);
      expect(hero?.[2]).toContain(`${car.primary_image_url}?w=640`);
      expect(html).toContain('<script id="route-data" type="application/json">');
      expect(html).toContain('<script defer src="/assets/main.test.js"></script>');
    });

    it('answers a car that is not in stock with a 404 page that preloads nothing', async () => {
      const res = await siteRequest(platform.app, 'metro-motor-group', 'GET', '/cars/no-such-car-123');
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain(`<title>Page not found | ${escapeHtml(metro.name)}</title>`);
      expect(res.body).toContain('<meta name="robots" content="noindex">');
      expect(/<link rel="preload" as="script" href="[^"]*\/remotes\//.test(res.body), 'preloads a remote').toBe(false);
      expect(res.body.includes('<link rel="preload" as="image"'), 'preloads a hero image').toBe(false);
      expect(res.body.includes('id="route-data"'), 'carries route data').toBe(false);
    });

    it('answers a blog or news post the site does not have with a 404 page, not a page made from its address', async () => {
      for (const path of ['/blog/anything-at-all', '/news/made-up-story']) {
        const res = await siteRequest(platform.app, 'metro-motor-group', 'GET', path);
        expect(res.statusCode, path).toBe(404);
        expect(res.body).toContain(`<title>Page not found | ${escapeHtml(metro.name)}</title>`);
        expect(res.body).toContain('<meta name="robots" content="noindex">');
        expect(res.body).not.toContain('Anything At All');
      }
    });

    it('answers a car hidden from the dealer website with 404, on its page and its API', async () => {
      const hidden = (await listSiteCars(platform.ctx.db, metro.id)).find((car) => !car.show_on_dealer_website);
      expect(hidden).toBeDefined();
      expect((await siteRequest(platform.app, 'metro-motor-group', 'GET', `/cars/${hidden!.slug}`)).statusCode).toBe(404);
      expect((await siteRequest(platform.app, 'metro-motor-group', 'GET', `/api/cars/${hidden!.slug}`)).statusCode).toBe(404);
    });

    it('answers a page whose remote the dealer switched off with 404, while dealers who have it still get the page', async () => {
      expect((await siteRequest(platform.app, 'metro-motor-group', 'GET', '/checkout')).statusCode).toBe(200);
      await setSiteRemote(platform.ctx.db, metro.id, 'mf-checkout', { enabled: false });
      try {
        const off = await siteRequest(platform.app, 'metro-motor-group', 'GET', '/checkout');
        expect(off.statusCode).toBe(404);
        expect(off.body.includes('/remotes/mf-checkout/'), 'still names the checkout remote').toBe(false);
        const config = (await siteRequest(platform.app, 'metro-motor-group', 'GET', '/api/site')).json<{ remotes: { name: string }[] }>();
        expect(config.remotes.map((remote) => remote.name)).not.toContain('mf-checkout');
        const on = await siteRequest(platform.app, 'harbour-used-cars', 'GET', '/checkout');
        expect(on.statusCode).toBe(200);
        expect(on.body).toContain(`/remotes/mf-checkout/${testRemoteVersion}/mf-manifest.json`);
      } finally {
        await setSiteRemote(platform.ctx.db, metro.id, 'mf-checkout', { enabled: true });
      }
      expect((await siteRequest(platform.app, 'metro-motor-group', 'GET', '/checkout')).statusCode).toBe(200);
    });

    // documents.ts builds `new URL(request.url, origin)` from the raw Host header; a port that is not a
    // number makes it throw, and the error handler turns that into a 500 (logged as a server failure).
    it("answers a page request with a malformed Host port as the client's mistake, not a server failure", async () => {
      const res = await platform.app.inject({ url: '/', headers: { host: 'metro-motor-group.localhost:abc' } });
      expect(res.statusCode).toBeLessThan(500);
    });

    it('sends the security headers on pages and API answers', async () => {
      for (const url of ['/', '/api/site']) {
        const res = await siteRequest(platform.app, 'metro-motor-group', 'GET', url);
        const csp = String(res.headers['content-security-policy']);
        expect(csp, url).toContain("frame-ancestors 'self'");
        expect(csp).not.toContain('unsafe-eval');
        expect(csp).toContain("object-src 'none'");
        expect(res.headers['x-content-type-options']).toBe('nosniff');
      }
      // An API answer runs no script: its policy names no vendor.
      const api = await siteRequest(platform.app, 'metro-motor-group', 'GET', '/api/site');
      expect(String(api.headers['content-security-policy'])).toMatch(/script-src 'self'(;|$)/);
    });

    it("lets a site's pages load only its own vendors' scripts: its tags and its chat, no other site's", async () => {
      const scriptSources = async (slug: string) => {
        const csp = String((await siteRequest(platform.app, slug, 'GET', '/')).headers['content-security-policy']);
        return /(?:^|;)script-src ([^;]*)/.exec(csp)?.[1];
      };
      // Metro has Google and Meta tags, and Podium is its chat (the first provider with ids).
      expect(await scriptSources('metro-motor-group')).toBe(
        "'self' https://www.googletagmanager.com https://connect.facebook.net https://connect.podium.com",
      );
      // Harbour's chat is Impel; Toyota chose LiveChat; Outback has no tags and the built-in chat.
      expect(await scriptSources('harbour-used-cars')).toBe(
        "'self' https://www.googletagmanager.com https://connect.facebook.net https://chat.impel.io",
      );
      expect(await scriptSources('toyota-demo')).toBe(
        "'self' https://www.googletagmanager.com https://connect.facebook.net https://cdn.livechatinc.com",
      );
      expect(await scriptSources('outback-campers')).toBe("'self'");
    });
  });
});
