import type { Car } from '@dealer/contracts/car';
import type { SiteLocale } from '@dealer/contracts/site';
import { isPriceShown } from './price';
import { currencyCode, t, type CurrencyCode } from './locale';
import { isSold } from './tags';

/**
 * schema.org structured data for search engines: the vehicle page's `Car` (with its `Offer` and
 * the selling `AutoDealer`), and the home page's `WebSite` and `AutoDealer`. Pure data; the
 * server serialises it into a `<script type="application/ld+json">`.
 */

const schema = 'https://schema.org';

/** The car fields the structured data is made of. */
export type JsonLdCar = Pick<
  Car,
  | 'name'
  | 'description'
  | 'make'
  | 'model'
  | 'year'
  | 'vin'
  | 'km'
  | 'price'
  | 'car_type'
  | 'status'
  | 'sold'
  | 'preorder'
  | 'simple_body'
  | 'simple_fuel'
  | 'simple_transmission'
  | 'simple_drive'
  | 'colour'
  | 'seats'
  | 'location_id'
  | 'location_name'
  | 'city'
  | 'state'
>;

/** A site location as far as an address card needs it (a full `Location` fits). */
export type JsonLdLocation = {
  id: number;
  name: string;
  primary?: boolean;
  location_type?: string;
  contact_detail: { phone: string };
  address: { street: string; city: string; state: string; postcode: string };
};

/** The site fields the structured data needs (a `SiteConfig` or `PublicSiteConfig` fits). */
export type JsonLdSite = { name: string; locale: SiteLocale; phone: string; locations: readonly JsonLdLocation[] };

export type PostalAddressLd = {
  '@type': 'PostalAddress';
  streetAddress?: string;
  addressLocality: string;
  addressRegion: string;
  postalCode?: string;
  addressCountry: Country;
};

export type AutoDealerLd = {
  '@type': 'AutoDealer';
  name: string;
  telephone: string;
  address: PostalAddressLd;
  url?: string;
  logo?: string;
};

export type Availability = 'https://schema.org/InStock' | 'https://schema.org/PreOrder' | 'https://schema.org/SoldOut';
export type ItemCondition = 'https://schema.org/NewCondition' | 'https://schema.org/UsedCondition';

export type OfferLd = {
  '@type': 'Offer';
  /** Left out when the site shows no price (SPEC §5: 10 or less is a placeholder). */
  price?: number;
  priceCurrency: CurrencyCode;
  availability: Availability;
  url: string;
  seller: AutoDealerLd;
};

export type VehicleJsonLd = {
  '@context': 'https://schema.org';
  '@type': 'Car';
  name: string;
  description?: string;
  url: string;
  image?: string;
  brand: { '@type': 'Brand'; name: string };
  model: string;
  vehicleModelDate: string;
  vehicleIdentificationNumber?: string;
  itemCondition: ItemCondition;
  bodyType?: string;
  fuelType?: string;
  vehicleTransmission?: string;
  driveWheelConfiguration?: string;
  color?: string;
  seatingCapacity?: number;
  mileageFromOdometer: { '@type': 'QuantitativeValue'; value: number; unitCode: 'KMT' | 'SMI' };
  offers: OfferLd;
};

type Country = 'AU' | 'NZ' | 'US';
const countries = { 'en-AU': 'AU', 'en-NZ': 'NZ', 'en-US': 'US' } as const satisfies Record<SiteLocale, Country>;

/** ISO 3166 country of a site: its locale is the only place the platform records it. */
export function siteCountry(locale: SiteLocale): Country {
  return countries[locale];
}

const kmPerMile = 1.609344;

/** The odometer as schema.org wants it: UN/CEFACT KMT (kilometres) or SMI (statute miles, en-US, rounded). */
export function odometer(km: number, locale: SiteLocale): VehicleJsonLd['mileageFromOdometer'] {
  return locale === 'en-US'
    ? { '@type': 'QuantitativeValue', value: Math.round(km / kmPerMile), unitCode: 'SMI' }
    : { '@type': 'QuantitativeValue', value: Math.round(km), unitCode: 'KMT' };
}

/** New stock is new; used and demo cars have been registered and driven, so both are used. */
export function itemCondition(carType: JsonLdCar['car_type']): ItemCondition {
  return carType === 'new' ? `${schema}/NewCondition` : `${schema}/UsedCondition`;
}

/** Sold (flag or status) wins; a coming-soon or preorder car can be ordered; the rest is in stock. */
export function availability(car: Pick<JsonLdCar, 'status' | 'sold' | 'preorder'>): Availability {
  if (isSold(car)) return `${schema}/SoldOut`;
  if (car.status === 'coming_soon' || car.preorder) return `${schema}/PreOrder`;
  return `${schema}/InStock`;
}

/** Feed drive values schema.org has a term for; the rest (4x2, 6x4, chain) stay as the feed's text. */
const driveTerms: Record<string, string> = {
  fwd: `${schema}/FrontWheelDriveConfiguration`,
  'front wheel drive': `${schema}/FrontWheelDriveConfiguration`,
  rwd: `${schema}/RearWheelDriveConfiguration`,
  'rear wheel drive': `${schema}/RearWheelDriveConfiguration`,
  awd: `${schema}/AllWheelDriveConfiguration`,
  'all wheel drive': `${schema}/AllWheelDriveConfiguration`,
  '4x4': `${schema}/FourWheelDriveConfiguration`,
  '4wd': `${schema}/FourWheelDriveConfiguration`,
  'four wheel drive': `${schema}/FourWheelDriveConfiguration`,
};

export function driveWheelConfiguration(drive: string): string | undefined {
  const text = drive.trim();
  if (!text) return undefined;
  return driveTerms[text.toLowerCase().replace(/-/g, ' ')] ?? text;
}

const text = (value: string | null | undefined): string | undefined => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
};

/** A postal address from a location, or from the car's city and state when its location is unknown. */
function postalAddress(location: JsonLdLocation | undefined, fallback: { city: string; state: string }, country: Country): PostalAddressLd {
  if (!location)
    return { '@type': 'PostalAddress', addressLocality: fallback.city, addressRegion: fallback.state, addressCountry: country };
  const { street, city, state, postcode } = location.address;
  return {
    '@type': 'PostalAddress',
    ...(text(street) ? { streetAddress: street.trim() } : {}),
    addressLocality: city,
    addressRegion: state,
    ...(text(postcode) ? { postalCode: postcode.trim() } : {}),
    addressCountry: country,
  };
}

/** The dealer that sells the car: the car's own location (name, phone, address), else the site's phone and the car's town. */
export function sellerJsonLd(car: Pick<JsonLdCar, 'location_id' | 'location_name' | 'city' | 'state'>, site: JsonLdSite): AutoDealerLd {
  const location = site.locations.find((entry) => entry.id === car.location_id);
  return {
    '@type': 'AutoDealer',
    name: text(car.location_name) ?? location?.name ?? site.name,
    telephone: text(location?.contact_detail.phone) ?? site.phone,
    address: postalAddress(location, car, siteCountry(site.locale)),
  };
}

/**
 * The vehicle page's schema.org `Car`. `url` is the page's canonical address and `imageUrl` the
 * absolute address of the primary photo (empty: no image). `now` is accepted so callers can pass
 * the page's instant, but nothing in the output depends on it today: a car outside the site's
 * sold window gets no page (and no structured data) at all, which the caller decides.
 * Wording follows the site's locale (en-US 'Gas' for 'Petrol'); numberOfDoors is not in the feed.
 */
export function vehicleJsonLd(car: JsonLdCar, site: JsonLdSite, opts: { url: string; imageUrl: string; now?: number }): VehicleJsonLd {
  const locale = site.locale;
  const optional = <K extends keyof VehicleJsonLd>(key: K, value: VehicleJsonLd[K] | undefined) =>
    value === undefined ? {} : { [key]: value };
  return {
    '@context': schema,
    '@type': 'Car',
    name: car.name,
    ...optional('description', text(car.description)),
    url: opts.url,
    ...optional('image', text(opts.imageUrl)),
    brand: { '@type': 'Brand', name: car.make },
    model: car.model,
    vehicleModelDate: String(car.year),
    ...optional('vehicleIdentificationNumber', text(car.vin)),
    itemCondition: itemCondition(car.car_type),
    ...optional('bodyType', text(car.simple_body)),
    ...optional('fuelType', text(car.simple_fuel) && t(locale, car.simple_fuel.trim())),
    ...optional('vehicleTransmission', text(car.simple_transmission)),
    ...optional('driveWheelConfiguration', driveWheelConfiguration(car.simple_drive)),
    ...optional('color', text(car.colour)),
    ...optional('seatingCapacity', car.seats > 0 ? car.seats : undefined),
    mileageFromOdometer: odometer(car.km, locale),
    offers: {
      '@type': 'Offer',
      ...(isPriceShown(car.price) ? { price: car.price } : {}),
      priceCurrency: currencyCode(locale),
      availability: availability(car),
      url: opts.url,
      seller: sellerJsonLd(car, site),
    },
  };
}

export type WebSiteLd = { '@context': 'https://schema.org'; '@type': 'WebSite'; name: string; url: string; description?: string };
export type SiteDealerLd = AutoDealerLd & { '@context': 'https://schema.org' };

/** The site's main address: its primary sales location, else any primary, sales or first location. */
export function mainLocation<L extends JsonLdLocation>(locations: readonly L[]): L | undefined {
  return (
    locations.find((entry) => entry.primary && entry.location_type === 'sales') ??
    locations.find((entry) => entry.primary) ??
    locations.find((entry) => entry.location_type === 'sales') ??
    locations[0]
  );
}

/**
 * The home page's structured data: the `WebSite` and the dealer (`AutoDealer`) behind it, at its
 * main location. `url` is the site's canonical home address; `logoUrl` an absolute logo address.
 */
export function siteJsonLd(
  site: JsonLdSite & { city: string; state: string },
  opts: { url: string; logoUrl?: string; description?: string },
): [WebSiteLd, SiteDealerLd] {
  const location = mainLocation(site.locations);
  return [
    {
      '@context': schema,
      '@type': 'WebSite',
      name: site.name,
      url: opts.url,
      ...(text(opts.description) ? { description: opts.description!.trim() } : {}),
    },
    {
      '@context': schema,
      '@type': 'AutoDealer',
      name: site.name,
      url: opts.url,
      ...(text(opts.logoUrl) ? { logo: opts.logoUrl } : {}),
      telephone: text(site.phone) ?? location?.contact_detail.phone ?? '',
      address: postalAddress(location, site, siteCountry(site.locale)),
    },
  ];
}
