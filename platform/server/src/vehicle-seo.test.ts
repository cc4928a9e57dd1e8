import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Car } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';
import { formatPrice } from '@dealer/rules/price';
import { formatDistance } from '@dealer/rules/locale';
import { isSold } from '@dealer/rules/tags';
import { listSiteCars } from '@dealer/db/car-store';
import { listSiteSlugs, loadSiteConfig } from '@dealer/db/site-store';
import { demoSiteSlugs } from '@dealer/demo/demo-sites';
import { carsIndexUid, isCarOnSite, searchKeyForSite } from './search/site-search';
import { createTestPlatform, siteRequest, testRemoteVersion, testSearchKeySecret, type TestPlatform } from './testing/test-platform';

// Vehicle detail page, the server half: the SPEC §7 car call, what a search engine or a shared
// link sees of a car page (title, description, canonical, Open Graph, schema.org JSON-LD), and
// each dealer's sitemap.xml and robots.txt.

type Dom = { window: { document: Document } };
type JsdomModule = { JSDOM: new (markup: string, options?: { contentType?: string }) => Dom };

const day = 86_400;
const nowSeconds = () => Math.floor(Date.now() / 1000);

let platform: TestPlatform;
let JSDOM: JsdomModule['JSDOM'];
const sites = new Map<string, SiteConfig>();

beforeAll(async () => {
  // jsdom ships no type declarations; the test only needs its constructor.
  ({ JSDOM } = (await import('jsdom' as string)) as JsdomModule);
  // The sitemap is compared with what a site's search lists, read whole with its browser key: past what one public request may ask for.
  platform = await createTestPlatform({ env: { SEARCH_PUBLIC_MAX_HITS: '5000' } });
  for (const row of await listSiteSlugs(platform.ctx.db)) sites.set(row.slug, (await loadSiteConfig(platform.ctx.db, row.id))!);
});
afterAll(async () => {
  await platform?.close();
});

const site = (slug: string): SiteConfig => {
  const found = sites.get(slug);
  if (!found) throw new Error(`no site ${slug}`);
  return found;
};
/** The address a dealer's pages are known by: its domain over https, else its local address. */
const originOf = (slug: string) => (site(slug).domain_name ? `https://${site(slug).domain_name}` : `http://${slug}.localhost:3000`);

const carsOf = async (slug: string) => listSiteCars(platform.ctx.db, site(slug).id);
/** A car the site lists for sale right now, in stock, with a real price. */
async function carForSale(slug: string, extra: (car: Car) => boolean = () => true): Promise<Car> {
  const car = (await carsOf(slug)).find(
    (entry) =>
      entry.status === 'in_stock' && !entry.sold && entry.price > 10 && isCarOnSite(site(slug), entry, nowSeconds()) && extra(entry),
  );
  if (!car) throw new Error(`no car for sale on ${slug}`);
  return car;
}
async function soldLongAgo(slug: string): Promise<Car> {
  const cutoff = nowSeconds() - site(slug).include_sold_cars_days * day;
  const car = (await carsOf(slug)).find(
    (entry) => isSold(entry) && entry.sold_date_timestamp !== null && entry.sold_date_timestamp < cutoff,
  );
  if (!car) throw new Error(`no car sold long ago on ${slug}`);
  return car;
}
async function hiddenCar(slug: string): Promise<Car> {
  const car = (await carsOf(slug)).find((entry) => !entry.show_on_dealer_website);
  if (!car) throw new Error(`no hidden car on ${slug}`);
  return car;
}

const html = (markup: string): Document => new JSDOM(markup).window.document;
const metaContent = (doc: Document, key: string): string | null =>
  doc.querySelector(`meta[property="${key}"], meta[name="${key}"]`)?.getAttribute('content') ?? null;
/** Every JSON-LD block of a page, parsed as a search engine would. */
const jsonLdOf = (doc: Document): Record<string, unknown>[] =>
  [...doc.querySelectorAll('script[type="application/ld+json"]')].map(
    (script) => JSON.parse(script.textContent ?? '') as Record<string, unknown>,
  );

type CarLd = {
  '@type': string;
  name: string;
  url: string;
  image: string;
  brand: { '@type': string; name: string };
  model: string;
  vehicleModelDate: string;
  vehicleIdentificationNumber: string;
  itemCondition: string;
  mileageFromOdometer: { '@type': string; value: number; unitCode: string };
  offers: {
    '@type': string;
    price?: number;
    priceCurrency: string;
    availability: string;
    url: string;
    seller: { '@type': string; name: string; address: { addressCountry: string } };
  };
};

// ---------------------------------------------------------------------------------------------

describe('the car detail call (SPEC §7: /api/websites/{websiteId}/cars/{slug}.json)', () => {
  it.each(['metro-motor-group', 'coastal-motorcycles', 'lone-star-auto', 'flexi-subscriptions'])(
    'gives %s its own car, the same as /api/cars/{slug}',
    async (slug) => {
      const car = await carForSale(slug);
      const res = await siteRequest(platform.app, slug, 'GET', `/api/websites/${site(slug).id}/cars/${car.slug}.json`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual(car);
      expect(res.json()).toEqual((await siteRequest(platform.app, slug, 'GET', `/api/cars/${car.slug}`)).json());
    },
  );

  it('answers a car sold yesterday (still in the sold-cars window), as search lists it', async () => {
    const cutoff = nowSeconds() - site('metro-motor-group').include_sold_cars_days * day;
    const recent = (await carsOf('metro-motor-group')).find(
      (car) => isSold(car) && car.show_on_dealer_website && (car.sold_date_timestamp ?? 0) >= cutoff,
    );
    expect(recent).toBeDefined();
    expect(
      (
        await siteRequest(
          platform.app,
          'metro-motor-group',
          'GET',
          `/api/websites/${site('metro-motor-group').id}/cars/${recent!.slug}.json`,
        )
      ).statusCode,
    ).toBe(200);
  });

  type Case = [string, (metro: SiteConfig) => Promise<string>];
  it.each<Case>([
    [
      "another dealer's website id, with that dealer's car",
      async () => `/api/websites/${site('harbour-used-cars').id}/cars/${(await carForSale('harbour-used-cars')).slug}.json`,
    ],
    [
      "another dealer's website id, with this dealer's car",
      async (metro) => `/api/websites/${site('harbour-used-cars').id}/cars/${(await carForSale(metro.slug)).slug}.json`,
    ],
    [
      "this dealer's id with another dealer's car",
      async (metro) => `/api/websites/${metro.id}/cars/${(await carForSale('harbour-used-cars')).slug}.json`,
    ],
    ['a website id that is no number', async (metro) => `/api/websites/metro/cars/${(await carForSale(metro.slug)).slug}.json`],
    ['a website id with a leading plus', async (metro) => `/api/websites/+${metro.id}/cars/${(await carForSale(metro.slug)).slug}.json`],
    ['a slug that is in no stock', async (metro) => `/api/websites/${metro.id}/cars/no-such-car-123.json`],
    ['a slug with a dot in it', async (metro) => `/api/websites/${metro.id}/cars/${(await carForSale(metro.slug)).slug}.x.json`],
    ['a slug with a space in it', async (metro) => `/api/websites/${metro.id}/cars/bad%20slug.json`],
    ['a slug with a quote in it', async (metro) => `/api/websites/${metro.id}/cars/bad'slug.json`],
    ['the address without .json', async (metro) => `/api/websites/${metro.id}/cars/${(await carForSale(metro.slug)).slug}`],
    ['an empty slug', async (metro) => `/api/websites/${metro.id}/cars/.json`],
    [
      'a car sold before the sold-cars window',
      async (metro) => `/api/websites/${metro.id}/cars/${(await soldLongAgo(metro.slug)).slug}.json`,
    ],
    ['a car hidden from the dealer website', async (metro) => `/api/websites/${metro.id}/cars/${(await hiddenCar(metro.slug)).slug}.json`],
  ])('answers 404 with a message for %s', async (_case, url) => {
    const res = await siteRequest(platform.app, 'metro-motor-group', 'GET', await url(site('metro-motor-group')));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: expect.any(String) });
    expect(res.body).not.toContain('"vin"');
  });

  it('answers 404 at an address that is no dealer site', async () => {
    const res = await siteRequest(platform.app, 'no-such-dealer', 'GET', '/api/websites/1/cars/anything.json');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toHaveProperty('message');
  });
});

// ---------------------------------------------------------------------------------------------

describe('a vehicle page as search engines and shared links see it', () => {
  it("has the car's title, description, canonical address, share tags and schema.org Car, on first response", async () => {
    const metro = site('metro-motor-group');
    const car = await carForSale(metro.slug, (entry) => entry.car_type === 'used' && entry.primary_image_url !== '');
    const res = await siteRequest(platform.app, metro.slug, 'GET', `/cars/${car.slug}`);
    expect(res.statusCode).toBe(200);
    const doc = html(res.body);
    const pageUrl = `https://www.metromotorgroup.com.au/cars/${car.slug}`;
    const image = `https://www.metromotorgroup.com.au${car.primary_image_url}?w=1200&q=80`;

    expect(doc.title).toBe(`${car.name} | ${metro.name}`);
    expect(doc.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(pageUrl);
    const description = metaContent(doc, 'description')!;
    for (const part of [car.name, formatPrice(car.price, { locale: 'en-AU' }), formatDistance(car.km, 'en-AU'), car.location_name])
      expect(description).toContain(part);
    expect(metaContent(doc, 'robots')).toBeNull();

    expect(metaContent(doc, 'og:type')).toBe('product');
    expect(metaContent(doc, 'og:title')).toBe(doc.title);
    expect(metaContent(doc, 'og:description')).toBe(description);
    expect(metaContent(doc, 'og:url')).toBe(pageUrl);
    expect(metaContent(doc, 'og:site_name')).toBe(metro.name);
    expect(metaContent(doc, 'og:image')).toBe(image);
    expect(metaContent(doc, 'og:image:width')).toBe('1200');
    expect(metaContent(doc, 'og:image:height')).toBe('900');
    expect(metaContent(doc, 'product:price:amount')).toBe(String(car.price));
    expect(metaContent(doc, 'product:price:currency')).toBe('AUD');
    expect(metaContent(doc, 'twitter:card')).toBe('summary_large_image');
    expect(metaContent(doc, 'twitter:image')).toBe(image);

    const ld = jsonLdOf(doc);
    expect(ld).toHaveLength(1);
    expect(ld[0]).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Car',
      name: car.name,
      url: pageUrl,
      image,
      brand: { '@type': 'Brand', name: car.make },
      model: car.model,
      vehicleModelDate: String(car.year),
      vehicleIdentificationNumber: car.vin,
      itemCondition: 'https://schema.org/UsedCondition',
      mileageFromOdometer: { '@type': 'QuantitativeValue', value: car.km, unitCode: 'KMT' },
      offers: {
        '@type': 'Offer',
        price: car.price,
        priceCurrency: 'AUD',
        availability: 'https://schema.org/InStock',
        url: pageUrl,
        seller: {
          '@type': 'AutoDealer',
          name: car.location_name,
          address: { '@type': 'PostalAddress', addressLocality: car.city, addressRegion: car.state, addressCountry: 'AU' },
        },
      },
    });
    expect(ld[0]).not.toHaveProperty('numberOfDoors');
  });

  it('still carries the car inline, preloads the hero photo and the vehicle remote', async () => {
    const car = await carForSale('metro-motor-group');
    const res = await siteRequest(platform.app, 'metro-motor-group', 'GET', `/cars/${car.slug}`);
    const doc = html(res.body);
    expect(JSON.parse(doc.getElementById('route-data')!.textContent!)).toEqual({ car });
    expect(doc.querySelector('link[rel="preload"][as="image"]')?.getAttribute('href')?.startsWith(`${car.primary_image_url}?`)).toBe(true);
    const remote = `http://metro-motor-group.localhost:3000/remotes/mf-vehicle/${testRemoteVersion}`;
    expect(res.body).toContain(`<link rel="preload" as="script" href="${remote}/remoteEntry.js">`);
    expect(res.body).toContain(`<link rel="preload" as="script" href="${remote}/static/js/VehicleDetailPage.js">`);
  });

  it('keeps a car name that tries to close the script element inside the JSON-LD', async () => {
    const { insertCars } = await import('@dealer/db/car-store');
    const template = await carForSale('harbour-used-cars');
    const sneaky: Car = {
      ...template,
      id: 991_001,
      slug: 'test-sneaky-name',
      stocknum: 'TS991001',
      name: '2020 Evil </script><script>alert(1)</script> & "Co"',
    };
    await insertCars(platform.ctx.db, site('harbour-used-cars').id, [sneaky]);
    try {
      const res = await siteRequest(platform.app, 'harbour-used-cars', 'GET', `/cars/${sneaky.slug}`);
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('</script><script>alert(1)');
      const doc = html(res.body);
      expect(doc.querySelectorAll('script:not([src])').length).toBe(3); // JSON-LD, site config, route data
      expect(jsonLdOf(doc)[0]).toMatchObject({ name: sneaky.name });
      expect(doc.title).toBe(`${sneaky.name} | ${site('harbour-used-cars').name}`);
    } finally {
      await platform.ctx.db.deleteFrom('cars').where('id', '=', sneaky.id).execute();
    }
  });

  it('says a coming-soon car on pre-order can be pre-ordered, and shows no price when the dealer has none', async () => {
    const car = (await carsOf('metro-motor-group')).find(
      (entry) =>
        entry.status === 'coming_soon' &&
        entry.preorder &&
        entry.show_on_dealer_website &&
        isCarOnSite(site('metro-motor-group'), entry, nowSeconds()),
    );
    expect(car).toBeDefined();
    const doc = html((await siteRequest(platform.app, 'metro-motor-group', 'GET', `/cars/${car!.slug}`)).body);
    const [ld] = jsonLdOf(doc) as unknown as CarLd[];
    expect(ld!.itemCondition).toBe('https://schema.org/NewCondition');
    expect(ld!.offers.availability).toBe('https://schema.org/PreOrder');
    if (car!.price > 10) expect(ld!.offers.price).toBe(car!.price);
    else expect(ld!.offers).not.toHaveProperty('price');
  });

  it('opens a motorcycle at /motorcycles/{slug} on Coastal Motorcycles, with its JSON-LD', async () => {
    const coastal = site('coastal-motorcycles');
    const bike = await carForSale(coastal.slug);
    const res = await siteRequest(platform.app, coastal.slug, 'GET', `/motorcycles/${bike.slug}`);
    expect(res.statusCode).toBe(200);
    const doc = html(res.body);
    const pageUrl = `https://www.coastalmotorcycles.com.au/motorcycles/${bike.slug}`;
    expect(doc.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(pageUrl);
    expect(metaContent(doc, 'og:url')).toBe(pageUrl);
    const [ld] = jsonLdOf(doc) as unknown as CarLd[];
    expect(ld).toMatchObject({
      name: bike.name,
      url: pageUrl,
      brand: { name: bike.make },
      vehicleIdentificationNumber: bike.vin,
      offers: { priceCurrency: 'AUD', seller: { name: bike.location_name } },
    });
    // The car address of a bike moves to the bike address.
    const old = await siteRequest(platform.app, coastal.slug, 'GET', `/cars/${bike.slug}`);
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe(`/motorcycles/${bike.slug}`);
  });

  it('prices a Lone Star Auto car in US dollars and its odometer in miles', async () => {
    const car = await carForSale('lone-star-auto', (entry) => entry.km > 1000);
    const res = await siteRequest(platform.app, 'lone-star-auto', 'GET', `/cars/${car.slug}`);
    expect(res.statusCode).toBe(200);
    const doc = html(res.body);
    const [ld] = jsonLdOf(doc) as unknown as CarLd[];
    expect(ld!.mileageFromOdometer).toEqual({ '@type': 'QuantitativeValue', value: Math.round(car.km / 1.609344), unitCode: 'SMI' });
    expect(ld!.offers.priceCurrency).toBe('USD');
    expect(ld!.offers.seller.address.addressCountry).toBe('US');
    expect(metaContent(doc, 'product:price:currency')).toBe('USD');
    expect(metaContent(doc, 'og:locale')).toBe('en_US');
    expect(metaContent(doc, 'description')).toContain(formatDistance(car.km, 'en-US'));
    expect(metaContent(doc, 'description')).toMatch(/ mi\.$/);
  });

  it('shows a page address without a domain on the address it was asked on', async () => {
    const car = await carForSale('flexi-subscriptions');
    const doc = html((await siteRequest(platform.app, 'flexi-subscriptions', 'GET', `/cars/${car.slug}`)).body);
    const pageUrl = `http://flexi-subscriptions.localhost:3000/cars/${car.slug}`;
    expect(doc.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(pageUrl);
    expect(metaContent(doc, 'og:image')).toBe(`http://flexi-subscriptions.localhost:3000${car.primary_image_url}?w=1200&q=80`);
  });

  type Missing = [string, string, () => Promise<string>];
  it.each<Missing>([
    ['a slug that is in no stock', 'metro-motor-group', async () => '/cars/no-such-car-123'],
    ['a slug with a character a slug cannot have', 'metro-motor-group', async () => '/cars/bad.slug'],
    ['a slug with an encoded space', 'metro-motor-group', async () => '/cars/bad%20slug'],
    ["another dealer's car", 'metro-motor-group', async () => `/cars/${(await carForSale('harbour-used-cars')).slug}`],
    [
      "another dealer's motorcycle, at the motorcycle address",
      'metro-motor-group',
      async () => `/motorcycles/${(await carForSale('coastal-motorcycles')).slug}`,
    ],
    ['a car sold before the sold-cars window', 'metro-motor-group', async () => `/cars/${(await soldLongAgo('metro-motor-group')).slug}`],
    ['a car hidden from the dealer website', 'metro-motor-group', async () => `/cars/${(await hiddenCar('metro-motor-group')).slug}`],
    [
      'a motorcycle sold before the sold-cars window',
      'coastal-motorcycles',
      async () => `/motorcycles/${(await soldLongAgo('coastal-motorcycles')).slug}`,
    ],
    ['a car of a US dealer sold before the window', 'lone-star-auto', async () => `/cars/${(await soldLongAgo('lone-star-auto')).slug}`],
  ])('answers %s with a 404 page search engines are told not to index', async (_case, slug, path) => {
    const res = await siteRequest(platform.app, slug, 'GET', await path());
    expect(res.statusCode).toBe(404);
    const doc = html(res.body);
    expect(metaContent(doc, 'robots')).toBe('noindex');
    expect(doc.title).toBe(`Page not found | ${site(slug).name}`);
    expect(jsonLdOf(doc)).toEqual([]);
    expect(metaContent(doc, 'og:type')).toBeNull();
    expect(doc.getElementById('route-data')).toBeNull();
  });
});

describe('other pages as search engines see them', () => {
  it("describes the home page as the dealer's website, with the dealer's schema.org AutoDealer", async () => {
    const metro = site('metro-motor-group');
    const doc = html((await siteRequest(platform.app, metro.slug, 'GET', '/')).body);
    expect(metaContent(doc, 'og:type')).toBe('website');
    expect(metaContent(doc, 'og:title')).toBe(metro.seo.title);
    expect(metaContent(doc, 'og:description')).toBe(metro.seo.description);
    expect(metaContent(doc, 'og:url')).toBe('https://www.metromotorgroup.com.au/');
    expect(metaContent(doc, 'og:image')).toBeNull();
    expect(metaContent(doc, 'twitter:card')).toBe('summary');
    const ld = jsonLdOf(doc);
    expect(ld.map((entry) => entry['@type'])).toEqual(['WebSite', 'AutoDealer']);
    expect(ld[0]).toMatchObject({ '@context': 'https://schema.org', name: metro.name, url: 'https://www.metromotorgroup.com.au/' });
    expect(ld[1]).toMatchObject({
      name: metro.name,
      telephone: metro.phone,
      logo: `https://www.metromotorgroup.com.au${metro.logo.url}`,
      address: { '@type': 'PostalAddress', addressCountry: 'AU' },
    });
  });

  it.each([
    ['kiwi-motors', 'NZ'],
    ['lone-star-auto', 'US'],
  ])('gives the %s home page its country', async (slug, country) => {
    const ld = jsonLdOf(html((await siteRequest(platform.app, slug, 'GET', '/')).body));
    expect(ld[1]).toMatchObject({ '@type': 'AutoDealer', address: { addressCountry: country } });
  });

  it.each([
    [
      'the search page',
      '/search/new-used-and-demo-cars',
      'https://www.metromotorgroup.com.au/search/new-used-and-demo-cars',
      'Search new, used and demo stock | Metro Motor Group',
    ],
    [
      'a search category page, as its own page',
      '/search/suv/',
      'https://www.metromotorgroup.com.au/search/suv',
      'SUV: Search new, used and demo stock | Metro Motor Group',
    ],
    [
      'any other search address, as the search page',
      '/search/red-cars',
      'https://www.metromotorgroup.com.au/search/new-used-and-demo-cars',
      'Search new, used and demo stock | Metro Motor Group',
    ],
    ['the finance page', '/finance', 'https://www.metromotorgroup.com.au/finance', 'Finance | Metro Motor Group'],
    ['a content page', '/about', 'https://www.metromotorgroup.com.au/about', 'About | Metro Motor Group'],
  ])('gives %s its share tags and no structured data', async (_page, path, url, title) => {
    const doc = html((await siteRequest(platform.app, 'metro-motor-group', 'GET', path)).body);
    expect(doc.title).toBe(title);
    expect(doc.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(url);
    expect(metaContent(doc, 'og:type')).toBe('website');
    expect(metaContent(doc, 'og:title')).toBe(doc.title);
    expect(metaContent(doc, 'og:description')).toBe(metaContent(doc, 'description'));
    expect(metaContent(doc, 'og:url')).toBe(url);
    expect(jsonLdOf(doc)).toEqual([]);
  });
});

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
    expect(locs.slice(pages.length).every((loc) => loc.includes(`${site(slug).detail_path}/`))).toBe(true);
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
