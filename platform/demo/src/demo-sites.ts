import type { Car, VehicleCategory } from '@dealer/contracts/car';
import type { Location } from '@dealer/contracts/location';
import { remoteNames } from '@dealer/contracts/remotes';
import type { NewSite } from '@dealer/contracts/new-site';
import type { Branding, LeadSettings, NavLink, SiteConfig, SiteFeatures, SiteLocale, SiteTemplate } from '@dealer/contracts/site';
import { newSiteConfig } from '@dealer/rules/new-site-config';
import { bodySearchCategories, carFacets, defaultFeatures, siteTemplateDefaults } from '@dealer/rules/site-templates';
import type { Dealership } from './dealership';

export const demoSiteSlugs = [
  'metro-motor-group',
  'harbour-used-cars',
  'ridgeline-trucks',
  'coastal-motorcycles',
  'outback-campers',
  'flexi-subscriptions',
  'citi-rentals',
  'toyota-demo',
  'kiwi-motors',
  'lone-star-auto',
] as const;
export type DemoSiteSlug = (typeof demoSiteSlugs)[number];
type RemoteName = (typeof remoteNames)[number];

/** What the location and stock generators need to know about a site before its config exists. */
export type SiteIdentity = {
  id: number;
  slug: DemoSiteSlug;
  name: string;
  template: SiteTemplate;
  locale: SiteLocale;
  vehicle_category: VehicleCategory;
  domain_name: string | null;
  /** Takes card deposits: the checkout remote is on and a payment provider is set. */
  online_payments: boolean;
  /** Takes them on coming-soon cars too (`features.reserve_coming_soon`). */
  reserve_coming_soon: boolean;
};

type Blueprint = Omit<SiteIdentity, 'online_payments' | 'reserve_coming_soon'> & {
  dealership_group: string | null;
  manufacturer: string | null;
  manufacturer_id: number | null;
  override_city: string | null;
  payment_provider: string | null;
  finance_provider: string | null;
  default_search_path: string;
  detail_path: SiteConfig['detail_path'];
  finance_path: string;
  default_sort: string;
  search_facets: SiteConfig['search_facets'];
  search_filters: string[];
  /** SPEC §9 stock search filter code (see @dealer/server search/stock-filters.ts); absent: none. */
  stock_filter_code?: number;
  search_categories: SiteConfig['search_categories'];
  promo_positions: number[];
  garage_enabled: boolean;
  garage_path: string;
  offers_subscription: boolean;
  sold_tag_name: string | null;
  branding: Branding;
  seo: SiteConfig['seo'];
  blogs: number;
  offers: number;
  features: Partial<SiteFeatures>;
  /** SPEC §3 lead assembly and §5 opt_in settings of the site; absent: the defaults. */
  lead_settings?: LeadSettings;
  /** Whether the site has its analytics, chat and booking integrations set up. */
  integrations: 'full' | 'analytics' | 'none';
  /** Asks the shopper's consent before third-party tags load. */
  consent_banner?: boolean;
  /** A chat provider's ids on a site without the full integrations (each provider runs on one demo site). */
  chat_ids?: Partial<Pick<SiteConfig['third_party'], 'zendesk_key' | 'impel_chatbot_key'>>;
  disabledRemotes: RemoteName[];
};

const blueprints: readonly Blueprint[] = [
  {
    id: 1,
    slug: 'metro-motor-group',
    name: 'Metro Motor Group',
    template: 'dealer-group',
    locale: 'en-AU',
    vehicle_category: 'car',
    domain_name: 'www.metromotorgroup.com.au',
    dealership_group: 'Metro Motor Group',
    manufacturer: null,
    manufacturer_id: null,
    override_city: 'Sydney',
    payment_provider: 'stripe',
    finance_provider: null,
    default_search_path: '/search/new-used-and-demo-cars',
    detail_path: '/cars',
    finance_path: '/finance',
    default_sort: 'custom_rank:desc',
    search_facets: [...carFacets, 'tag', 'categories', 'filtered_features', 'seats', 'certified', 'state'],
    search_filters: [],
    search_categories: bodySearchCategories,
    promo_positions: [5, 10],
    garage_enabled: true,
    garage_path: '/my-garage',
    offers_subscription: false,
    sold_tag_name: null,
    branding: { primary: '#0b3d91', primaryContrast: '#ffffff', accent: '#f5a623', surface: '#f4f6fa', text: '#1a1a2e', radius: '8px' },
    seo: {
      title: 'Metro Motor Group | New, Used & Demo Cars in Sydney and Melbourne',
      description:
        'Browse over 1,100 new, used and demo cars from 14 brands across 25 Metro Motor Group locations in Sydney and Melbourne.',
    },
    blogs: 1357,
    offers: 42,
    features: { redbook: true, authentication: true, stock_on_homepage: true, fuel_tags: true },
    // The group's leads go to its primary location (SPEC §3 primary-location push).
    lead_settings: { push_to_primary_location: true },
    integrations: 'full',
    disabledRemotes: [],
  },
  {
    id: 2,
    slug: 'harbour-used-cars',
    name: 'Harbour Used Cars',
    template: 'used-cars',
    locale: 'en-AU',
    vehicle_category: 'car',
    domain_name: 'www.harbourusedcars.com.au',
    dealership_group: null,
    manufacturer: null,
    manufacturer_id: null,
    override_city: null,
    payment_provider: 'stripe',
    finance_provider: 'Angle',
    // Deliberately without the /search/ prefix: the app must add it (SPEC §2).
    default_search_path: 'used-cars',
    detail_path: '/cars',
    finance_path: '/finance-enquiry',
    default_sort: 'created_at_timestamp:desc',
    search_facets: carFacets.filter((facet) => facet !== 'car_type'),
    search_filters: ['car_type = used'],
    stock_filter_code: 1,
    search_categories: bodySearchCategories,
    promo_positions: [],
    garage_enabled: false,
    garage_path: '/my-garage',
    offers_subscription: false,
    sold_tag_name: 'SOLD',
    branding: { primary: '#006d77', primaryContrast: '#ffffff', accent: '#e29578', surface: '#fdfcfb', text: '#1d2d35', radius: '4px' },
    seo: {
      title: 'Harbour Used Cars | Quality Used Cars in Sydney',
      description: 'Hand-picked used cars in Rozelle and Mona Vale, every one inspected and ready to drive away.',
    },
    blogs: 24,
    offers: 3,
    features: { mobile_only_phone: true, plain_spinner: true },
    // The one site whose sell-your-car answers go to the dealer as Yes/No (SPEC §3).
    // This dealer takes a call-back request without a message.
    lead_settings: { yes_no_fields: true, comments_optional: true },
    integrations: 'analytics',
    chat_ids: { impel_chatbot_key: 'impel-demo-harbour-used-cars' },
    disabledRemotes: [],
  },
  {
    id: 3,
    slug: 'ridgeline-trucks',
    name: 'Ridgeline Trucks',
    template: 'trucks',
    locale: 'en-AU',
    vehicle_category: 'truck',
    domain_name: 'www.ridgelinetrucks.com.au',
    dealership_group: null,
    manufacturer: null,
    manufacturer_id: null,
    override_city: 'Brisbane',
    payment_provider: 'stripe',
    finance_provider: null,
    default_search_path: '/search/new-used-and-demo-trucks',
    detail_path: '/cars',
    finance_path: '/finance',
    default_sort: 'custom_rank:desc',
    search_facets: siteTemplateDefaults['trucks'].search_facets,
    search_filters: [],
    search_categories: [],
    promo_positions: [],
    garage_enabled: true,
    // A brand garage route (SPEC §2), so the override path is exercised.
    garage_path: '/mybigboxcars',
    offers_subscription: false,
    sold_tag_name: null,
    branding: { primary: '#c1121f', primaryContrast: '#ffffff', accent: '#fdf0d5', surface: '#f8f9fa', text: '#1b1b1b', radius: '2px' },
    seo: {
      title: 'Ridgeline Trucks | New, Used & Demo Trucks in Brisbane',
      description: 'Light, medium and heavy trucks from Isuzu, Hino, Fuso, UD, Kenworth and more at Wacol and Eagle Farm.',
    },
    blogs: 61,
    offers: 5,
    // Sells to operators on both sides of the Tasman: New Zealand numbers are taken too (SPEC §5 AU+NZ rule).
    features: { dealerstudio: true, au_nz_phone: true },
    integrations: 'analytics',
    disabledRemotes: [],
  },
  {
    id: 4,
    slug: 'coastal-motorcycles',
    name: 'Coastal Motorcycles',
    template: 'motorcycles',
    locale: 'en-AU',
    vehicle_category: 'motorcycle',
    domain_name: 'www.coastalmotorcycles.com.au',
    dealership_group: null,
    manufacturer: null,
    manufacturer_id: null,
    override_city: 'Gold Coast',
    payment_provider: 'stripe',
    finance_provider: null,
    default_search_path: '/search/new-and-used-motorcycles',
    detail_path: '/motorcycles',
    finance_path: '/finance',
    default_sort: 'custom_rank:desc',
    search_facets: siteTemplateDefaults['motorcycles'].search_facets,
    search_filters: [],
    search_categories: [],
    promo_positions: [],
    garage_enabled: true,
    garage_path: '/my-garage',
    offers_subscription: false,
    sold_tag_name: null,
    branding: { primary: '#ff6b00', primaryContrast: '#111111', accent: '#00a6fb', surface: '#ffffff', text: '#121212', radius: '12px' },
    seo: {
      title: 'Coastal Motorcycles | New & Used Motorcycles on the Gold Coast',
      description: 'Road, adventure, cruiser and dirt bikes from the big names, in Southport and Nerang.',
    },
    blogs: 88,
    offers: 7,
    features: { plain_spinner: false, show_postcode: true, uses_pages_path: true },
    integrations: 'analytics',
    disabledRemotes: [],
  },
  {
    id: 5,
    slug: 'outback-campers',
    name: 'Outback Campers',
    template: 'campers',
    locale: 'en-AU',
    vehicle_category: 'camper',
    domain_name: 'www.outbackcampers.com.au',
    dealership_group: null,
    manufacturer: null,
    manufacturer_id: null,
    override_city: 'Perth',
    payment_provider: 'stripe',
    finance_provider: null,
    default_search_path: '/search/new-and-used-campers',
    detail_path: '/campers',
    finance_path: '/finance',
    default_sort: 'custom_rank:desc',
    search_facets: siteTemplateDefaults['campers'].search_facets,
    search_filters: [],
    search_categories: [],
    promo_positions: [],
    garage_enabled: false,
    garage_path: '/my-garage',
    offers_subscription: false,
    sold_tag_name: null,
    branding: { primary: '#a0522d', primaryContrast: '#ffffff', accent: '#d4a373', surface: '#fefae0', text: '#283618', radius: '10px' },
    seo: {
      title: 'Outback Campers | Caravans, Campers & Motorhomes in Perth',
      description: 'New and used caravans, pop tops, camper trailers and motorhomes in Wangara and Bibra Lake.',
    },
    blogs: 45,
    offers: 4,
    // The loading animations cover cars, bikes and trucks only, so campers get the plain spinner.
    // Campers sell before they land: this dealer takes deposits on coming-soon ones too (SPEC §9).
    features: { plain_spinner: true, reserve_coming_soon: true },
    integrations: 'none',
    disabledRemotes: [],
  },
  {
    id: 6,
    slug: 'flexi-subscriptions',
    name: 'Flexi Subscriptions',
    template: 'subscription-cars',
    locale: 'en-AU',
    vehicle_category: 'subscription',
    domain_name: null,
    dealership_group: null,
    manufacturer: null,
    manufacturer_id: null,
    override_city: 'Melbourne',
    payment_provider: null,
    finance_provider: null,
    default_search_path: '/search/subscription-cars',
    detail_path: '/cars',
    finance_path: '/finance',
    default_sort: 'custom_rank:desc',
    search_facets: siteTemplateDefaults['subscription-cars'].search_facets,
    search_filters: [],
    search_categories: [],
    promo_positions: [],
    garage_enabled: false,
    garage_path: '/my-garage',
    offers_subscription: true,
    sold_tag_name: null,
    branding: { primary: '#6c2bd9', primaryContrast: '#ffffff', accent: '#22c55e', surface: '#faf5ff', text: '#1e1b4b', radius: '16px' },
    seo: {
      title: 'Flexi Subscriptions | Car Subscriptions in Melbourne',
      description: 'One weekly price covering rego, insurance, servicing and roadside. Swap or cancel any time.',
    },
    blogs: 12,
    offers: 2,
    features: { plain_spinner: true, split_testing: true },
    // Spam Act consent: opt_in starts unticked and the wording the shopper saw is kept with the lead.
    lead_settings: {
      opt_in_default: false,
      consent_wording: 'I agree to Flexi Subscriptions contacting me about offers and news. I can unsubscribe at any time.',
    },
    integrations: 'analytics',
    disabledRemotes: ['mf-checkout'],
  },
  {
    id: 7,
    slug: 'citi-rentals',
    name: 'Citi Rentals',
    template: 'rental-cars',
    locale: 'en-AU',
    vehicle_category: 'rental',
    domain_name: null,
    dealership_group: null,
    manufacturer: null,
    manufacturer_id: null,
    override_city: null,
    payment_provider: null,
    finance_provider: null,
    default_search_path: '/search/rental-cars',
    detail_path: '/cars',
    finance_path: '/finance',
    default_sort: 'price:asc',
    search_facets: siteTemplateDefaults['rental-cars'].search_facets,
    search_filters: [],
    search_categories: [],
    promo_positions: [],
    garage_enabled: false,
    garage_path: '/my-garage',
    offers_subscription: false,
    sold_tag_name: null,
    branding: { primary: '#e11d48', primaryContrast: '#ffffff', accent: '#0ea5e9', surface: '#f8fafc', text: '#0f172a', radius: '6px' },
    seo: {
      title: 'Citi Rentals | Car Hire in Adelaide',
      description: 'Daily car hire from Adelaide city and Adelaide Airport, from small hatches to 8-seat people movers.',
    },
    blogs: 0,
    offers: 1,
    features: { plain_spinner: true, mobile_only_phone: true },
    integrations: 'none',
    disabledRemotes: ['mf-checkout'],
  },
  {
    id: 8,
    slug: 'toyota-demo',
    name: 'Demo Toyota',
    template: 'toyota-pre-owned',
    locale: 'en-AU',
    vehicle_category: 'car',
    domain_name: 'www.demotoyota.com.au',
    dealership_group: null,
    manufacturer: 'Toyota',
    manufacturer_id: 1,
    override_city: null,
    payment_provider: 'stripe',
    finance_provider: 'Toyota Finance',
    default_search_path: '/pre-owned',
    detail_path: '/cars',
    finance_path: '/finance',
    default_sort: 'custom_rank:desc',
    search_facets: siteTemplateDefaults['toyota-pre-owned'].search_facets,
    search_filters: [],
    // The Toyota pre-owned programme lists used and demo stock, never new cars.
    stock_filter_code: 4,
    search_categories: [],
    promo_positions: [],
    garage_enabled: true,
    garage_path: '/my-garage',
    offers_subscription: false,
    sold_tag_name: null,
    branding: { primary: '#eb0a1e', primaryContrast: '#ffffff', accent: '#58595b', surface: '#ffffff', text: '#000000', radius: '0px' },
    seo: {
      title: 'Demo Toyota | Toyota Certified Pre-Owned in Homebush',
      description: 'Toyota Certified Pre-Owned and demonstrator vehicles with a 200-point check, at Demo Toyota Homebush.',
    },
    blogs: 130,
    offers: 11,
    features: {
      pre_owned_redirect: true,
      authentication: true,
      dealerstudio: true,
      hide_chat_on_stock_pages: true,
      blog_to_news: true,
      chat_provider: 'livechat',
    },
    // Every lead of the site goes to one fixed dealership slug (SPEC §3 forced slug).
    lead_settings: { forced_dealership_slug: 'toyota-pre-owned-central', strip_service_suffix: true },
    integrations: 'full',
    disabledRemotes: [],
  },
  {
    id: 9,
    slug: 'kiwi-motors',
    name: 'Kiwi Motors',
    template: 'dealer-group',
    locale: 'en-NZ',
    vehicle_category: 'car',
    domain_name: 'www.kiwimotors.co.nz',
    dealership_group: null,
    manufacturer: null,
    manufacturer_id: null,
    override_city: null,
    payment_provider: 'stripe',
    finance_provider: null,
    default_search_path: '/search/new-used-and-demo-cars',
    detail_path: '/cars',
    finance_path: '/finance',
    default_sort: 'custom_rank:desc',
    search_facets: carFacets,
    search_filters: [],
    search_categories: bodySearchCategories,
    promo_positions: [],
    garage_enabled: true,
    garage_path: '/my-garage',
    offers_subscription: false,
    sold_tag_name: null,
    branding: { primary: '#1b4332', primaryContrast: '#ffffff', accent: '#95d5b2', surface: '#f1faee', text: '#081c15', radius: '8px' },
    seo: {
      title: 'Kiwi Motors | New, Used & Demo Cars in Auckland and Wellington',
      description: 'New, used and demo cars at Penrose, North Shore and Wellington.',
    },
    blogs: 57,
    offers: 6,
    features: { authentication: true, show_postcode: true },
    integrations: 'analytics',
    // New Zealand's privacy principles: this dealer asks before any tracking tag loads.
    consent_banner: true,
    chat_ids: { zendesk_key: 'zendesk-demo-kiwi-motors' },
    disabledRemotes: [],
  },
  {
    id: 10,
    slug: 'lone-star-auto',
    name: 'Lone Star Auto',
    template: 'used-cars',
    locale: 'en-US',
    vehicle_category: 'car',
    domain_name: 'www.lonestarauto.com',
    dealership_group: null,
    manufacturer: null,
    manufacturer_id: null,
    override_city: null,
    payment_provider: 'stripe',
    finance_provider: null,
    default_search_path: '/search/used-cars',
    detail_path: '/cars',
    finance_path: '/apply-for-finance',
    default_sort: 'custom_rank:desc',
    search_facets: carFacets.filter((facet) => facet !== 'car_type'),
    search_filters: [],
    search_categories: [],
    promo_positions: [],
    garage_enabled: false,
    garage_path: '/my-garage',
    offers_subscription: false,
    sold_tag_name: null,
    branding: { primary: '#002868', primaryContrast: '#ffffff', accent: '#bf0a30', surface: '#ffffff', text: '#0b132b', radius: '4px' },
    seo: {
      title: 'Lone Star Auto | Used Cars, Trucks & SUVs in Austin, TX',
      description: 'Pre-owned trucks, SUVs and sedans in Austin and Round Rock, Texas.',
    },
    blogs: 9,
    offers: 2,
    // US zip codes are five digits, so the four-digit postcode field stays hidden.
    features: { show_postcode: false },
    integrations: 'analytics',
    disabledRemotes: ['mf-chat'],
  },
];

const remoteEnabled = (blueprint: Blueprint, name: RemoteName): boolean => {
  if (name === 'mf-garage' && !blueprint.garage_enabled) return false;
  return !blueprint.disabledRemotes.includes(name);
};

export const siteIdentities: readonly SiteIdentity[] = blueprints.map((blueprint) => ({
  id: blueprint.id,
  slug: blueprint.slug,
  name: blueprint.name,
  template: blueprint.template,
  locale: blueprint.locale,
  vehicle_category: blueprint.vehicle_category,
  domain_name: blueprint.domain_name,
  online_payments: blueprint.payment_provider !== null && remoteEnabled(blueprint, 'mf-checkout'),
  reserve_coming_soon: blueprint.features.reserve_coming_soon === true,
}));

const blueprintOf = (slug: DemoSiteSlug): Blueprint => {
  const found = blueprints.find((blueprint) => blueprint.slug === slug);
  if (!found) throw new Error(`no blueprint for ${slug}`);
  return found;
};

/** SPEC §2 "Embedded header navigation", in the SPEC's order. */
function groupHeader(blueprint: Blueprint): NavLink[] {
  return [
    { label: 'Home', to: '/' },
    { label: 'Our Stock', to: '/cars/', dynamic: 'stock' },
    { label: 'Electric Cars', to: '/electric-cars' },
    { label: 'Special Offers', to: '/special-offers' },
    { label: 'Service', to: '/service' },
    { label: 'Parts & Accessories', to: '/vehicle-parts-and-accessories' },
    { label: 'Sell Your Car', to: '/sell-your-car' },
    { label: 'Finance', to: blueprint.finance_path },
    { label: 'Latest News', to: '/blog' },
    { label: 'Fleet Service', to: '/fleet-service' },
    { label: 'Dealerships', to: '/dealerships' },
    { label: 'About', to: '/about' },
    { label: 'Our Team', to: '/teams' },
    { label: 'Contact', to: '/contact' },
    { label: 'Terms & Conditions', to: '/terms-and-conditions/' },
    { label: 'Careers', to: '/careers' },
    { label: 'Brands', to: '/dealerships', dynamic: 'brands' },
  ];
}

/** SPEC §2 "Embedded footer navigation": the search pages, test drive, privacy, unsubscribe and body categories. */
function groupFooter(blueprint: Blueprint): NavLink[] {
  return [
    { label: 'New, Used & Demo Cars', to: '/search/new-used-and-demo-cars' },
    { label: 'Used Cars', to: '/search/used-cars' },
    { label: 'Book a Test Drive', to: '/book-test-drive' },
    { label: 'Privacy Policy', to: '/privacy-policy/' },
    { label: 'Unsubscribe', to: '/unsubscribe' },
    ...blueprint.search_categories.map((category) => ({ label: category.label, to: category.path })),
  ];
}

function thirdParty(blueprint: Blueprint): SiteConfig['third_party'] {
  const tag = blueprint.slug.replace(/-/g, '').slice(0, 10).toUpperCase();
  const analytics = blueprint.integrations !== 'none';
  const full = blueprint.integrations === 'full';
  return {
    google_site_verification: analytics ? `gsv-demo-${blueprint.slug}` : null,
    google_analytics_id: analytics ? `G-DEMO${tag}` : null,
    facebook_pixel: analytics ? `1000000000${String(blueprint.id).padStart(5, '0')}` : null,
    livechat_agent_group: full ? `${blueprint.id}` : null,
    livechat_license: full ? `${19_000_000 + blueprint.id}` : null,
    podium_api_organization: full ? `podium-org-demo-${blueprint.slug}` : null,
    impel_chatbot_key: full ? `impel-demo-${blueprint.slug}` : (blueprint.chat_ids?.impel_chatbot_key ?? null),
    zendesk_key: full ? `zendesk-demo-${blueprint.slug}` : (blueprint.chat_ids?.zendesk_key ?? null),
    youx_provider_code: full ? `YOUX-DEMO-${blueprint.id}` : null,
    xtime_url: full ? `https://xtime.example.com/${blueprint.slug}` : null,
    autobot: full ? `autobot-demo-${blueprint.id}` : null,
    dealercell: null,
  };
}

/** Every value carries DEMO_SECRET so leak tests can grep bundles and responses for it. */
function secrets(blueprint: Blueprint, onlinePayments: boolean): SiteConfig['secrets'] {
  const slug = blueprint.slug;
  const chat = remoteEnabled(blueprint, 'mf-chat');
  return {
    podium_api_token: chat ? `podium_tok_live_DEMO_SECRET_${slug}` : null,
    stripe_secret_key: onlinePayments ? `sk_test_DEMO_SECRET_${slug}` : null,
    stripe_webhook_secret: onlinePayments ? `whsec_DEMO_SECRET_${slug}` : null,
    lead_webhook_secret: `lead_hook_DEMO_SECRET_${slug}`,
  };
}

/** Listed is what search shows as for sale: in stock or coming soon, and not hidden. */
export const isListed = (car: Pick<Car, 'status' | 'show_on_dealer_website'>): boolean =>
  car.show_on_dealer_website && (car.status === 'in_stock' || car.status === 'coming_soon');

function stockSummary(cars: readonly Car[]): SiteConfig['stock'] {
  const listed = cars.filter(isListed);
  const makeModels = new Map<string, number>();
  const carTypes: Record<string, number> = { new: 0, used: 0, demo: 0 };
  for (const car of listed) {
    const key = `${car.make}:${car.model}`;
    makeModels.set(key, (makeModels.get(key) ?? 0) + 1);
    carTypes[car.car_type] = (carTypes[car.car_type] ?? 0) + 1;
  }
  const sortedKeys = [...makeModels.keys()].sort();
  return {
    count: listed.length,
    makes: [...new Set(listed.map((car) => car.make))].sort(),
    make_models: Object.fromEntries(sortedKeys.map((key) => [key, makeModels.get(key) ?? 0])),
    car_types: carTypes,
  };
}

/**
 * A demo site, made the way every site is made (`newSiteConfig`, issue 24 onboarding): the form's
 * fields from the blueprint, with the demo's fuller data (generated locations, a group's
 * dealerships, the blueprint's own choices where they differ from its template) as additions.
 */
export function buildSiteConfig(
  identity: SiteIdentity,
  locations: Location[],
  dealerships: Dealership[],
  cars: readonly Car[],
): SiteConfig {
  const blueprint = blueprintOf(identity.slug);
  const isGroup = blueprint.slug === 'metro-motor-group';
  const { radius: _radius, ...colours } = blueprint.branding;
  const request: NewSite = {
    template: blueprint.template,
    name: blueprint.name,
    slug: blueprint.slug,
    locale: blueprint.locale,
    domain_name: blueprint.domain_name,
    dealership_group: blueprint.dealership_group,
    manufacturer: blueprint.manufacturer,
    branding: colours,
    locations: locations.map((location) => ({
      name: location.name,
      type: location.location_type,
      phone: location.contact_detail.phone,
      email: location.contact_detail.email,
      address: location.address,
      opening_hours: location.contact_detail.opening_hours,
    })),
  };
  return newSiteConfig(blueprint.id, request, (slug) => `http://${slug}.localhost:3000`, {
    dealerships,
    locationDetails: locations,
    settings: {
      vehicle_category: blueprint.vehicle_category,
      manufacturer_id: blueprint.manufacturer_id,
      override_city: blueprint.override_city,
      payment_provider: blueprint.payment_provider,
      finance_provider: blueprint.finance_provider,
      branding: blueprint.branding,
      garage_enabled: blueprint.garage_enabled,
      garage_path: blueprint.garage_path,
      offers_subscription: blueprint.offers_subscription,
      specifications: { just_arrived_days: 8, just_arrived_tag_name: 'Just Arrived', sold_tag_name: blueprint.sold_tag_name },
      search_categories: blueprint.search_categories,
      default_search_path: blueprint.default_search_path,
      detail_path: blueprint.detail_path,
      finance_path: blueprint.finance_path,
      search_filters: blueprint.search_filters,
      stock_filter_code: blueprint.stock_filter_code,
      search_facets: blueprint.search_facets,
      default_sort: blueprint.default_sort,
      promo_positions: blueprint.promo_positions,
      dealership_websites: isGroup
        ? dealerships.map((dealership) => ({ name: dealership.name, url: `https://${dealership.slug}.metromotorgroup.com.au` }))
        : [],
      stock: stockSummary(cars),
      blogs: blueprint.blogs,
      offers: blueprint.offers,
      ...(isGroup ? { navigation: { header: groupHeader(blueprint), footer: groupFooter(blueprint) } } : {}),
      features: { ...defaultFeatures, ...blueprint.features },
      ...(blueprint.lead_settings ? { lead_settings: blueprint.lead_settings } : {}),
      third_party: thirdParty(blueprint),
      ...(blueprint.consent_banner ? { consent_banner: true } : {}),
      secrets: secrets(blueprint, identity.online_payments),
      remotes: remoteNames.map((name) => ({ name, enabled: remoteEnabled(blueprint, name), version: null })),
      seo: blueprint.seo,
    },
  });
}
