import { describe, expect, it } from 'vitest';
import {
  availability,
  driveWheelConfiguration,
  itemCondition,
  mainLocation,
  odometer,
  siteJsonLd,
  vehicleJsonLd,
  type JsonLdCar,
  type JsonLdLocation,
  type JsonLdSite,
} from './vehicle-json-ld';

// Shapes as the demo data has them: Metro's Parramatta Toyota yard, Kiwi Motors in Penrose and
// Lone Star Auto in Austin.
const parramatta: JsonLdLocation = {
  id: 1001,
  name: 'Metro Toyota Parramatta',
  primary: true,
  location_type: 'sales',
  contact_detail: { phone: '02 5550 1234' },
  address: { street: '212 Church Street', city: 'Parramatta', state: 'NSW', postcode: '2150' },
};
const alexandria: JsonLdLocation = {
  id: 1018,
  name: 'Metro Service Centre Alexandria',
  primary: false,
  location_type: 'service',
  contact_detail: { phone: '02 5550 9876' },
  address: { street: "44 O'Riordan Street", city: 'Alexandria', state: 'NSW', postcode: '2015' },
};
const metro: JsonLdSite & { city: string; state: string } = {
  name: 'Metro Motor Group',
  locale: 'en-AU',
  phone: '02 5550 0000',
  city: 'Sydney',
  state: 'NSW',
  locations: [parramatta, alexandria],
};
const penrose: JsonLdLocation = {
  id: 9001,
  name: 'Kiwi Motors Penrose',
  primary: true,
  location_type: 'sales',
  contact_detail: { phone: '09 555 1234' },
  address: { street: '87 Great South Road', city: 'Auckland', state: 'Auckland', postcode: '1061' },
};
const kiwi: JsonLdSite = { name: 'Kiwi Motors', locale: 'en-NZ', phone: '09 555 0000', locations: [penrose] };
const austin: JsonLdLocation = {
  id: 10001,
  name: 'Lone Star Auto Austin',
  primary: true,
  location_type: 'sales',
  contact_detail: { phone: '(512) 555-0142' },
  address: { street: '3100 N Lamar Blvd', city: 'Austin', state: 'TX', postcode: '78751' },
};
const loneStar: JsonLdSite = { name: 'Lone Star Auto', locale: 'en-US', phone: '(512) 555-0100', locations: [austin] };

const corolla: JsonLdCar = {
  name: '2021 Toyota Corolla Ascent Sport',
  description: 'A one-owner Corolla with service history. Available now at Metro Toyota Parramatta.',
  make: 'Toyota',
  model: 'Corolla',
  year: 2021,
  vin: 'JTNB23HE602123456',
  km: 45120,
  price: 25990,
  car_type: 'used',
  status: 'in_stock',
  sold: false,
  preorder: false,
  simple_body: 'Hatch',
  simple_fuel: 'Petrol',
  simple_transmission: 'Automatic',
  simple_drive: 'FWD',
  colour: 'White',
  seats: 5,
  location_id: parramatta.id,
  location_name: parramatta.name,
  city: 'Parramatta',
  state: 'NSW',
};
const url = 'https://www.metromotorgroup.com.au/cars/2021-toyota-corolla-ascent-sport-ab12cd';
const imageUrl = 'https://www.metromotorgroup.com.au/img/vehicle/car/hatch/white/3.jpg?w=1200&q=80';
const opts = { url, imageUrl };

describe('the structured data of a vehicle page', () => {
  it('describes a used Corolla at Metro Toyota Parramatta the way search engines read a car listing', () => {
    expect(vehicleJsonLd(corolla, metro, opts)).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Car',
      name: '2021 Toyota Corolla Ascent Sport',
      description: corolla.description,
      url,
      image: imageUrl,
      brand: { '@type': 'Brand', name: 'Toyota' },
      model: 'Corolla',
      vehicleModelDate: '2021',
      vehicleIdentificationNumber: 'JTNB23HE602123456',
      itemCondition: 'https://schema.org/UsedCondition',
      bodyType: 'Hatch',
      fuelType: 'Petrol',
      vehicleTransmission: 'Automatic',
      driveWheelConfiguration: 'https://schema.org/FrontWheelDriveConfiguration',
      color: 'White',
      seatingCapacity: 5,
      mileageFromOdometer: { '@type': 'QuantitativeValue', value: 45120, unitCode: 'KMT' },
      offers: {
        '@type': 'Offer',
        price: 25990,
        priceCurrency: 'AUD',
        availability: 'https://schema.org/InStock',
        url,
        seller: {
          '@type': 'AutoDealer',
          name: 'Metro Toyota Parramatta',
          telephone: '02 5550 1234',
          address: {
            '@type': 'PostalAddress',
            streetAddress: '212 Church Street',
            addressLocality: 'Parramatta',
            addressRegion: 'NSW',
            postalCode: '2150',
            addressCountry: 'AU',
          },
        },
      },
    });
  });

  it('never says how many doors the car has (the feed does not know)', () => {
    expect(vehicleJsonLd(corolla, metro, opts)).not.toHaveProperty('numberOfDoors');
  });

  it.each([
    ['a new car', 'new', 'https://schema.org/NewCondition'],
    ['a used car', 'used', 'https://schema.org/UsedCondition'],
    ['a demonstrator (driven and registered)', 'demo', 'https://schema.org/UsedCondition'],
  ] as const)('gives %s the condition %s → %s', (_who, carType, expected) => {
    expect(itemCondition(carType)).toBe(expected);
    expect(vehicleJsonLd({ ...corolla, car_type: carType }, metro, opts).itemCondition).toBe(expected);
  });

  it.each([
    ['in stock', { status: 'in_stock', sold: false, preorder: false }, 'https://schema.org/InStock'],
    ['coming soon', { status: 'coming_soon', sold: false, preorder: false }, 'https://schema.org/PreOrder'],
    ['coming soon on pre-order', { status: 'coming_soon', sold: false, preorder: true }, 'https://schema.org/PreOrder'],
    ['in stock but flagged pre-order', { status: 'in_stock', sold: false, preorder: true }, 'https://schema.org/PreOrder'],
    ['sold', { status: 'sold', sold: true, preorder: false }, 'https://schema.org/SoldOut'],
    [
      'flagged sold while the status still says in stock',
      { status: 'in_stock', sold: true, preorder: false },
      'https://schema.org/SoldOut',
    ],
    ['sold after being on pre-order', { status: 'sold', sold: true, preorder: true }, 'https://schema.org/SoldOut'],
  ] as const)('marks a car that is %s as available %j → %s', (_who, state, expected) => {
    expect(availability(state)).toBe(expected);
    expect(vehicleJsonLd({ ...corolla, ...state }, metro, opts).offers.availability).toBe(expected);
  });

  it.each([
    ['a real price', 25990, 25990],
    ['cents', 1234.5, 1234.5],
    ['just over the placeholder', 11, 11],
    ['the placeholder 10 ("Enquire for price.")', 10, undefined],
    ['no price (0)', 0, undefined],
  ] as const)('offers %s: price %s → %s', (_who, price, expected) => {
    const offer = vehicleJsonLd({ ...corolla, price }, metro, opts).offers;
    if (expected === undefined) expect(offer).not.toHaveProperty('price');
    else expect(offer.price).toBe(expected);
    // The currency is still stated, as the site's locale has it.
    expect(offer.priceCurrency).toBe('AUD');
  });

  it('leaves the price out of a pre-order car with no price, and says it can be pre-ordered', () => {
    const offer = vehicleJsonLd({ ...corolla, car_type: 'new', status: 'coming_soon', preorder: true, price: 0 }, metro, opts).offers;
    expect(offer).not.toHaveProperty('price');
    expect(offer.availability).toBe('https://schema.org/PreOrder');
  });

  it.each([
    ['Metro (Australia)', metro, 45120, { value: 45120, unitCode: 'KMT' }, 'AUD', 'AU', 'Petrol'],
    ['Kiwi Motors (New Zealand)', kiwi, 45120, { value: 45120, unitCode: 'KMT' }, 'NZD', 'NZ', 'Petrol'],
    ['Lone Star Auto (United States), in miles', loneStar, 45120, { value: 28036, unitCode: 'SMI' }, 'USD', 'US', 'Gas'],
    ['Lone Star Auto, a delivery-mileage car', loneStar, 10, { value: 6, unitCode: 'SMI' }, 'USD', 'US', 'Gas'],
    ['Lone Star Auto, an unregistered car', loneStar, 0, { value: 0, unitCode: 'SMI' }, 'USD', 'US', 'Gas'],
  ] as const)('speaks the language of %s: %s km → %j, %s, %s', (_site, site, km, mileage, currency, country, fuel) => {
    const location = site.locations[0]!;
    const car: JsonLdCar = { ...corolla, km, location_id: location.id, location_name: location.name };
    const ld = vehicleJsonLd(car, site, opts);
    expect(ld.mileageFromOdometer).toEqual({ '@type': 'QuantitativeValue', ...mileage });
    expect(ld.offers.priceCurrency).toBe(currency);
    expect(ld.offers.seller.address.addressCountry).toBe(country);
    expect(ld.fuelType).toBe(fuel);
    expect(odometer(km, site.locale)).toEqual(ld.mileageFromOdometer);
  });

  it('sells a Lone Star Auto car from its Austin yard, with its own phone and Texas address', () => {
    const car: JsonLdCar = { ...corolla, location_id: austin.id, location_name: austin.name, city: 'Austin', state: 'TX' };
    expect(vehicleJsonLd(car, loneStar, opts).offers.seller).toEqual({
      '@type': 'AutoDealer',
      name: 'Lone Star Auto Austin',
      telephone: '(512) 555-0142',
      address: {
        '@type': 'PostalAddress',
        streetAddress: '3100 N Lamar Blvd',
        addressLocality: 'Austin',
        addressRegion: 'TX',
        postalCode: '78751',
        addressCountry: 'US',
      },
    });
  });

  it("falls back to the site phone and the car's town when the car's location is not one of the site's", () => {
    const car: JsonLdCar = { ...corolla, location_id: 424242, location_name: 'Metro Toyota Ringwood', city: 'Ringwood', state: 'VIC' };
    expect(vehicleJsonLd(car, metro, opts).offers.seller).toEqual({
      '@type': 'AutoDealer',
      name: 'Metro Toyota Ringwood',
      telephone: '02 5550 0000',
      address: { '@type': 'PostalAddress', addressLocality: 'Ringwood', addressRegion: 'VIC', addressCountry: 'AU' },
    });
  });

  it.each([
    ['FWD', 'https://schema.org/FrontWheelDriveConfiguration'],
    ['RWD', 'https://schema.org/RearWheelDriveConfiguration'],
    ['AWD', 'https://schema.org/AllWheelDriveConfiguration'],
    ['4x4', 'https://schema.org/FourWheelDriveConfiguration'],
    ['4WD', 'https://schema.org/FourWheelDriveConfiguration'],
    ['4x2', '4x2'],
    ['6x4', '6x4'],
    ['Chain', 'Chain'],
    ['', undefined],
  ] as const)('names the drive %j → %s', (drive, expected) => {
    expect(driveWheelConfiguration(drive)).toBe(expected);
  });

  it.each([
    ['no photo', { imageUrl: '' }, 'image'],
    ['no VIN in the feed', { vin: '' }, 'vehicleIdentificationNumber'],
    ['no description', { description: '  ' }, 'description'],
    ['no colour', { colour: '' }, 'color'],
    ['no seat count', { seats: 0 }, 'seatingCapacity'],
    ['no drive', { simple_drive: '' }, 'driveWheelConfiguration'],
  ] as const)('leaves out what it does not know: %s', (_what, change, property) => {
    const { imageUrl: image, ...carChange } = { imageUrl, ...change };
    const ld = vehicleJsonLd({ ...corolla, ...carChange }, metro, { url, imageUrl: image });
    expect(ld).not.toHaveProperty(property);
  });

  it('keeps the values as plain data: a name with a closing script tag stays as given (the page escapes it)', () => {
    const ld = vehicleJsonLd({ ...corolla, name: '2021 Toyota </script><script>alert(1)</script>' }, metro, opts);
    expect(ld.name).toBe('2021 Toyota </script><script>alert(1)</script>');
    expect(JSON.parse(JSON.stringify(ld))).toEqual(ld);
  });

  it('gives the same answer whatever the time (nothing in it depends on now)', () => {
    expect(vehicleJsonLd(corolla, metro, { ...opts, now: 0 })).toEqual(vehicleJsonLd(corolla, metro, { ...opts, now: 2_000_000_000 }));
  });
});

describe('the structured data of a home page', () => {
  it('names the website and the dealer at its primary sales yard', () => {
    expect(
      siteJsonLd(metro, {
        url: 'https://www.metromotorgroup.com.au/',
        logoUrl: 'https://www.metromotorgroup.com.au/img/logo/metro-motor-group.svg',
        description: 'New, used and demo cars',
      }),
    ).toEqual([
      {
        '@context': 'https://schema.org',
        '@type': 'WebSite',
        name: 'Metro Motor Group',
        url: 'https://www.metromotorgroup.com.au/',
        description: 'New, used and demo cars',
      },
      {
        '@context': 'https://schema.org',
        '@type': 'AutoDealer',
        name: 'Metro Motor Group',
        url: 'https://www.metromotorgroup.com.au/',
        logo: 'https://www.metromotorgroup.com.au/img/logo/metro-motor-group.svg',
        telephone: '02 5550 0000',
        address: {
          '@type': 'PostalAddress',
          streetAddress: '212 Church Street',
          addressLocality: 'Parramatta',
          addressRegion: 'NSW',
          postalCode: '2150',
          addressCountry: 'AU',
        },
      },
    ]);
  });

  it.each([
    ['the primary sales yard', [alexandria, parramatta], parramatta.id],
    [
      'a primary location when no primary one sells',
      [
        { ...parramatta, primary: false },
        { ...alexandria, primary: true },
      ],
      alexandria.id,
    ],
    [
      'a sales yard when none is primary',
      [
        { ...alexandria, primary: false },
        { ...parramatta, primary: false },
      ],
      parramatta.id,
    ],
    ['the first location otherwise', [{ ...alexandria, primary: false }], alexandria.id],
  ] as const)("finds the dealer's main address at %s", (_which, locations, expected) => {
    expect(mainLocation(locations)?.id).toBe(expected);
  });

  it('gives a dealer without locations its town, state and country', () => {
    const [, dealer] = siteJsonLd(
      { ...loneStar, locations: [], city: 'Austin', state: 'TX' },
      { url: 'http://lone-star-auto.localhost:3000/' },
    );
    expect(dealer.address).toEqual({ '@type': 'PostalAddress', addressLocality: 'Austin', addressRegion: 'TX', addressCountry: 'US' });
    expect(dealer).not.toHaveProperty('logo');
  });
});
