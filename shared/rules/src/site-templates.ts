import type { VehicleCategory } from '@dealer/contracts/car';
import { remoteNames } from '@dealer/contracts/remotes';
import type { NavLink, SiteConfig, SiteFeatures, SiteTemplate } from '@dealer/contracts/site';

/**
 * What each kind of dealer site starts with (issue 24 onboarding): the stock it sells, where search
 * and car pages live, the filters shoppers get, the switches that suit it and the remotes it runs.
 * A dealer changes any of it later in the console.
 */
export type SiteTemplateDefaults = {
  /** The operator's words for it, in the console's "New site" form. */
  label: string;
  /** What it sells, for the default search engines' title ("Used Cars in Sydney"). */
  noun: string;
  vehicle_category: VehicleCategory;
  default_search_path: string;
  detail_path: SiteConfig['detail_path'];
  finance_path: string;
  default_sort: string;
  search_facets: SiteConfig['search_facets'];
  search_filters: string[];
  stock_filter_code?: number;
  search_categories: SiteConfig['search_categories'];
  garage_enabled: boolean;
  offers_subscription: boolean;
  features: Partial<SiteFeatures>;
  /** Remotes a site of this kind does not run (a rental or subscription site takes no deposits). */
  remotesOff: (typeof remoteNames)[number][];
};

export const carFacets: SiteConfig['search_facets'] = [
  'make',
  'model',
  'car_type',
  'price',
  'km',
  'year',
  'body',
  'fuel',
  'transmission',
  'drive',
  'colour',
  'location_name',
];

export const bodySearchCategories: SiteConfig['search_categories'] = [
  { label: 'Ute', path: '/search/ute' },
  { label: 'Sedan', path: '/search/sedan' },
  { label: 'SUV', path: '/search/suv' },
  { label: 'Hatch', path: '/search/hatch' },
  { label: '4x4', path: '/search/4x4' },
];

const common = {
  detail_path: '/cars',
  finance_path: '/finance',
  default_sort: 'custom_rank:desc',
  search_filters: [],
  search_categories: [],
  garage_enabled: true,
  offers_subscription: false,
  features: {},
  remotesOff: [],
} satisfies Partial<SiteTemplateDefaults>;

export const siteTemplateDefaults: Record<SiteTemplate, SiteTemplateDefaults> = {
  'dealer-group': {
    ...common,
    label: 'New, used and demo cars (a dealer or a group)',
    noun: 'New, Used & Demo Cars',
    vehicle_category: 'car',
    default_search_path: '/search/new-used-and-demo-cars',
    search_facets: carFacets,
    search_categories: bodySearchCategories,
  },
  'used-cars': {
    ...common,
    label: 'Used cars',
    noun: 'Used Cars',
    vehicle_category: 'car',
    default_search_path: '/search/used-cars',
    search_facets: carFacets.filter((facet) => facet !== 'car_type'),
    search_filters: ['car_type = used'],
    stock_filter_code: 1,
    search_categories: bodySearchCategories,
    garage_enabled: false,
  },
  trucks: {
    ...common,
    label: 'Trucks',
    noun: 'New, Used & Demo Trucks',
    vehicle_category: 'truck',
    default_search_path: '/search/new-used-and-demo-trucks',
    search_facets: ['make', 'model', 'car_type', 'price', 'km', 'year', 'body', 'fuel', 'transmission', 'drive', 'location_name'],
  },
  motorcycles: {
    ...common,
    label: 'Motorcycles',
    noun: 'New & Used Motorcycles',
    vehicle_category: 'motorcycle',
    default_search_path: '/search/new-and-used-motorcycles',
    detail_path: '/motorcycles',
    search_facets: ['make', 'model', 'car_type', 'price', 'km', 'year', 'body', 'colour', 'location_name'],
  },
  campers: {
    ...common,
    label: 'Caravans, campers and motorhomes',
    noun: 'Caravans, Campers & Motorhomes',
    vehicle_category: 'camper',
    default_search_path: '/search/new-and-used-campers',
    detail_path: '/campers',
    search_facets: ['make', 'model', 'car_type', 'price', 'year', 'body', 'seats', 'drive', 'location_name'],
    garage_enabled: false,
    // The loading animations cover cars, bikes and trucks only.
    features: { plain_spinner: true },
  },
  'subscription-cars': {
    ...common,
    label: 'Car subscriptions',
    noun: 'Car Subscriptions',
    vehicle_category: 'subscription',
    default_search_path: '/search/subscription-cars',
    search_facets: [
      'make',
      'model',
      'subscription_price',
      'weekly_price_range',
      'body',
      'fuel',
      'transmission',
      'seats',
      'colour',
      'location_name',
    ],
    garage_enabled: false,
    offers_subscription: true,
    features: { plain_spinner: true },
    remotesOff: ['mf-checkout'],
  },
  'rental-cars': {
    ...common,
    label: 'Car rental',
    noun: 'Car Hire',
    vehicle_category: 'rental',
    default_search_path: '/search/rental-cars',
    default_sort: 'price:asc',
    search_facets: ['make', 'model', 'price', 'body', 'fuel', 'transmission', 'seats', 'city'],
    garage_enabled: false,
    features: { plain_spinner: true },
    remotesOff: ['mf-checkout'],
  },
  'toyota-pre-owned': {
    ...common,
    label: 'A brand’s certified pre-owned',
    noun: 'Certified Pre-Owned',
    vehicle_category: 'car',
    default_search_path: '/pre-owned',
    search_facets: [
      'model',
      'badge',
      'car_type',
      'price',
      'km',
      'year',
      'body',
      'fuel',
      'transmission',
      'colour',
      'certified',
      'location_name',
    ],
    // The pre-owned programme lists used and demo stock, never new cars.
    stock_filter_code: 4,
    features: { pre_owned_redirect: true },
  },
};

/** Every switch off but the postcode question: what a site has before its template and dealer change any. */
export const defaultFeatures: SiteFeatures = {
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
  show_postcode: true,
};

/** A configured path without a leading slash is a search slug; the app prefixes it the same way. */
export const searchHref = (path: string): string => (path.startsWith('/') ? path : `/search/${path}`);

type MenuSite = Pick<SiteConfig, 'default_search_path' | 'finance_path' | 'manufacturer'> & { features: Partial<SiteFeatures> };

/** SPEC §2 default links: Search Vehicles, Test Drive, Service, Finance, Trade In, Parts, Contact. */
export function defaultHeader(site: MenuSite): NavLink[] {
  return [
    { label: 'Search Vehicles', to: searchHref(site.default_search_path) },
    { label: 'Test Drive', to: '/book-test-drive/' },
    // A site serving its CMS pages under /pages/ links the service booking there (SPEC §2 /pages/book-a-service).
    { label: 'Service', to: site.features.uses_pages_path ? '/pages/book-a-service' : '/service' },
    { label: 'Finance', to: site.finance_path },
    { label: 'Trade In', to: '/trade-in' },
    { label: 'Parts', to: '/vehicle-parts-and-accessories' },
    { label: 'Contact', to: '/contact' },
    // A manufacturer's dealer site carries the brand's news.
    ...(site.manufacturer ? [{ label: 'Latest News', to: '/blog' }] : []),
  ];
}

export function defaultFooter(site: MenuSite): NavLink[] {
  return [
    { label: 'Search Vehicles', to: searchHref(site.default_search_path) },
    { label: 'Privacy Policy', to: '/privacy-policy/' },
    { label: 'Terms & Conditions', to: '/terms-and-conditions/' },
    // The CMS's own address for the about page: the link rule strips /pages/ from it (SPEC §2).
    ...(site.features.uses_pages_path ? [{ label: 'About Us', to: '/pages/about-us' }] : []),
  ];
}
