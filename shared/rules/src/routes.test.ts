import { describe, it, expect } from 'vitest';
import type { SiteFeatures, SiteTemplate } from '@dealer/contracts/site';
import {
  checkoutPath,
  garagePath,
  garageSavedPath,
  resolveRoute,
  searchPathFor,
  templateDefaultSearchPath,
  vehiclePath,
  type RouteSite,
} from './routes';

const features: SiteFeatures = {
  redbook: false,
  dealerstudio: false,
  split_testing: false,
  authentication: false,
  stock_on_homepage: false,
  pre_owned_redirect: false,
  bot_protection: false,
  mobile_only_phone: false,
  fuel_tags: false,
  plain_spinner: false,
  show_postcode: false,
};

const site = (over: Partial<RouteSite> = {}): RouteSite => ({
  template: 'dealer-group',
  default_search_path: '',
  detail_path: '/cars',
  finance_path: '/finance',
  garage_path: '/my-garage',
  search_categories: [],
  features,
  ...over,
});

const group = site();
const motorcycles = site({ template: 'motorcycles', detail_path: '/motorcycles' });
const campers = site({ template: 'campers', detail_path: '/campers' });
const toyota = site({ template: 'toyota-pre-owned', features: { ...features, pre_owned_redirect: true } });
const redirectsPreOwned = site({ features: { ...features, pre_owned_redirect: true } });
const bigBox = site({ garage_path: '/mybigboxcars' });
const financeEnquiry = site({ finance_path: '/finance-enquiry' });
const categories = site({ search_categories: [{ label: 'Electric', path: '/electric-cars/' }] });

/** Named so each resolveRoute row's title says which site it runs on. */
const sites = {
  group,
  motorcycles,
  campers,
  toyota,
  redirectsPreOwned,
  bigBox,
  financeEnquiry,
  categories,
  usedCarsPath: site({ default_search_path: 'used-cars' }),
  carLoans: site({ finance_path: '/car-loans' }),
  preApprovalFinance: site({ finance_path: '/finance-pre-approval' }),
};

describe('templateDefaultSearchPath', () => {
  it.each([
    ['dealer-group', '/search/new-used-and-demo-cars'],
    ['used-cars', '/search/used-cars'],
    ['trucks', '/search/new-used-and-demo-trucks'],
    ['motorcycles', '/search/new-and-used-motorcycles'],
    ['subscription-cars', '/search/subscription-cars'],
    ['rental-cars', '/search/rental-cars'],
    ['toyota-pre-owned', '/pre-owned'],
    ['campers', '/search/new-used-and-demo-cars'],
  ] as [SiteTemplate, string][])('%s → %s', (template, expected) => {
    expect(templateDefaultSearchPath(template)).toBe(expected);
  });
});

describe('searchPathFor', () => {
  it.each([
    ['dealer-group', '', '/search/new-used-and-demo-cars'],
    ['used-cars', '', '/search/used-cars'],
    ['toyota-pre-owned', '', '/pre-owned'],
    ['dealer-group', '/search/used-cars', '/search/used-cars'],
    ['dealer-group', '/search/used-cars/', '/search/used-cars'],
    ['dealer-group', 'used-cars', '/search/used-cars'],
    ['dealer-group', '/used-cars', '/search/used-cars'],
    ['dealer-group', '/pre-owned', '/search/pre-owned'],
    ['dealer-group', '/', '/search/new-used-and-demo-cars'],
    ['dealer-group', '/search', '/search/new-used-and-demo-cars'],
    ['trucks', '  ', '/search/new-used-and-demo-trucks'],
    ['toyota-pre-owned', '/pre-owned', '/pre-owned'],
    ['toyota-pre-owned', '/pre-owned/', '/pre-owned'],
    ['toyota-pre-owned', '/certified-pre-owned', '/certified-pre-owned'],
    ['toyota-pre-owned', '/search/used-cars', '/search/used-cars'],
  ] as [SiteTemplate, string, string][])('%s with %j → %s', (template, configured, expected) => {
    expect(searchPathFor({ template, default_search_path: configured })).toBe(expected);
  });
});

describe('vehiclePath and checkoutPath', () => {
  it.each([
    ['/cars', '/cars/2019-toyota-corolla-123', '/cars/2019-toyota-corolla-123/checkout'],
    ['/motorcycles', '/motorcycles/2019-toyota-corolla-123', '/motorcycles/2019-toyota-corolla-123/checkout'],
    ['/campers', '/campers/2019-toyota-corolla-123', '/campers/2019-toyota-corolla-123/checkout'],
  ] as const)('%s → %s, %s', (detail_path, vehicle, checkout) => {
    expect(vehiclePath({ detail_path }, '2019-toyota-corolla-123')).toBe(vehicle);
    expect(checkoutPath({ detail_path }, '2019-toyota-corolla-123')).toBe(checkout);
  });
});

describe('garagePath and garageSavedPath', () => {
  it.each([
    ['/my-garage', '/my-garage', '/my-garage?tab=saved-cars'],
    ['', '/my-garage', '/my-garage?tab=saved-cars'],
    ['/mybigboxcars', '/mybigboxcars', '/mybigboxcars/saved'],
    ['/mymotorama/', '/mymotorama', '/mymotorama/saved'],
    ['/myblinkr', '/myblinkr', '/myblinkr/saved'],
    ['myservco', '/myservco', '/myservco/saved'],
  ])('%j → %s, %s', (garage_path, garage, saved) => {
    expect(garagePath({ garage_path })).toBe(garage);
    expect(garageSavedPath({ garage_path })).toBe(saved);
  });
});

describe('resolveRoute', () => {
  it.each([
    // home and search
    ['group', '/', '', { kind: 'home' }],
    ['group', '', '', { kind: 'home' }],
    ['group', '/search/new-used-and-demo-cars', '', { kind: 'search', searchSlug: 'new-used-and-demo-cars' }],
    ['group', '/search/new-used-and-demo-cars/', '', { kind: 'search', searchSlug: 'new-used-and-demo-cars' }],
    ['group', '/search/used-cars', '', { kind: 'search', searchSlug: 'used-cars' }],
    ['group', '/search/ute', '', { kind: 'search', searchSlug: 'ute' }],
    ['group', '/search/sedan', '', { kind: 'search', searchSlug: 'sedan' }],
    ['group', '/search/suv', '', { kind: 'search', searchSlug: 'suv' }],
    ['group', '/search/hatch', '', { kind: 'search', searchSlug: 'hatch' }],
    ['group', '/search/4x4', '', { kind: 'search', searchSlug: '4x4' }],
    ['group', '/search/used-cars/toyota', '', { kind: 'search', searchSlug: 'used-cars/toyota' }],
    ['group', '/search', '', { kind: 'not-found' }],
    ['group', '/search/', '', { kind: 'not-found' }],
    ['usedCarsPath', '/search/used-cars', '', { kind: 'search', searchSlug: 'used-cars' }],
    ['group', '/pre-owned', '', { kind: 'not-found' }],
    ['toyota', '/pre-owned', '', { kind: 'search', searchSlug: 'pre-owned' }],
    ['toyota', '/pre-owned/', '', { kind: 'search', searchSlug: 'pre-owned' }],
    ['toyota', '/search/used-cars', '', { kind: 'redirect', to: '/pre-owned' }],
    ['toyota', '/search/used-cars/', '', { kind: 'redirect', to: '/pre-owned' }],
    ['toyota', '/search/new-cars', '', { kind: 'search', searchSlug: 'new-cars' }],
    ['redirectsPreOwned', '/search/used-cars', '', { kind: 'redirect', to: '/pre-owned' }],
    ['redirectsPreOwned', '/pre-owned', '', { kind: 'search', searchSlug: 'pre-owned' }],
    ['categories', '/electric-cars', '', { kind: 'search', searchSlug: 'electric-cars' }],
    ['group', '/electric-cars', '', { kind: 'search', searchSlug: 'electric-cars' }],
    // vehicle detail and checkout
    ['group', '/cars/2019-toyota-corolla-123', '', { kind: 'vehicle', slug: '2019-toyota-corolla-123' }],
    ['group', '/cars/2019_Toyota-Corolla/', '', { kind: 'vehicle', slug: '2019_Toyota-Corolla' }],
    ['group', '/cars/bad.slug', '', { kind: 'not-found' }],
    ['group', '/cars/bad%20slug', '', { kind: 'not-found' }],
    ['group', '/cars/abc/extra', '', { kind: 'not-found' }],
    ['group', '/cars/abc/checkout', '', { kind: 'checkout', slug: 'abc' }],
    ['group', '/cars/abc/checkout/', '', { kind: 'checkout', slug: 'abc' }],
    ['group', '/cars/abc/checkout/x', '', { kind: 'not-found' }],
    ['group', '/cars/', '', { kind: 'redirect', to: '/search/new-used-and-demo-cars' }],
    ['group', '/motorcycles/abc', '', { kind: 'not-found' }],
    ['group', '/campers/abc', '', { kind: 'not-found' }],
    ['motorcycles', '/motorcycles/2020-yamaha-mt07', '', { kind: 'vehicle', slug: '2020-yamaha-mt07' }],
    ['motorcycles', '/motorcycles/2020-yamaha-mt07/checkout', '', { kind: 'checkout', slug: '2020-yamaha-mt07' }],
    ['motorcycles', '/cars/2020-yamaha-mt07', '', { kind: 'redirect', to: '/motorcycles/2020-yamaha-mt07' }],
    ['motorcycles', '/cars/2020-yamaha-mt07/checkout', '', { kind: 'redirect', to: '/motorcycles/2020-yamaha-mt07/checkout' }],
    ['motorcycles', '/cars/bad.slug', '', { kind: 'not-found' }],
    ['motorcycles', '/cars', '', { kind: 'redirect', to: '/search/new-and-used-motorcycles' }],
    ['motorcycles', '/campers/abc', '', { kind: 'not-found' }],
    ['campers', '/campers/jayco-2021', '', { kind: 'vehicle', slug: 'jayco-2021' }],
    ['campers', '/cars/jayco-2021', '', { kind: 'redirect', to: '/campers/jayco-2021' }],
    ['group', '/checkout', '', { kind: 'checkout', slug: null }],
    ['group', '/checkout-journey/', '', { kind: 'checkout', slug: null }],
    // success
    ['group', '/success', 'category=general-enquiry', { kind: 'success', category: 'general-enquiry' }],
    ['group', '/success/', 'category=used-vehicle-enquiry&car_id=12', { kind: 'success', category: 'used-vehicle-enquiry' }],
    ['group', '/success', '', { kind: 'success', category: null }],
    ['group', '/success', 'category=', { kind: 'success', category: null }],
    // lead forms
    ['group', '/finance', '', { kind: 'lead-form', form: 'finance' }],
    ['group', '/finance/', 'car_id=1&vin=X', { kind: 'lead-form', form: 'finance' }],
    ['group', '/finance-enquiry', '', { kind: 'lead-form', form: 'finance' }],
    ['group', '/apply-for-finance', '', { kind: 'lead-form', form: 'finance' }],
    ['group', '/finance-pre-approval', '', { kind: 'redirect', to: '/finance' }],
    ['financeEnquiry', '/finance-pre-approval/', '', { kind: 'redirect', to: '/finance-enquiry' }],
    ['carLoans', '/car-loans', '', { kind: 'lead-form', form: 'finance' }],
    ['preApprovalFinance', '/finance-pre-approval', '', { kind: 'lead-form', form: 'finance' }],
    ['group', '/book-test-drive', '', { kind: 'lead-form', form: 'test-drive' }],
    ['group', '/book-test-drive/', '', { kind: 'lead-form', form: 'test-drive' }],
    ['group', '/service', '', { kind: 'lead-form', form: 'service' }],
    ['group', '/pages/book-a-service', '', { kind: 'lead-form', form: 'service' }],
    ['group', '/trade-in', '', { kind: 'lead-form', form: 'trade-in' }],
    ['group', '/sell-your-car', '', { kind: 'lead-form', form: 'trade-in' }],
    ['group', '/contact', '', { kind: 'lead-form', form: 'contact' }],
    ['group', '/contact-us', '', { kind: 'lead-form', form: 'contact' }],
    ['group', '/contact-us/parramatta-toyota', '', { kind: 'lead-form', form: 'contact', page: 'parramatta-toyota' }],
    ['group', '/contact-us/parramatta-toyota/', '', { kind: 'lead-form', form: 'contact', page: 'parramatta-toyota' }],
    ['group', '/contact-us/a/b', '', { kind: 'not-found' }],
    ['group', '/careers', '', { kind: 'content', page: 'careers' }],
    ['group', '/current-positions', '', { kind: 'content', page: 'careers' }],
    // garage
    ['group', '/my-garage', '', { kind: 'garage', tab: null }],
    ['group', '/my-garage', 'tab=saved-cars', { kind: 'garage', tab: 'saved-cars' }],
    ['group', '/my-garage/', 'tab=other', { kind: 'garage', tab: null }],
    ['group', '/my-garage/saved', '', { kind: 'not-found' }],
    ['bigBox', '/mybigboxcars', '', { kind: 'garage', tab: null }],
    ['bigBox', '/mybigboxcars/saved', '', { kind: 'garage', tab: 'saved-cars' }],
    ['bigBox', '/mybigboxcars/saved/', '', { kind: 'garage', tab: 'saved-cars' }],
    ['bigBox', '/my-garage', '', { kind: 'redirect', to: '/mybigboxcars' }],
    ['bigBox', '/my-garage', 'tab=saved-cars', { kind: 'redirect', to: '/mybigboxcars/saved' }],
    ['group', '/mybigboxcars', '', { kind: 'not-found' }],
    // content
    ['group', '/dealerships', '', { kind: 'content', page: 'dealerships' }],
    ['group', '/vehicle-parts-and-accessories', '', { kind: 'content', page: 'vehicle-parts-and-accessories' }],
    ['group', '/privacy-policy/', '', { kind: 'content', page: 'privacy-policy' }],
    ['group', '/terms-and-conditions/', '', { kind: 'content', page: 'terms-and-conditions' }],
    ['group', '/eofy', '', { kind: 'content', page: 'eofy' }],
    ['group', '/special-offers', '', { kind: 'content', page: 'special-offers' }],
    ['group', '/find/rental-cars', '', { kind: 'content', page: 'find/rental-cars' }],
    ['group', '/blog', '', { kind: 'blog', section: 'blog', page: 1 }],
    ['group', '/blog', 'page=3', { kind: 'blog', section: 'blog', page: 3 }],
    ['group', '/blog', 'page=0', { kind: 'blog', section: 'blog', page: 1 }],
    ['group', '/special-offers/eofy-deal', '', { kind: 'offer', slug: 'eofy-deal' }],
    ['group', '/blog/eofy-sale', '', { kind: 'post', section: 'blog', slug: 'eofy-sale' }],
    ['group', '/news', '', { kind: 'blog', section: 'news', page: 1 }],
    ['group', '/news/new-models/', '', { kind: 'post', section: 'news', slug: 'new-models' }],
    ['group', '/fleet-service', '', { kind: 'content', page: 'fleet-service' }],
    ['group', '/about', '', { kind: 'content', page: 'about' }],
    ['group', '/about-us', '', { kind: 'content', page: 'about-us' }],
    ['group', '/parts-and-accessories', '', { kind: 'content', page: 'parts-and-accessories' }],
    ['group', '/teams', '', { kind: 'content', page: 'teams' }],
    ['group', '/unsubscribe', '', { kind: 'unsubscribe' }],
    ['group', '/unsubscribe/', 't=abc.def', { kind: 'unsubscribe' }],
    ['group', '/our-locations/', '', { kind: 'content', page: 'our-locations' }],
    ['group', '/pages/privacy-policy', '', { kind: 'content', page: 'pages/privacy-policy' }],
    ['group', '/pages/eofy/', '', { kind: 'content', page: 'pages/eofy' }],
    ['group', '/pages', '', { kind: 'not-found' }],
    ['group', '/pages/a/b', '', { kind: 'not-found' }],
    ['group', '/pages/bad.slug', '', { kind: 'not-found' }],
    // tolerance and misses
    ['group', '//book-test-drive//', '', { kind: 'lead-form', form: 'test-drive' }],
    ['group', '/book-test-drive?x=1#top', '', { kind: 'lead-form', form: 'test-drive' }],
    ['group', '/nowhere', '', { kind: 'not-found' }],
    ['group', '/find', '', { kind: 'not-found' }],
    ['group', '/Finance', '', { kind: 'not-found' }],
  ] as const)('%s %s?%s', (name, pathname, query, expected) => {
    expect(resolveRoute(sites[name], pathname, new URLSearchParams(query))).toEqual(expected);
  });

  it('needs no query', () => {
    expect(resolveRoute(group, '/success')).toEqual({ kind: 'success', category: null });
  });
});
