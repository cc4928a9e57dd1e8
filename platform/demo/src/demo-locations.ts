import type { Location, OpeningHoursEntry } from '@dealer/contracts/location';
import { closedDay, openDay } from '@dealer/rules/opening-hours';
import { createRng, seedFrom, type Rng } from './prng';
import type { Dealership } from './dealership';
import type { DemoSiteSlug, SiteIdentity } from './demo-sites';

export type DemoNetwork = { locations: Location[]; dealerships: Dealership[] };

type Country = 'AU' | 'NZ' | 'US';

type Place = {
  street: string;
  suburb: string;
  /** Shown as the car's and location's city; for AU the suburb is what shoppers search by. */
  city: string;
  state: string;
  postcode: string;
  lat: number;
  long: number;
};

type LocationPlan = {
  name: string;
  type: Location['location_type'];
  manufacturers: readonly string[];
  place: Place;
  /** Service and parts close at 5pm or 4pm on weekdays (SPEC §9). */
  closes?: '17:00' | '16:00';
  /** Some service departments also shut on Saturday (SPEC §9). */
  saturday?: boolean;
};

type NetworkPlan = {
  country: Country;
  /** One dealership per sales location (a group) or one for the whole site. */
  dealershipPerSalesLocation: boolean;
  locations: readonly LocationPlan[];
};

const au = (street: string, suburb: string, state: string, postcode: string, lat: number, long: number): Place => ({
  street,
  suburb,
  city: suburb,
  state,
  postcode,
  lat,
  long,
});

const sales = (name: string, manufacturers: readonly string[], place: Place): LocationPlan => ({
  name,
  type: 'sales',
  manufacturers,
  place,
});

const workshop = (name: string, type: 'service' | 'parts', place: Place, closes: '17:00' | '16:00', saturday: boolean): LocationPlan => ({
  name,
  type,
  manufacturers: [],
  place,
  closes,
  saturday,
});

// 17 sales, 5 service and 3 parts sites: 25 in all, across Sydney and Melbourne (SPEC §1).
const metroLocations: readonly LocationPlan[] = [
  sales('Metro Toyota Parramatta', ['Toyota'], au('Church Street', 'Parramatta', 'NSW', '2150', -33.8151, 151.0011)),
  sales('Metro Mazda Liverpool', ['Mazda'], au('Hume Highway', 'Liverpool', 'NSW', '2170', -33.9201, 150.9239)),
  sales('Metro Hyundai Penrith', ['Hyundai'], au('Mulgoa Road', 'Penrith', 'NSW', '2750', -33.7545, 150.6868)),
  sales('Metro Kia Castle Hill', ['Kia'], au('Victoria Avenue', 'Castle Hill', 'NSW', '2154', -33.7301, 151.0021)),
  sales('Metro Ford Blacktown', ['Ford'], au('Sunnyholt Road', 'Blacktown', 'NSW', '2148', -33.7668, 150.9088)),
  sales('Metro Mitsubishi Campbelltown', ['Mitsubishi'], au('Queen Street', 'Campbelltown', 'NSW', '2560', -34.0653, 150.8143)),
  sales('Metro Nissan Hurstville', ['Nissan'], au('Forest Road', 'Hurstville', 'NSW', '2220', -33.9671, 151.1001)),
  sales('Metro BMW Artarmon', ['BMW'], au('Pacific Highway', 'Artarmon', 'NSW', '2064', -33.8093, 151.1838)),
  sales('Metro Mercedes-Benz Chatswood', ['Mercedes-Benz'], au('Pacific Highway', 'Chatswood', 'NSW', '2067', -33.7962, 151.1787)),
  sales('Metro Subaru Isuzu Brookvale', ['Subaru', 'Isuzu'], au('Pittwater Road', 'Brookvale', 'NSW', '2100', -33.7633, 151.2711)),
  sales('Metro Toyota Ringwood', ['Toyota'], au('Maroondah Highway', 'Ringwood', 'VIC', '3134', -37.8134, 145.2271)),
  sales('Metro Volkswagen Doncaster', ['Volkswagen'], au('Doncaster Road', 'Doncaster', 'VIC', '3108', -37.7862, 145.1244)),
  sales('Metro Honda Essendon', ['Honda'], au('Mount Alexander Road', 'Essendon', 'VIC', '3040', -37.756, 144.919)),
  sales('Metro MG Mitsubishi Dandenong', ['MG', 'Mitsubishi'], au('Princes Highway', 'Dandenong', 'VIC', '3175', -37.9873, 145.2151)),
  sales('Metro Hyundai Kia Cheltenham', ['Hyundai', 'Kia'], au('Nepean Highway', 'Cheltenham', 'VIC', '3192', -37.9594, 145.0534)),
  sales('Metro Isuzu Hoppers Crossing', ['Isuzu'], au('Old Geelong Road', 'Hoppers Crossing', 'VIC', '3029', -37.8745, 144.6963)),
  sales('Metro Mazda Frankston', ['Mazda'], au('Nepean Highway', 'Frankston', 'VIC', '3199', -38.1425, 145.1232)),
  workshop(
    'Metro Service Centre Alexandria',
    'service',
    au("O'Riordan Street", 'Alexandria', 'NSW', '2015', -33.91, 151.194),
    '17:00',
    true,
  ),
  workshop(
    'Metro Fleet Service Five Dock',
    'service',
    au('Parramatta Road', 'Five Dock', 'NSW', '2046', -33.8664, 151.1293),
    '16:00',
    false,
  ),
  workshop('Metro Service Centre Richmond', 'service', au('Victoria Street', 'Richmond', 'VIC', '3121', -37.8112, 144.9968), '17:00', true),
  workshop('Metro Service Centre Preston', 'service', au('High Street', 'Preston', 'VIC', '3072', -37.742, 145.003), '16:00', false),
  workshop('Metro Service Centre Box Hill', 'service', au('Whitehorse Road', 'Box Hill', 'VIC', '3128', -37.8186, 145.125), '17:00', false),
  workshop('Metro Parts Smithfield', 'parts', au('Cumberland Highway', 'Smithfield', 'NSW', '2164', -33.8536, 150.9393), '17:00', true),
  workshop('Metro Parts Wetherill Park', 'parts', au('Victoria Street', 'Wetherill Park', 'NSW', '2164', -33.848, 150.902), '16:00', false),
  workshop('Metro Parts Moorabbin', 'parts', au('South Road', 'Moorabbin', 'VIC', '3189', -37.937, 145.058), '17:00', true),
];

const networkPlans: Record<DemoSiteSlug, NetworkPlan> = {
  'metro-motor-group': { country: 'AU', dealershipPerSalesLocation: true, locations: metroLocations },
  'harbour-used-cars': {
    country: 'AU',
    dealershipPerSalesLocation: false,
    locations: [
      sales('Harbour Used Cars Rozelle', [], au('Victoria Road', 'Rozelle', 'NSW', '2039', -33.8617, 151.1707)),
      sales('Harbour Used Cars Mona Vale', [], au('Pittwater Road', 'Mona Vale', 'NSW', '2103', -33.6776, 151.303)),
    ],
  },
  'ridgeline-trucks': {
    country: 'AU',
    dealershipPerSalesLocation: false,
    locations: [
      sales('Ridgeline Trucks Wacol', ['Isuzu', 'Hino', 'Fuso', 'UD'], au('Boundary Road', 'Wacol', 'QLD', '4076', -27.587, 152.933)),
      sales(
        'Ridgeline Trucks Eagle Farm',
        ['Kenworth', 'Volvo', 'Mercedes-Benz', 'Iveco'],
        au('Kingsford Smith Drive', 'Eagle Farm', 'QLD', '4009', -27.433, 153.085),
      ),
      workshop('Ridgeline Truck Service Wacol', 'service', au('Boundary Road', 'Wacol', 'QLD', '4076', -27.589, 152.936), '16:00', false),
    ],
  },
  'coastal-motorcycles': {
    country: 'AU',
    dealershipPerSalesLocation: false,
    locations: [
      sales(
        'Coastal Motorcycles Southport',
        ['Honda', 'Yamaha', 'Kawasaki', 'Suzuki'],
        au('Ferry Road', 'Southport', 'QLD', '4215', -27.968, 153.4),
      ),
      sales(
        'Coastal Motorcycles Nerang',
        ['Harley-Davidson', 'Triumph', 'KTM', 'Ducati', 'BMW'],
        au('Nerang Street', 'Nerang', 'QLD', '4211', -27.996, 153.336),
      ),
    ],
  },
  'outback-campers': {
    country: 'AU',
    dealershipPerSalesLocation: false,
    locations: [
      sales('Outback Campers Wangara', ['Jayco', 'Avan'], au('Prindiville Drive', 'Wangara', 'WA', '6065', -31.789, 115.833)),
      sales(
        'Outback Campers Bibra Lake',
        ['New Age', 'Lotus Caravans', 'Sunliner', 'Winnebago', 'Kimberley'],
        au('Port Kembla Drive', 'Bibra Lake', 'WA', '6163', -32.095, 115.82),
      ),
    ],
  },
  'flexi-subscriptions': {
    country: 'AU',
    dealershipPerSalesLocation: false,
    locations: [sales('Flexi Subscriptions South Melbourne', [], au('Kings Way', 'South Melbourne', 'VIC', '3205', -37.833, 144.96))],
  },
  'citi-rentals': {
    country: 'AU',
    dealershipPerSalesLocation: false,
    locations: [
      sales('Citi Rentals Adelaide', [], au('Franklin Street', 'Adelaide', 'SA', '5000', -34.926, 138.596)),
      sales('Citi Rentals Adelaide Airport', [], au('Sir Donald Bradman Drive', 'Adelaide Airport', 'SA', '5950', -34.945, 138.533)),
    ],
  },
  'toyota-demo': {
    country: 'AU',
    dealershipPerSalesLocation: false,
    locations: [
      sales('Demo Toyota Homebush', ['Toyota'], au('Parramatta Road', 'Homebush', 'NSW', '2140', -33.865, 151.084)),
      {
        ...workshop(
          'Demo Toyota Underwood Road - Service',
          'service',
          au('Underwood Road', 'Homebush', 'NSW', '2140', -33.861, 151.081),
          '17:00',
          true,
        ),
        manufacturers: ['Toyota'],
      },
    ],
  },
  'kiwi-motors': {
    country: 'NZ',
    dealershipPerSalesLocation: false,
    locations: [
      sales('Kiwi Motors Penrose', ['Toyota', 'Mazda', 'Mitsubishi'], {
        street: 'Great South Road',
        suburb: 'Penrose',
        city: 'Auckland',
        state: 'Auckland',
        postcode: '1061',
        lat: -36.91,
        long: 174.815,
      }),
      sales('Kiwi Motors North Shore', ['Kia', 'Hyundai', 'Ford'], {
        street: 'Wairau Road',
        suburb: 'Wairau Valley',
        city: 'Auckland',
        state: 'Auckland',
        postcode: '0627',
        lat: -36.77,
        long: 174.745,
      }),
      sales('Kiwi Motors Wellington', ['Nissan', 'Honda'], {
        street: 'Kent Terrace',
        suburb: 'Te Aro',
        city: 'Wellington',
        state: 'Wellington',
        postcode: '6011',
        lat: -41.294,
        long: 174.784,
      }),
    ],
  },
  'lone-star-auto': {
    country: 'US',
    dealershipPerSalesLocation: false,
    locations: [
      sales('Lone Star Auto Austin', [], {
        street: 'N Lamar Blvd',
        suburb: 'Austin',
        city: 'Austin',
        state: 'TX',
        postcode: '78751',
        lat: 30.316,
        long: -97.728,
      }),
      sales('Lone Star Auto Round Rock', [], {
        street: 'N Interstate 35',
        suburb: 'Round Rock',
        city: 'Round Rock',
        state: 'TX',
        postcode: '78664',
        lat: 30.52,
        long: -97.67,
      }),
    ],
  },
};

export const kebab = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

const open = openDay;
const closed = closedDay;

/** SPEC §9 typical hours; weekday 0 is Sunday. */
function openingHours(plan: LocationPlan): OpeningHoursEntry[] {
  return [0, 1, 2, 3, 4, 5, 6].map((weekday) => {
    if (plan.type === 'sales') return weekday === 0 ? open(0, '10:00', '16:00') : open(weekday, '08:30', '17:30');
    if (weekday === 0) return closed(0);
    if (weekday === 6) return plan.saturday ? open(6, '08:00', '12:00') : closed(6);
    return open(weekday, '07:30', plan.closes ?? '17:00');
  });
}

// ACMA keeps these ranges for drama and examples, so a demo tel: link never rings a real business.
const auAreaCodes: Record<string, string> = { NSW: '02', ACT: '02', VIC: '03', TAS: '03', QLD: '07', SA: '08', WA: '08', NT: '08' };
const acmaMobiles = [
  '0491 570 006',
  '0491 570 156',
  '0491 570 157',
  '0491 570 158',
  '0491 570 159',
  '0491 570 110',
  '0491 570 313',
  '0491 570 737',
  '0491 571 266',
  '0491 571 491',
  '0491 571 804',
  '0491 572 549',
  '0491 572 665',
  '0491 572 983',
  '0491 573 770',
  '0491 573 087',
  '0491 574 118',
  '0491 574 632',
  '0491 575 254',
  '0491 575 789',
  '0491 576 398',
  '0491 576 801',
  '0491 577 426',
  '0491 577 644',
  '0491 578 957',
  '0491 578 148',
  '0491 578 888',
  '0491 579 212',
  '0491 579 760',
  '0491 579 455',
];
const nzAreaCodes: Record<string, string> = { Auckland: '09', Wellington: '04', Canterbury: '03', Waikato: '07' };

type Phones = { phone: string; mobile: string | null };

function phonesFor(country: Country, place: Place, rng: Rng, taken: Set<string>): Phones {
  const unique = (make: () => string): string => {
    for (;;) {
      const value = make();
      if (!taken.has(value)) {
        taken.add(value);
        return value;
      }
    }
  };
  if (country === 'AU') {
    const area = auAreaCodes[place.state] ?? '02';
    const phone = unique(() => `${area} 5550 ${rng.digits(4)}`);
    // The reserved mobile list is short; once a site has used it up, later locations list no mobile.
    const free = acmaMobiles.filter((number) => !taken.has(number));
    const mobile = free.length > 0 ? rng.pick(free) : null;
    if (mobile) taken.add(mobile);
    return { phone, mobile };
  }
  if (country === 'NZ') {
    const area = nzAreaCodes[place.state] ?? '09';
    return { phone: unique(() => `${area} 555 ${rng.digits(4)}`), mobile: unique(() => `021 555 ${rng.digits(4)}`) };
  }
  // 555-0100 to 555-0199 is the US range set aside for fiction.
  const area = place.city === 'Austin' || place.city === 'Round Rock' ? '512' : '214';
  return { phone: unique(() => `(${area}) 555-01${rng.digits(2)}`), mobile: null };
}

function dealerLicence(country: Country, state: string, rng: Rng): string {
  if (country === 'NZ') return `M${rng.digits(6)}`;
  if (country === 'US') return `P${rng.digits(5)}`;
  switch (state) {
    case 'VIC':
      return `LMCT ${rng.digits(5)}`;
    case 'QLD':
      return `3${rng.digits(6)}`;
    case 'SA':
      return `MVD${rng.digits(6)}`;
    case 'WA':
      return `DL${rng.digits(5)}`;
    default:
      return `MD${rng.digits(6)}`;
  }
}

function fullAddress(country: Country, number: number, place: Place): string {
  if (country === 'US') return `${number} ${place.street}, ${place.city}, ${place.state} ${place.postcode}`;
  if (country === 'NZ') return `${number} ${place.street}, ${place.suburb}, ${place.city} ${place.postcode}`;
  return `${number} ${place.street}, ${place.suburb} ${place.state} ${place.postcode}`;
}

function groupingsOf(plan: LocationPlan, primary: boolean): Location['groupings'] {
  const base: Location['groupings'] = plan.type === 'sales' ? ['sales'] : [plan.type, 'service-and-parts'];
  return primary ? ['primary', ...base] : base;
}

/**
 * The site's locations and the dealerships that own them. Built together because each
 * location carries its dealership's id, and service and parts sites belong to the nearest
 * sales dealership in the same state.
 */
export function demoNetwork(site: SiteIdentity): DemoNetwork {
  const plan = networkPlans[site.slug];
  const rng = createRng(seedFrom(`${site.slug}:locations`));
  const takenPhones = new Set<string>();
  const emailDomain = (site.domain_name ?? `${site.slug}.example.com`).replace(/^www\./, '');

  const dealerships: Dealership[] = [];
  const salesDealershipIds: { state: string; id: number }[] = [];
  const stripeKey = (slug: string, index: number): string | null => {
    if (!site.online_payments) return null;
    // A couple of group dealerships have not set up Stripe, which the reserve rule must cope with.
    if (plan.dealershipPerSalesLocation && index % 6 === 5) return null;
    return `pk_test_demo_${slug.replace(/-/g, '_')}`;
  };

  if (!plan.dealershipPerSalesLocation) {
    dealerships.push({ id: site.id * 100 + 1, slug: site.slug, name: site.name, stripe_publishable_key: stripeKey(site.slug, 0) });
  } else {
    plan.locations
      .filter((entry) => entry.type === 'sales')
      .forEach((entry, index) => {
        const id = site.id * 100 + index + 1;
        dealerships.push({ id, slug: kebab(entry.name), name: entry.name, stripe_publishable_key: stripeKey(kebab(entry.name), index) });
        salesDealershipIds.push({ state: entry.place.state, id });
      });
  }

  const dealershipFor = (entry: LocationPlan, salesIndex: number): number => {
    if (!plan.dealershipPerSalesLocation) return site.id * 100 + 1;
    if (entry.type === 'sales') return site.id * 100 + salesIndex + 1;
    const sameState = salesDealershipIds.find((d) => d.state === entry.place.state) ?? salesDealershipIds[0];
    return sameState ? sameState.id : site.id * 100 + 1;
  };

  const allMakes = [...new Set(plan.locations.flatMap((entry) => entry.manufacturers))];
  let salesIndex = -1;
  const locations = plan.locations.map((entry, index): Location => {
    if (entry.type === 'sales') salesIndex++;
    const primary = index === 0;
    const slug = kebab(entry.name);
    const number = rng.int(1, 480);
    const phones = phonesFor(plan.country, entry.place, rng, takenPhones);
    const placeId = `ChIJ${rng.chars(23, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-')}`;
    const full = fullAddress(plan.country, number, entry.place);
    return {
      id: site.id * 1000 + index + 1,
      dealership_id: dealershipFor(entry, salesIndex),
      name: entry.name,
      slug,
      location_type: entry.type,
      groupings: groupingsOf(entry, primary),
      dealer_license_number: entry.type === 'sales' ? dealerLicence(plan.country, entry.place.state, rng) : null,
      motor_vehicle_repairer: entry.type === 'service' && entry.place.state === 'NSW' ? `MVRL${rng.digits(5)}` : null,
      primary,
      visible: true,
      // Service and parts work on every make the site sells.
      manufacturers:
        entry.type === 'sales' ? [...entry.manufacturers] : entry.manufacturers.length > 0 ? [...entry.manufacturers] : allMakes,
      contact_detail: {
        phone: phones.phone,
        landline_phone: phones.phone,
        mobile: phones.mobile,
        email: `${entry.type}.${kebab(entry.place.suburb)}@${emailDomain}`,
        social:
          index % 3 === 2
            ? {}
            : { facebook: `https://www.facebook.com/${slug}`, instagram: `https://www.instagram.com/${slug.replace(/-/g, '')}` },
        opening_hours: openingHours(entry),
      },
      address: {
        street: `${number} ${entry.place.street}`,
        city: entry.place.city,
        state: entry.place.state,
        postcode: entry.place.postcode,
        lat: entry.place.lat,
        long: entry.place.long,
        place_id: placeId,
        place_url: `https://www.google.com/maps/place/?q=place_id:${placeId}`,
        full,
        map_key: null,
        map_url: `https://www.google.com/maps/search/?api=1&query=${entry.place.lat},${entry.place.long}`,
      },
      reviews: { count: rng.int(12, 1400), average_rating: Math.round(rng.float(3.9, 4.95) * 10) / 10 },
      image: null,
      external_identifiers:
        plan.country === 'AU' && entry.type === 'sales' ? [{ identifier_name: 'carsales', primary_code: `SSE-AD-${rng.digits(7)}` }] : [],
    };
  });

  return { locations, dealerships };
}
