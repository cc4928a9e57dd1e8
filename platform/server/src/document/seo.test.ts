import { beforeAll, describe, expect, it } from 'vitest';
import { absoluteUrl, canonicalOrigin, escapeXml, renderRobots, renderSitemap, shareImageUrl, sitemapDate, trimPath } from './seo';
import { vehicleDescription } from './page-seo';

type JsdomModule = { JSDOM: new (markup: string, options?: { contentType?: string }) => { window: { document: Document } } };
let JSDOM: JsdomModule['JSDOM'];
beforeAll(async () => {
  // jsdom ships no type declarations; the test only needs its constructor.
  ({ JSDOM } = (await import('jsdom' as string)) as JsdomModule);
});

describe("the address a dealer's pages are known by", () => {
  it.each([
    [
      'its own domain, over https',
      'www.metromotorgroup.com.au',
      'http://metro-motor-group.localhost:3000',
      'https://www.metromotorgroup.com.au',
    ],
    [
      'its domain in capitals with a trailing dot',
      'WWW.LoneStarAuto.com.',
      'http://lone-star-auto.localhost:3000',
      'https://www.lonestarauto.com',
    ],
    [
      'the address it was asked on, without a domain',
      null,
      'http://flexi-subscriptions.localhost:3000',
      'http://flexi-subscriptions.localhost:3000',
    ],
    ['the address it was asked on, with an empty domain', '  ', 'https://preview.example.com', 'https://preview.example.com'],
  ])('is %s', (_case, domain, origin, expected) => {
    expect(canonicalOrigin({ domain_name: domain }, origin)).toBe(expected);
  });

  it.each([
    ['/search/suv/', '/search/suv'],
    ['//search//suv', '/search/suv'],
    ['/', '/'],
    ['', '/'],
  ])('spells the path %j as %j', (path, expected) => {
    expect(trimPath(path)).toBe(expected);
  });

  it.each([
    [
      'a photo on the image endpoint',
      '/img/vehicle/car/suv/white/3.jpg',
      'https://www.metromotorgroup.com.au/img/vehicle/car/suv/white/3.jpg?w=1200&q=80',
    ],
    ['a photo already on a CDN', 'https://cdn.example.com/cars/1.jpg', 'https://cdn.example.com/cars/1.jpg?w=1200&q=80'],
    ['no photo', '', null],
  ])('shares %s at 1200 wide and quality 80', (_case, path, expected) => {
    expect(shareImageUrl('https://www.metromotorgroup.com.au', path)).toBe(expected);
  });

  it('makes a logo path absolute and leaves an absolute address alone', () => {
    expect(absoluteUrl('https://www.kiwimotors.co.nz', '/img/logo/kiwi-motors.svg')).toBe(
      'https://www.kiwimotors.co.nz/img/logo/kiwi-motors.svg',
    );
    expect(absoluteUrl('https://www.kiwimotors.co.nz', 'https://cdn.example.com/logo.svg')).toBe('https://cdn.example.com/logo.svg');
  });
});

describe("a vehicle page's description", () => {
  const corolla = {
    name: '2021 Toyota Corolla Ascent Sport',
    price: 25990,
    preorder: false,
    km: 45120,
    location_name: 'Metro Toyota Parramatta',
    city: 'Parramatta',
  };
  it.each([
    [
      'a priced car in Australia',
      corolla,
      'en-AU',
      '2021 Toyota Corolla Ascent Sport for sale at Metro Toyota Parramatta, Parramatta: $25,990, 45,120 km.',
    ],
    [
      'a car without a price',
      { ...corolla, price: 0 },
      'en-AU',
      '2021 Toyota Corolla Ascent Sport for sale at Metro Toyota Parramatta, Parramatta: Enquire for price, 45,120 km.',
    ],
    [
      'a pre-order car without a price',
      { ...corolla, price: 0, preorder: true, km: 10 },
      'en-AU',
      '2021 Toyota Corolla Ascent Sport for sale at Metro Toyota Parramatta, Parramatta: PREORDER, 10 km.',
    ],
    [
      'a car in Texas, in miles',
      { ...corolla, location_name: 'Lone Star Auto Austin', city: 'Austin' },
      'en-US',
      '2021 Toyota Corolla Ascent Sport for sale at Lone Star Auto Austin, Austin: $25,990, 28,036 mi.',
    ],
    [
      'a US car without a price',
      { ...corolla, price: 5, location_name: 'Lone Star Auto Austin', city: 'Austin' },
      'en-US',
      '2021 Toyota Corolla Ascent Sport for sale at Lone Star Auto Austin, Austin: Inquire for price, 28,036 mi.',
    ],
    [
      'a yard named after its town',
      { ...corolla, location_name: 'Auckland', city: 'Auckland' },
      'en-NZ',
      '2021 Toyota Corolla Ascent Sport for sale at Auckland: $25,990, 45,120 km.',
    ],
  ] as const)('reads well for %s', (_case, car, locale, expected) => {
    expect(vehicleDescription(car, locale)).toBe(expected);
  });
});

describe('sitemap.xml', () => {
  const parse = (xml: string) => new JSDOM(xml, { contentType: 'application/xml' }).window.document;

  it('is well-formed XML in the sitemaps.org namespace, escaping what XML cannot carry as is', () => {
    const xml = renderSitemap([
      { loc: 'https://www.metromotorgroup.com.au/' },
      { loc: 'https://www.metromotorgroup.com.au/search?make=Ford&model=<Ranger>&note="it\'s"', lastmod: '2025-01-02T03:04:05.000Z' },
      { loc: 'https://www.metromotorgroup.com.au/a\u0001b' },
    ]);
    const doc = parse(xml);
    expect(doc.documentElement.namespaceURI).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    const locs = [...doc.getElementsByTagName('loc')].map((loc) => loc.textContent);
    expect(locs).toEqual([
      'https://www.metromotorgroup.com.au/',
      'https://www.metromotorgroup.com.au/search?make=Ford&model=<Ranger>&note="it\'s"',
      'https://www.metromotorgroup.com.au/ab',
    ]);
    expect([...doc.getElementsByTagName('lastmod')].map((entry) => entry.textContent)).toEqual(['2025-01-02T03:04:05.000Z']);
  });

  it('is still a valid urlset with no pages at all', () => {
    expect(parse(renderSitemap([])).getElementsByTagName('url')).toHaveLength(0);
  });

  it.each([
    ['&<>"\'', '&amp;&lt;&gt;&quot;&apos;'],
    ['plain', 'plain'],
    ['tab\tand\nnewline', 'tab\tand\nnewline'],
    ['bell\u0007', 'bell'],
  ])('escapes %j as %j', (text, expected) => {
    expect(escapeXml(text)).toBe(expected);
  });

  it.each([
    ['an ISO date', '2025-03-04T05:06:07.000Z', '2025-03-04T05:06:07.000Z'],
    ['unix seconds', 1_741_064_767, '2025-03-04T05:06:07.000Z'],
    ['a date that is none', 'yesterday-ish', null],
    ['nothing', null, null],
  ] as const)('dates a page from %s', (_case, value, expected) => {
    expect(sitemapDate(value)).toBe(expected);
  });
});

describe('robots.txt', () => {
  it('allows everything but the listed paths once each, and names the sitemap', () => {
    expect(renderRobots(['/api/', '/my-garage', '/my-garage'], 'https://www.metromotorgroup.com.au/sitemap.xml')).toBe(
      'User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /my-garage\n\nSitemap: https://www.metromotorgroup.com.au/sitemap.xml\n',
    );
  });
});
