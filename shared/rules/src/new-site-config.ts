import type { Location } from '@dealer/contracts/location';
import type { NewSite } from '@dealer/contracts/new-site';
import { remoteNames } from '@dealer/contracts/remotes';
import type { Branding, SiteConfig, SiteLocale } from '@dealer/contracts/site';
import { defaultOpeningHours } from './opening-hours';
import { defaultFeatures, defaultFooter, defaultHeader, siteTemplateDefaults } from './site-templates';
import { drawnLogoPath } from './wordmark';

/**
 * A new dealer site's whole config from what the operator gave (`NewSite`) and its template: the
 * one path by which every site is made, by the console, the CLI and the demo seed alike
 * (issue 24). Pure; the store assigns the id.
 *
 * `additions` carry what an import or the demo knows beyond the form (a location's licence and
 * reviews, the dealerships of a group, settings the template would otherwise choose); they are laid
 * over the template's choices, and the menus are then drawn from the result unless given.
 */
export type SiteAdditions = {
  settings?: Partial<Omit<SiteConfig, 'id' | 'slug' | 'locations' | 'dealerships'>>;
  /** Per location, in the order given: fields that replace the built ones. */
  locationDetails?: readonly (Partial<Location> | undefined)[];
  dealerships?: SiteConfig['dealerships'];
};

export const defaultBranding: Branding = {
  primary: '#1f4e79',
  primaryContrast: '#ffffff',
  accent: '#f2a900',
  surface: '#f7f8fa',
  text: '#1a1a1a',
  radius: '6px',
};

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

/** 'Harbour Used Cars' → 'harbour-used-cars'. */
export const kebab = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** The address line as the site shows it, in the country's order. */
export function addressLine(
  locale: SiteLocale,
  { street, city, state, postcode }: Pick<Location['address'], 'street' | 'city' | 'state' | 'postcode'>,
) {
  if (locale === 'en-US') return `${street}, ${city}, ${state} ${postcode}`;
  if (locale === 'en-NZ') return `${street}, ${city} ${postcode}`;
  return `${street}, ${city} ${state} ${postcode}`;
}

/** Where the ids of a site's dealerships and locations start: the site's own block, so they never collide. */
export const dealershipIdOf = (siteId: number, index: number) => siteId * 100 + index + 1;
export const locationIdOf = (siteId: number, index: number) => siteId * 1000 + index + 1;

const groupingsOf = (type: Location['location_type'], primary: boolean): Location['groupings'] => {
  const base: Location['groupings'] = type === 'sales' ? ['sales'] : [type, 'service-and-parts'];
  return primary ? ['primary', ...base] : base;
};

function newLocation(siteId: number, site: NewSite, index: number, dealershipId: number): Location {
  const given = site.locations[index]!;
  const { lat, long } = given.address;
  return {
    id: locationIdOf(siteId, index),
    dealership_id: dealershipId,
    name: given.name,
    slug: kebab(given.name),
    location_type: given.type,
    groupings: groupingsOf(given.type, index === 0),
    dealer_license_number: null,
    motor_vehicle_repairer: null,
    primary: index === 0,
    visible: true,
    manufacturers: site.manufacturer ? [site.manufacturer] : [],
    contact_detail: {
      phone: given.phone,
      landline_phone: given.phone,
      mobile: null,
      email: given.email,
      social: {},
      opening_hours: given.opening_hours ?? defaultOpeningHours(given.type),
    },
    address: {
      street: given.address.street,
      city: given.address.city,
      state: given.address.state,
      postcode: given.address.postcode,
      lat,
      long,
      place_id: null,
      place_url: null,
      full: addressLine(site.locale, given.address),
      map_key: null,
      map_url: `https://www.google.com/maps/search/?api=1&query=${lat},${long}`,
    },
    reviews: { count: 0, average_rating: 0 },
    image: null,
    external_identifiers: [],
  };
}

const noThirdParty: SiteConfig['third_party'] = {
  google_site_verification: null,
  google_analytics_id: null,
  facebook_pixel: null,
  livechat_agent_group: null,
  livechat_license: null,
  podium_api_organization: null,
  impel_chatbot_key: null,
  zendesk_key: null,
  youx_provider_code: null,
  xtime_url: null,
  autobot: null,
  dealercell: null,
};

export function newSiteConfig(id: number, site: NewSite, origin: (slug: string) => string, additions: SiteAdditions = {}): SiteConfig {
  const template = siteTemplateDefaults[site.template];
  const dealerships = additions.dealerships ?? [
    { id: dealershipIdOf(id, 0), slug: site.slug, name: site.name, stripe_publishable_key: null },
  ];
  const firstDealership = dealerships[0]!;
  const locations = site.locations.map((_, index) => ({
    ...newLocation(id, site, index, firstDealership.id),
    ...additions.locationDetails?.[index],
  }));
  const primary = locations.find((location) => location.primary) ?? locations[0]!;
  const primaryDealership = dealerships.find((dealership) => dealership.id === primary.dealership_id) ?? firstDealership;
  const settings = additions.settings ?? {};
  const garage = settings.garage_enabled ?? template.garage_enabled;
  const city = primary.address.city;

  const config: SiteConfig = {
    id,
    template: site.template,
    name: site.name,
    slug: site.slug,
    url: site.domain_name ? `https://${site.domain_name}` : origin(site.slug),
    domain_name: site.domain_name,
    locale: site.locale,
    vehicle_category: template.vehicle_category,
    dealership_id: primaryDealership.id,
    dealership_group: site.dealership_group,
    manufacturer_id: null,
    manufacturer: site.manufacturer,
    city,
    state: primary.address.state,
    override_city: null,
    address: { city, state: primary.address.state },
    phone: primary.contact_detail.phone,
    locations,
    dealerships,
    payment_provider: null,
    finance_provider: null,
    logo: { url: drawnLogoPath(site.slug), thumb: drawnLogoPath(site.slug), banner: null },
    branding: { ...defaultBranding, ...site.branding },
    garage_enabled: garage,
    garage_path: '/my-garage',
    offers_subscription: template.offers_subscription,
    include_sold_cars_days: 3,
    specifications: { just_arrived_days: 8, just_arrived_tag_name: 'Just Arrived', sold_tag_name: null },
    search_categories: template.search_categories,
    default_search_path: template.default_search_path,
    detail_path: template.detail_path,
    finance_path: template.finance_path,
    search_filters: template.search_filters,
    ...(template.stock_filter_code !== undefined ? { stock_filter_code: template.stock_filter_code } : {}),
    search_facets: template.search_facets,
    default_sort: template.default_sort,
    promo_positions: [],
    dealership_websites: [],
    stock: { count: 0, makes: [], make_models: {}, car_types: { new: 0, used: 0, demo: 0 } },
    blogs: 0,
    offers: 0,
    navigation: { header: [], footer: [] },
    features: { ...defaultFeatures, ...template.features },
    third_party: noThirdParty,
    secrets: { podium_api_token: null, stripe_secret_key: null, stripe_webhook_secret: null, lead_webhook_secret: null },
    remotes: remoteNames.map((name) => ({
      name,
      enabled: !template.remotesOff.includes(name) && !(name === 'mf-garage' && !garage),
      version: null,
    })),
    // Within the lengths the settings screen takes (and search engines show): 70 and 160 characters.
    seo: {
      title: clip(`${site.name} | ${template.noun} in ${city}`, 70),
      description: clip(`${template.noun} from ${site.name} at ${locations.map((location) => location.name).join(', ')}.`, 160),
    },
    ...settings,
  };
  return settings.navigation ? config : { ...config, navigation: { header: defaultHeader(config), footer: defaultFooter(config) } };
}
