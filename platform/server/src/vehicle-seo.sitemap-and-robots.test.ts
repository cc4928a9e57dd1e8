import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSiteSlugs } from '@dealer/demo/demo-sites';
import { carsIndexUid, isCarOnSite, searchKeyForSite } from './search/site-search';
import { siteRequest, testSearchKeySecret, type TestPlatform } from './testing/test-platform';
import { nowSeconds, vehicleSeoPlatform, type Jsdom } from './testing/vehicle-seo-platform';

// Each dealer's sitemap.xml and robots.txt, as a search engine reads them. What a search engine sees
// of the car and other pages is in vehicle-seo.pages.test.ts.

const { open, site, carsOf, carForSale, soldLongAgo, hiddenCar } = vehicleSeoPlatform();
let platform: TestPlatform;
let JSDOM: Jsdom;
beforeAll(async () => {
  ({ platform, JSDOM } = await open());
});
afterAll(async () => {
  await platform?.close();
});

/** The address a dealer's pages are known by: its domain over https, else its local address. */
const originOf = (slug: string) => (site(slug).domain_name ? `https://${site(slug).domain_name}` : `http://${slug}.localhost:3000`);

// ---------------------------------------------------------------------------------------------

/** The sitemap of a site, parsed as XML (a malformed file throws). */
async function sitemapOf(slug: string): Promise<{ locs: string[]; lastmods: Map<string, string> }> {
  const res = await siteRequest(platform.app, slug, 'GET', '/sitemap.xml');
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/xml/);
  const doc = new JSDOM(res.body, { contentType: 'application/xml' }).window.document;
  expect(doc.documentElement.localName).toBe('urlset');
  expect(doc.documentElement.namespaceURI).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
  const lastmods = new Map<string, string>();
  const locs = [...doc.documentElement.children].map((url) => {
    expect(url.localName).toBe('url');
    const loc = url.getElementsByTagName('loc')[0]!.textContent!;
    const lastmod = url.getElementsByTagName('lastmod')[0]?.textContent;
    if (lastmod) lastmods.set(loc, lastmod);
    return loc;
  });
  return { locs, lastmods };
}

/** What the site's own search lists, asked with its own search key. */
async function searchedSlugs(slug: string): Promise<string[]> {
  const res = await siteRequest(platform.app, slug, 'POST', '/meili/multi-search', {
    headers: { authorization: `Bearer ${searchKeyForSite(site(slug).id, testSearchKeySecret)}` },
    payload: { queries: [{ indexUid: carsIndexUid, limit: 5000 }] },
  });
  expect(res.statusCode).toBe(200);
  const [result] = res.json<{ results: { hits: { slug: string }[]; estimatedTotalHits: number }[] }>().results;
  expect(result!.hits.length).toBe(result!.estimatedTotalHits);
  return result!.hits.map((hit) => hit.slug);
}

describe('sitemap.xml', () => {
  it.each([...demoSiteSlugs])("lists exactly the cars %s's search lists, at its detail address on its canonical origin", async (slug) => {
    const dealer = site(slug);
    const origin = originOf(slug);
    const { locs } = await sitemapOf(slug);
    expect(
      locs.every((loc) => loc.startsWith(`${origin}/`)),
      "every address on the site's origin",
    ).toBe(true);
    expect(new Set(locs).size).toBe(locs.length);

    const carPrefix = `${origin}${dealer.detail_path}/`;
    const carSlugs = locs.filter((loc) => loc.startsWith(carPrefix)).map((loc) => loc.slice(carPrefix.length));
    const searched = await searchedSlugs(slug);
    expect(searched.length).toBeGreaterThan(0);
    expect([...carSlugs].sort()).toEqual([...searched].sort());
    const onSite = (await carsOf(slug)).filter((car) => isCarOnSite(dealer, car, nowSeconds())).map((car) => car.slug);
    expect([...carSlugs].sort()).toEqual(onSite.sort());
  });

  it("never lists another dealer's car", async () => {
    const { locs } = await sitemapOf('metro-motor-group');
    const listed = new Set(locs.map((loc) => loc.split('/').pop()));
    for (const other of demoSiteSlugs.filter((slug) => slug !== 'metro-motor-group')) {
      for (const car of await carsOf(other)) expect(listed.has(car.slug), `${other} car ${car.slug}`).toBe(false);
    }
  });

  it('leaves out cars sold before the window and cars hidden from the website', async () => {
    const { locs } = await sitemapOf('metro-motor-group');
    for (const car of [await soldLongAgo('metro-motor-group'), await hiddenCar('metro-motor-group')]) {
      expect(locs).not.toContain(`https://www.metromotorgroup.com.au/cars/${car.slug}`);
    }
  });

  it("lists Metro's home, search page and body-type pages first, and dates every car by when it was listed", async () => {
    const { locs, lastmods } = await sitemapOf('metro-motor-group');
    const origin = 'https://www.metromotorgroup.com.au';
    expect(locs.slice(0, 7)).toEqual([
      `${origin}/`,
      `${origin}/search/new-used-and-demo-cars`,
      `${origin}/search/ute`,
      `${origin}/search/sedan`,
      `${origin}/search/suv`,
      `${origin}/search/hatch`,
      `${origin}/search/4x4`,
    ]);
    const car = await carForSale('metro-motor-group');
    expect(lastmods.get(`${origin}/cars/${car.slug}`)).toBe(new Date(car.created_at).toISOString());
    expect(locs.slice(0, 7).some((loc) => lastmods.has(loc))).toBe(false);
  });

  it.each([
    [
      'harbour-used-cars',
      ['/', '/search/used-cars', '/search/ute', '/search/sedan', '/search/suv', '/search/hatch', '/search/4x4'].map(
        (path) => `https://www.harbourusedcars.com.au${path}`,
      ),
    ],
    ['toyota-demo', ['https://www.demotoyota.com.au/', 'https://www.demotoyota.com.au/pre-owned']],
    [
      'coastal-motorcycles',
      ['https://www.coastalmotorcycles.com.au/', 'https://www.coastalmotorcycles.com.au/search/new-and-used-motorcycles'],
    ],
    [
      'flexi-subscriptions',
      ['http://flexi-subscriptions.localhost:3000/', 'http://flexi-subscriptions.localhost:3000/search/subscription-cars'],
    ],
  ])("starts %s's sitemap with its home and its own search page", async (slug, pages) => {
    const { locs } = await sitemapOf(slug);
    expect(locs.slice(0, pages.length)).toEqual(pages);
    // Then the dealer's published pages (issue 24), then the cars.
    const rest = locs.slice(pages.length);
    const firstCar = rest.findIndex((loc) => loc.includes(`${site(slug).detail_path}/`));
    expect(rest.slice(0, firstCar)).toContain(`${pages[0]}privacy-policy`);
    expect(rest.slice(firstCar).every((loc) => loc.includes(`${site(slug).detail_path}/`))).toBe(true);
  });

  it("lists a motorcycle dealer's bikes at /motorcycles", async () => {
    const bike = await carForSale('coastal-motorcycles');
    expect((await sitemapOf('coastal-motorcycles')).locs).toContain(`https://www.coastalmotorcycles.com.au/motorcycles/${bike.slug}`);
  });

  it('is served by its own route, not as a page', async () => {
    const res = await siteRequest(platform.app, 'metro-motor-group', 'GET', '/sitemap.xml');
    expect(res.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(res.body).not.toContain('<!doctype html>');
  });
});

describe('robots.txt', () => {
  it('lets crawlers in everywhere but the APIs, checkout, thank-you and garage pages, and names the sitemap', async () => {
    const res = await siteRequest(platform.app, 'metro-motor-group', 'GET', '/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe(
      [
        'User-agent: *',
        'Allow: /',
        'Disallow: /api/',
        'Disallow: /meili/',
        'Disallow: /checkout',
        'Disallow: /success',
        'Disallow: /my-garage',
        'Disallow: /cars/*/checkout',
        '',
        'Sitemap: https://www.metromotorgroup.com.au/sitemap.xml',
        '',
      ].join('\n'),
    );
  });

  it.each([
    ['ridgeline-trucks', 'Disallow: /mybigboxcars', 'Sitemap: https://www.ridgelinetrucks.com.au/sitemap.xml'],
    ['coastal-motorcycles', 'Disallow: /motorcycles/*/checkout', 'Sitemap: https://www.coastalmotorcycles.com.au/sitemap.xml'],
    ['citi-rentals', 'Disallow: /my-garage', 'Sitemap: http://citi-rentals.localhost:3000/sitemap.xml'],
  ])('fits %s: %s, %s', async (slug, rule, sitemap) => {
    const body = (await siteRequest(platform.app, slug, 'GET', '/robots.txt')).body;
    const lines = body.split('\n');
    expect(lines).toContain(rule);
    expect(lines).toContain(sitemap);
    expect(lines).toContain('Disallow: /my-garage');
    expect(lines.filter((line) => line === 'Disallow: /my-garage')).toHaveLength(1);
  });
});

describe('robots.txt and sitemap.xml at an address that is no dealer site', () => {
  it.each([
    ['an unknown dealer', 'no-such-dealer.localhost:3000', 404],
    ['an unknown domain', 'www.nobody-sells-cars.example', 404],
    ["the platform's own index", 'localhost:3000', 404],
    ['a malformed host', 'metro-motor-group.localhost:abc', 400],
  ])('answers %s plainly', async (_case, host, status) => {
    for (const url of ['/robots.txt', '/sitemap.xml']) {
      const res = await platform.app.inject({ url, headers: { host } });
      expect(res.statusCode, `${host}${url}`).toBe(status);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).not.toContain('<!doctype html>');
    }
  });
});
