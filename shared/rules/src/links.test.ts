import { describe, it, expect } from 'vitest';
import { classifyLink, isChatHidden, type LinkContext } from './links';

const pages: LinkContext = { usesPagesPath: true };
const noPages: LinkContext = { usesPagesPath: false };
const news: LinkContext = { usesPagesPath: true, blogToNews: true };
const onSite: LinkContext = { usesPagesPath: true, currentOrigin: 'https://www.dealer.com.au' };

describe('classifyLink', () => {
  it.each([
    ['true renders nothing', true, pages, { kind: 'none' }],
    ['empty renders nothing', '  ', pages, { kind: 'none' }],
    ['javascript: renders nothing', 'javascript:alert(1)', pages, { kind: 'none' }],
    ['tel', 'tel:0299998888', pages, { kind: 'plain', href: 'tel:0299998888' }],
    ['mailto', 'mailto:sales@dealer.com.au', pages, { kind: 'plain', href: 'mailto:sales@dealer.com.au' }],
    ['maps scheme', 'maps:?q=Sydney', pages, { kind: 'plain', href: 'maps:?q=Sydney' }],
    ['google maps', 'https://www.google.com/maps/place/X', pages, { kind: 'plain', href: 'https://www.google.com/maps/place/X' }],
    ['google maps .com.au', 'https://www.google.com.au/maps?q=x', pages, { kind: 'plain', href: 'https://www.google.com.au/maps?q=x' }],
    ['maps.google', 'https://maps.google.com/?cid=1', pages, { kind: 'plain', href: 'https://maps.google.com/?cid=1' }],
    ['short maps link', 'https://maps.app.goo.gl/abc', pages, { kind: 'plain', href: 'https://maps.app.goo.gl/abc' }],
    ['goo.gl maps', 'https://goo.gl/maps/abc', pages, { kind: 'plain', href: 'https://goo.gl/maps/abc' }],
    [
      'google search is external',
      'https://www.google.com/search?q=x',
      pages,
      { kind: 'external', href: 'https://www.google.com/search?q=x' },
    ],
    ['external careers site', 'https://careers.example.com/jobs', pages, { kind: 'external', href: 'https://careers.example.com/jobs' }],
    ['protocol-relative external', '//cdn.example.com/a.pdf', pages, { kind: 'external', href: '//cdn.example.com/a.pdf' }],
    [
      'absolute link to this site',
      'https://www.dealer.com.au/finance?x=1#finance-form',
      onSite,
      { kind: 'internal', to: '/finance?x=1#finance-form', prefetch: false },
    ],
    ['absolute link to this site over http', 'http://WWW.dealer.com.au/about', onSite, { kind: 'internal', to: '/about', prefetch: true }],
    [
      'absolute link to a sibling site',
      'https://other.dealer.com.au/about',
      onSite,
      { kind: 'external', href: 'https://other.dealer.com.au/about' },
    ],
    ['hash anchor', '#finance-form', pages, { kind: 'plain', href: '#finance-form' }],
    ['internal', '/search/used-cars', pages, { kind: 'internal', to: '/search/used-cars', prefetch: true }],
    ['relative without slash', 'about', pages, { kind: 'internal', to: '/about', prefetch: true }],
    ['trailing slash kept', '/terms-and-conditions/', pages, { kind: 'internal', to: '/terms-and-conditions/', prefetch: true }],
    ['strip privacy policy', '/pages/privacy-policy', pages, { kind: 'internal', to: '/privacy-policy', prefetch: true }],
    ['strip terms', '/pages/terms-and-conditions/', pages, { kind: 'internal', to: '/terms-and-conditions/', prefetch: true }],
    ['strip about us', '/pages/about-us', pages, { kind: 'internal', to: '/about-us', prefetch: true }],
    [
      'strip parts',
      '/pages/parts-and-accessories?make=ford',
      pages,
      { kind: 'internal', to: '/parts-and-accessories?make=ford', prefetch: true },
    ],
    [
      'strip vehicle parts',
      '/pages/vehicle-parts-and-accessories',
      pages,
      { kind: 'internal', to: '/vehicle-parts-and-accessories', prefetch: true },
    ],
    ['keep other pages on a pages site', '/pages/eofy', pages, { kind: 'internal', to: '/pages/eofy', prefetch: true }],
    ['keep look-alike slug', '/pages/privacy-policy-old', pages, { kind: 'internal', to: '/pages/privacy-policy-old', prefetch: true }],
    ['strip any pages path when unused', '/pages/eofy', noPages, { kind: 'internal', to: '/eofy', prefetch: true }],
    ['bare /pages when unused', '/pages', noPages, { kind: 'internal', to: '/', prefetch: true }],
    ['blog to news', '/blog', news, { kind: 'internal', to: '/news', prefetch: true }],
    ['blog post to news', '/blog/eofy-sale', news, { kind: 'internal', to: '/news/eofy-sale', prefetch: true }],
    ['blog stays without the flag', '/blog', pages, { kind: 'internal', to: '/blog', prefetch: true }],
    ['blogger is not blog', '/bloggers', news, { kind: 'internal', to: '/bloggers', prefetch: true }],
    ['no prefetch: test drive booking', '/book-test-drive', pages, { kind: 'internal', to: '/book-test-drive', prefetch: false }],
    ['no prefetch: service booking', '/pages/book-a-service', pages, { kind: 'internal', to: '/pages/book-a-service', prefetch: false }],
    ['no prefetch: booking', '/service-booking', pages, { kind: 'internal', to: '/service-booking', prefetch: false }],
    ['no prefetch: special offers', '/special-offers', pages, { kind: 'internal', to: '/special-offers', prefetch: false }],
    ['no prefetch: finance', '/finance', pages, { kind: 'internal', to: '/finance', prefetch: false }],
    ['no prefetch: apply for finance', '/apply-for-finance', pages, { kind: 'internal', to: '/apply-for-finance', prefetch: false }],
    ['no prefetch: assured', '/toyota-assured', pages, { kind: 'internal', to: '/toyota-assured', prefetch: false }],
    ['no prefetch: models', '/models/corolla', pages, { kind: 'internal', to: '/models/corolla', prefetch: false }],
    ['no prefetch: checkout', '/cars/abc-123/checkout', pages, { kind: 'internal', to: '/cars/abc-123/checkout', prefetch: false }],
    ['no prefetch: checkout journey', '/checkout-journey', pages, { kind: 'internal', to: '/checkout-journey', prefetch: false }],
    ['no prefetch: buy online', '/buy-online', pages, { kind: 'internal', to: '/buy-online', prefetch: false }],
    ['prefetch: facebook is not book', '/facebook-offers', pages, { kind: 'internal', to: '/facebook-offers', prefetch: true }],
    [
      'prefetch ignores the query',
      '/search/used-cars?ref=finance',
      pages,
      { kind: 'internal', to: '/search/used-cars?ref=finance', prefetch: true },
    ],
  ] as const)('%s', (_name, target, ctx, expected) => {
    expect(classifyLink(target, ctx)).toEqual(expected);
  });
});

describe('isChatHidden', () => {
  it.each([
    ['/careers', false, true],
    ['/careers/', false, true],
    ['/careers/sales-consultant', false, true],
    ['/current-positions', false, true],
    ['/pages/careers', false, true],
    ['/cars/abc-123', false, false],
    ['/cars/abc-123', true, true],
    ['/cars', true, true],
    ['/locations/parramatta', true, true],
    ['/our-locations/', true, true],
    ['/checkout-journey', true, true],
    ['/checkout-journey', false, false],
    ['/search/used-cars', true, false],
    ['/', true, false],
    ['/carsales-reviews', true, false],
  ] as const)('%s (option %s) → %s', (pathname, hideOnCarsLocationsCheckout, expected) => {
    expect(isChatHidden(pathname, { hideOnCarsLocationsCheckout })).toBe(expected);
  });
});
