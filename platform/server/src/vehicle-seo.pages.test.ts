import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Car } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';
import { formatPrice } from '@dealer/rules/price';
import { formatDistance } from '@dealer/rules/locale';
import { isSold } from '@dealer/rules/tags';
import { isCarOnSite } from './search/site-search';
import { siteRequest, testRemoteVersion, type TestPlatform } from './testing/test-platform';
import { day, nowSeconds, vehicleSeoPlatform, type Jsdom } from './testing/vehicle-seo-platform';

// Vehicle detail page, the server half: the SPEC §7 car call, and what a search engine or a shared
// link sees of a car page and the other pages (title, description, canonical, Open Graph, schema.org
// JSON-LD). Each dealer's sitemap.xml and robots.txt are in vehicle-seo.sitemap-and-robots.test.ts.

const { open, site, carsOf, carForSale, soldLongAgo, hiddenCar } = vehicleSeoPlatform();
let platform: TestPlatform;
let JSDOM: Jsdom;
beforeAll(async () => {
  ({ platform, JSDOM } = await open());
});
afterAll(async () => {
  await platform?.close();
});

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
      expect(doc.querySelectorAll('script:not([src])').length).toBe(4); // JSON-LD, site config, route data, page view
      expect(JSON.parse(doc.getElementById('page-view')!.textContent!)).toMatchObject({ carName: sneaky.name, carSlug: sneaky.slug });
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
    // The home page's hero banner is its share image (issue 24's home sections).
    expect(metaContent(doc, 'og:image')).toMatch(/^https:\/\/www\.metromotorgroup\.com\.au\/img\/vehicle\/.+\.jpg\?w=1200&q=80$/);
    expect(metaContent(doc, 'twitter:card')).toBe('summary_large_image');
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
    ['a content page', '/about', 'https://www.metromotorgroup.com.au/about', 'About Us | Metro Motor Group'],
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
