import type { Car, CarStatus, CarType, PaymentProcessor } from '@dealer/contracts/car';
import type { Location } from '@dealer/contracts/location';
import { vehiclePhotoPath } from '@dealer/rules/images';
import { catalogue, vehicleCategoriesOf, vinPrefix, type CatalogueKind, type KindProfile, type ModelSpec } from './catalogue';
import type { Dealership } from './dealership';
import { kebab } from './demo-locations';
import type { DemoSiteSlug, SiteIdentity } from './demo-sites';
import { createRng, seedFrom, type Rng } from './prng';

const day = 86_400;

type StockPlan = {
  kind: CatalogueKind;
  /** Cars search shows as for sale (in stock or coming soon, not hidden), by type. */
  listed: Record<CarType, number>;
  /** Sold inside the include_sold_cars_days window, so search still shows them. */
  soldRecently: number;
  /** Sold long enough ago that search must leave them out. */
  soldLongAgo: number;
  /** In stock but switched off for the website. */
  hidden: number;
  stockPrefix: string;
  stockDigits: number;
  /** Makes the site deals in for used stock too; new and demo always follow the locations' franchises. */
  onlyMakes?: readonly string[];
  pricing: 'sale' | 'subscription' | 'rental';
  /** Share of used cars that are manufacturer certified. */
  certifiedShare: number;
};

const stockPlans: Record<DemoSiteSlug, StockPlan> = {
  // SPEC §1: 1147 vehicles, 253 used, 679 new, 215 demo.
  'metro-motor-group': {
    kind: 'car-au',
    listed: { new: 679, used: 253, demo: 215 },
    soldRecently: 5,
    soldLongAgo: 5,
    hidden: 4,
    stockPrefix: 'MMG',
    stockDigits: 5,
    pricing: 'sale',
    certifiedShare: 0.15,
  },
  'harbour-used-cars': {
    kind: 'car-au',
    listed: { new: 0, used: 62, demo: 0 },
    soldRecently: 2,
    soldLongAgo: 1,
    hidden: 1,
    stockPrefix: '',
    stockDigits: 5,
    pricing: 'sale',
    certifiedShare: 0,
  },
  'ridgeline-trucks': {
    kind: 'truck',
    listed: { new: 18, used: 22, demo: 5 },
    soldRecently: 1,
    soldLongAgo: 1,
    hidden: 1,
    stockPrefix: 'RT',
    stockDigits: 4,
    pricing: 'sale',
    certifiedShare: 0,
  },
  'coastal-motorcycles': {
    kind: 'motorcycle',
    listed: { new: 24, used: 22, demo: 4 },
    soldRecently: 1,
    soldLongAgo: 1,
    hidden: 0,
    stockPrefix: 'CM',
    stockDigits: 4,
    pricing: 'sale',
    certifiedShare: 0,
  },
  'outback-campers': {
    kind: 'camper',
    listed: { new: 20, used: 14, demo: 2 },
    soldRecently: 1,
    soldLongAgo: 1,
    hidden: 0,
    stockPrefix: 'OC',
    stockDigits: 4,
    pricing: 'sale',
    certifiedShare: 0,
  },
  'flexi-subscriptions': {
    kind: 'car-au',
    listed: { new: 18, used: 12, demo: 0 },
    soldRecently: 0,
    soldLongAgo: 1,
    hidden: 0,
    stockPrefix: 'FS',
    stockDigits: 4,
    onlyMakes: ['Toyota', 'Mazda', 'Hyundai', 'Kia', 'MG', 'BMW', 'Volkswagen', 'Mercedes-Benz'],
    pricing: 'subscription',
    certifiedShare: 0,
  },
  'citi-rentals': {
    kind: 'car-au',
    listed: { new: 0, used: 25, demo: 0 },
    soldRecently: 0,
    soldLongAgo: 0,
    hidden: 1,
    stockPrefix: 'CR',
    stockDigits: 4,
    onlyMakes: ['Toyota', 'Hyundai', 'Kia', 'Mitsubishi', 'MG', 'Mazda', 'Nissan'],
    pricing: 'rental',
    certifiedShare: 0,
  },
  'toyota-demo': {
    kind: 'car-au',
    listed: { new: 0, used: 55, demo: 15 },
    soldRecently: 2,
    soldLongAgo: 1,
    hidden: 1,
    stockPrefix: 'TPO',
    stockDigits: 5,
    onlyMakes: ['Toyota'],
    pricing: 'sale',
    certifiedShare: 0.6,
  },
  'kiwi-motors': {
    kind: 'car-au',
    listed: { new: 25, used: 22, demo: 8 },
    soldRecently: 1,
    soldLongAgo: 1,
    hidden: 0,
    stockPrefix: 'KM',
    stockDigits: 4,
    pricing: 'sale',
    certifiedShare: 0.1,
  },
  'lone-star-auto': {
    kind: 'car-us',
    listed: { new: 0, used: 40, demo: 0 },
    soldRecently: 1,
    soldLongAgo: 1,
    hidden: 1,
    stockPrefix: '',
    stockDigits: 5,
    pricing: 'sale',
    certifiedShare: 0.1,
  },
};

/** Slugs and VINs are unique across every site, so the generator for each site shares one registry. */
export type CarRegistry = { slugs: Set<string>; vins: Set<string> };

export type DemoCarsInput = {
  site: SiteIdentity;
  locations: readonly Location[];
  dealerships: readonly Dealership[];
  /** Unix seconds; every timestamp is relative to it. */
  now: number;
  firstId: number;
  registry: CarRegistry;
};

type Slot = { type: CarType; status: CarStatus; show: boolean; sold: 'recent' | 'old' | null };

type Context = DemoCarsInput & {
  rng: Rng;
  plan: StockPlan;
  profile: KindProfile;
  salesLocations: readonly Location[];
  franchiseMakes: ReadonlySet<string>;
  currentYear: number;
  stocknums: Set<string>;
};

const vinAlphabet = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
const vinYearCodes = 'ABCDEFGHJKLMNPRSTVWXY123456789';

const withCommas = (value: number): string => String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Dealers price to the dollar below a round thousand (…,990); cheap vehicles to the hundred. */
const retailPrice = (value: number): number =>
  value >= 10_000 ? Math.round(value / 1000) * 1000 - 10 : Math.max(990, Math.round(value / 100) * 100 - 10);

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

function unique(taken: Set<string>, make: () => string): string {
  for (;;) {
    const value = make();
    if (!taken.has(value)) {
      taken.add(value);
      return value;
    }
  }
}

function pickModel(ctx: Context, type: CarType): ModelSpec {
  // A model first sold after `now` would give a car from the future when seeding for a past date.
  let models = ctx.profile.models.filter(
    (model) => model.since <= ctx.currentYear && (!ctx.plan.onlyMakes || ctx.plan.onlyMakes.includes(model.make)),
  );
  // New and demo stock comes from the franchises the locations hold; used stock can be any trade-in.
  if (type !== 'used' && ctx.franchiseMakes.size > 0) {
    const franchised = models.filter((model) => ctx.franchiseMakes.has(model.make));
    if (franchised.length > 0) models = franchised;
  }
  return ctx.rng.weighted(models.map((model) => [model, model.weight] as const));
}

function pickLocation(ctx: Context, make: string, type: CarType): Location {
  if (type !== 'used') {
    const franchise = ctx.salesLocations.filter((location) => location.manufacturers.includes(make));
    if (franchise.length > 0) return ctx.rng.pick(franchise);
  }
  return ctx.rng.pick(ctx.salesLocations);
}

function pickYear(ctx: Context, model: ModelSpec, type: CarType, pricing: StockPlan['pricing']): number {
  const { currentYear, rng } = ctx;
  if (type === 'new') return Math.max(currentYear, model.since);
  if (type === 'demo') return Math.max(model.since, currentYear - (rng.chance(0.3) ? 1 : 0));
  // Rental and subscription fleets turn over within a couple of years.
  const maxAge = pricing === 'sale' ? ctx.profile.maxUsedAge : 2;
  const newest = Math.max(currentYear - 1, model.since);
  const oldest = Math.min(Math.max(model.since, currentYear - maxAge), newest);
  // Skewed towards newer stock, as dealer used lots are.
  return newest - Math.floor(rng.next() ** 1.5 * (newest - oldest + 1));
}

function pickKm(ctx: Context, model: ModelSpec, type: CarType, age: number): number {
  if (!model.odometer) return 0;
  const { rng, plan } = ctx;
  const [low, high] = ctx.profile.kmPerYear;
  if (type === 'new') return rng.int(0, plan.kind === 'truck' ? 150 : 25);
  if (type === 'demo') return rng.int(Math.round(low / 20), Math.round(high / 2));
  if (plan.pricing === 'rental') return rng.int(5_000, 60_000);
  if (age === 0) return rng.int(Math.round(low / 6), Math.round(high / 2));
  return Math.round(age * rng.float(low, high) * rng.float(0.7, 1.2));
}

function vinFor(ctx: Context, make: string, year: number): string {
  const { rng } = ctx;
  const yearCode = vinYearCodes.charAt((((year - 1980) % 30) + 30) % 30);
  return unique(
    ctx.registry.vins,
    () => `${vinPrefix(make)}${rng.chars(5, vinAlphabet)}${rng.digits(1)}${yearCode}${rng.chars(1, vinAlphabet)}${rng.digits(6)}`,
  );
}

/**
 * A coming-soon car's deposit on a dealer that takes them (SPEC §9): its dealership's Stripe
 * processor, drawn without the random stream so the rest of the demo stock stays as it was.
 */
function comingSoonProcessors(ctx: Context, dealership: Dealership, price: number): PaymentProcessor[] {
  if (!ctx.site.online_payments || price <= 200 || !dealership.stripe_publishable_key) return [];
  return [
    { authorization_type: 'stripe', authorization_key: dealership.stripe_publishable_key, deposit_amount: price > 80_000 ? 1000 : 500 },
  ];
}

function paymentProcessorsFor(ctx: Context, dealership: Dealership, price: number): PaymentProcessor[] {
  if (!ctx.site.online_payments || price <= 200 || !ctx.rng.chance(0.25)) return [];
  const deposit = price > 80_000 ? 1000 : 500;
  if (dealership.stripe_publishable_key) {
    return [{ authorization_type: 'stripe', authorization_key: dealership.stripe_publishable_key, deposit_amount: deposit }];
  }
  // Dealerships without Stripe take deposits through their bank's gateway instead.
  return [
    {
      authorization_type: ctx.rng.chance(0.5) ? 'till' : 'st_george',
      authorization_key: `pub_demo_${dealership.id}`,
      deposit_amount: deposit,
    },
  ];
}

function describeCar(
  ctx: Context,
  car: Pick<
    Car,
    'name' | 'car_type' | 'km' | 'colour' | 'seats' | 'simple_transmission' | 'simple_drive' | 'filtered_features' | 'location_name'
  >,
  model: ModelSpec,
): string {
  const us = ctx.site.locale === 'en-US';
  const features = car.filtered_features.slice(0, 3).join(', ');
  const distance = model.odometer && !us ? ` with ${withCommas(car.km)} km on the odometer` : '';
  const opening =
    car.car_type === 'new'
      ? `Brand new ${car.name} in ${car.colour}.`
      : car.car_type === 'demo'
        ? `Save on this ${car.name} demonstrator in ${car.colour}${distance}, with the balance of the factory warranty.`
        : `This ${car.name} in ${car.colour}${distance} has been inspected by our team and is ready to go.`;
  const layout =
    ctx.plan.kind === 'camper'
      ? `Sleeps ${car.seats}.`
      : ctx.plan.kind === 'motorcycle'
        ? `${car.simple_transmission} with ${car.simple_drive.toLowerCase()} drive.`
        : `${car.simple_transmission}, ${car.simple_drive}, ${car.seats} seats.`;
  const extras = features ? ` Highlights include ${features}.` : '';
  return `${opening} ${layout}${extras} Available now at ${car.location_name}.`;
}

function makeCar(ctx: Context, slot: Slot, id: number): Car {
  const { rng, plan, profile, now } = ctx;
  const model = pickModel(ctx, slot.type);
  const location = pickLocation(ctx, model.make, slot.type);
  const dealership = ctx.dealerships.find((entry) => entry.id === location.dealership_id) ?? ctx.dealerships[0];
  if (!dealership) throw new Error(`${ctx.site.slug} has no dealership`);

  const badgeIndex = rng.int(0, model.badges.length - 1);
  const badge = model.badges[badgeIndex] ?? null;
  const trimPosition = model.badges.length > 1 ? badgeIndex / (model.badges.length - 1) : 0.5;
  const year = pickYear(ctx, model, slot.type, plan.pricing);
  const age = Math.max(0, ctx.currentYear - year);
  const km = pickKm(ctx, model, slot.type, age);
  const fuel = rng.weighted(model.fuels);
  const transmission = rng.pick(model.transmissions);
  const drive = rng.pick(model.drives);
  const seats = rng.pick(model.seats);
  const colour = rng.weighted(profile.colours);

  const newPrice = (model.price[0] + (model.price[1] - model.price[0]) * trimPosition) * rng.float(0.97, 1.03);
  const expectedKm = age * ((profile.kmPerYear[0] + profile.kmPerYear[1]) / 2);
  const wear = clamp(1 - (km - expectedKm) / (profile.kmPerYear[1] * 20), 0.8, 1.08);
  const value =
    slot.type === 'new'
      ? newPrice
      : slot.type === 'demo'
        ? newPrice * rng.float(0.86, 0.94)
        : newPrice * profile.retention ** Math.max(age, 0.5) * wear * rng.float(0.92, 1.06);

  const listedForSale = slot.status !== 'sold';
  // A few cars have no price in the feed; the card then says 'Enquire for price.' (SPEC §5).
  const enquireForPrice = plan.pricing === 'sale' && listedForSale && rng.chance(0.005);
  const price = plan.pricing === 'rental' ? Math.round(rng.int(49, 189) / 10) * 10 - 1 : enquireForPrice ? 0 : retailPrice(value);
  const wasPriced = price > 0 && plan.pricing === 'sale' && rng.chance(slot.type === 'new' ? 0.06 : 0.14);
  const before_price = wasPriced ? price + rng.int(2, 10) * 500 : null;
  const subscription_price = plan.pricing === 'subscription' ? Math.round((newPrice * rng.float(0.0055, 0.0075)) / 10) * 10 - 1 : null;

  const comingSoon = slot.status === 'coming_soon';
  const preorder = comingSoon && slot.type === 'new' && rng.chance(0.4);
  let tag: string | null = null;
  if (preorder) tag = 'Pre-order';
  else if (slot.type === 'demo' && rng.chance(0.1)) tag = rng.chance(0.3) ? 'Test Drive Only*' : 'Test Drive Only';
  else if (listedForSale && rng.chance(0.05)) tag = 'Special';

  const isCarKind = plan.kind === 'car-au' || plan.kind === 'car-us';
  const certified =
    isCarKind && slot.type === 'used' && rng.chance(model.make === 'Toyota' ? Math.max(plan.certifiedShare, 0.35) : plan.certifiedShare);
  const reserved = slot.status === 'in_stock' && rng.chance(0.02);
  const reservableRoll = rng.next();
  const reservable = reservableRoll < 0.04 ? false : reservableRoll < 0.34 ? true : null;

  let created_at_timestamp: number;
  let sold_date_timestamp: number | null = null;
  if (slot.sold === 'recent') {
    // Inside the 3-day window, with room to spare so a slow test run does not cross it.
    sold_date_timestamp = now - rng.int(day / 2, 2 * day);
    created_at_timestamp = sold_date_timestamp - rng.int(10 * day, 120 * day);
  } else if (slot.sold === 'old') {
    sold_date_timestamp = now - rng.int(10 * day, 40 * day);
    created_at_timestamp = sold_date_timestamp - rng.int(10 * day, 120 * day);
  } else if (comingSoon || rng.chance(0.07)) {
    // Within the 8-day just-arrived window.
    created_at_timestamp = now - rng.int(600, 7 * day);
  } else {
    created_at_timestamp = now - rng.int(9 * day, 200 * day);
  }

  const photoCount = rng.int(3, 8);
  const images = rng
    .shuffle([0, 1, 2, 3, 4, 5, 6, 7])
    .slice(0, photoCount)
    .map((variant) => vehiclePhotoPath({ category: ctx.site.vehicle_category, body: model.body, colour, variant }));

  const features = rng.shuffle(profile.features).slice(0, rng.int(3, 7));
  const name = [String(year), model.make, model.model, badge].filter(Boolean).join(' ');
  const slug = unique(ctx.registry.slugs, () => `${kebab(name)}-${rng.chars(6, 'abcdefghijklmnopqrstuvwxyz0123456789')}`);
  const stocknum = unique(ctx.stocknums, () => `${plan.stockPrefix}${rng.int(1, 9)}${rng.digits(plan.stockDigits - 1)}`);

  const otherLocations = ctx.salesLocations.filter((entry) => entry.id !== location.id && entry.address.state === location.address.state);
  const distribution_locations =
    slot.type === 'used' && otherLocations.length > 0 && rng.chance(0.1)
      ? rng
          .shuffle(otherLocations)
          .slice(0, 2)
          .map((entry) => entry.name)
      : [];

  const payment_processors =
    slot.status === 'in_stock' && !reserved
      ? paymentProcessorsFor(ctx, dealership, price)
      : slot.status === 'coming_soon' && ctx.site.reserve_coming_soon
        ? comingSoonProcessors(ctx, dealership, price)
        : [];
  const hasMarketData = isCarKind && price > 0 && plan.pricing === 'sale' && rng.chance(slot.type === 'new' ? 0.2 : 0.75);
  const average = hasMarketData ? Math.round((price * rng.float(0.94, 1.1)) / 100) * 100 : null;
  const carsalesCode = location.external_identifiers.find((entry) => entry.identifier_name === 'carsales')?.primary_code ?? null;

  const base = {
    id,
    slug,
    name,
    make: model.make,
    model: model.model,
    badge,
    series: model.series,
    year,
    km,
    price,
    before_price,
    subscription_price,
    car_type: slot.type,
    category: ctx.site.vehicle_category,
    status: slot.status,
    stocknum,
    vin: vinFor(ctx, model.make, year),
    tag,
    certified,
    reserved,
    sold: slot.status === 'sold',
    reservable,
    preorder,
    created_at: new Date(created_at_timestamp * 1000).toISOString(),
    created_at_timestamp,
    sold_date_timestamp,
    custom_rank: rng.int(0, 1000) + (tag === 'Special' ? 1000 : 0),
    show_on_dealer_website: slot.show,
    photos_count: images.length,
    dealership_slug: dealership.slug,
    dealership_id: dealership.id,
    location_id: location.id,
    location_name: location.name,
    location: { name: location.name, distribution_locations },
    city: location.address.city,
    state: location.address.state,
    simple_body: model.body,
    simple_drive: drive,
    simple_fuel: fuel,
    simple_transmission: transmission,
    colour,
    seats,
    categories: vehicleCategoriesOf({ body: model.body, fuel, drive, seats, price }),
    filtered_features: features,
    primary_image_url: images[0] ?? '',
    images,
    thumbnails: [...images],
    payment_processors,
    has_checkout_payment_processor: payment_processors.length > 0,
    autograb_data:
      average === null
        ? null
        : { state_average_market_price: Math.round((average * rng.float(0.97, 1.03)) / 100) * 100, average_market_price: average },
    // Fleet cars are not advertised on marketplaces, and new cars are listed by the maker's feed.
    carsales_seller_identifier: slot.type !== 'new' && plan.pricing === 'sale' ? carsalesCode : null,
  } satisfies Omit<Car, 'description'>;

  return { ...base, description: describeCar(ctx, base, model) };
}

/** The order cars are generated in; shuffled so ids and stock numbers do not run in blocks by type. */
function slotsFor(plan: StockPlan, rng: Rng): Slot[] {
  const listed: Slot[] = [];
  const comingSoonShare: Record<CarType, number> = { new: 0.06, used: 0.03, demo: 0.02 };
  for (const type of ['new', 'used', 'demo'] as const) {
    for (let i = 0; i < plan.listed[type]; i++) {
      listed.push({ type, status: rng.chance(comingSoonShare[type]) ? 'coming_soon' : 'in_stock', show: true, sold: null });
    }
  }
  const types = (['new', 'used', 'demo'] as const).filter((type) => plan.listed[type] > 0);
  const extras: Slot[] = [];
  for (let i = 0; i < plan.soldRecently; i++) extras.push({ type: rng.pick(types), status: 'sold', show: true, sold: 'recent' });
  for (let i = 0; i < plan.soldLongAgo; i++) extras.push({ type: rng.pick(types), status: 'sold', show: true, sold: 'old' });
  for (let i = 0; i < plan.hidden; i++) extras.push({ type: rng.pick(types), status: 'in_stock', show: false, sold: null });
  return rng.shuffle([...listed, ...extras]);
}

export function demoCars(input: DemoCarsInput): Car[] {
  const plan = stockPlans[input.site.slug];
  const rng = createRng(seedFrom(`${input.site.slug}:cars`));
  const salesLocations = input.locations.filter((location) => location.location_type === 'sales');
  if (salesLocations.length === 0) throw new Error(`${input.site.slug} has no sales location`);
  const ctx: Context = {
    ...input,
    rng,
    plan,
    profile: catalogue[plan.kind],
    salesLocations,
    franchiseMakes: new Set(salesLocations.flatMap((location) => location.manufacturers)),
    currentYear: new Date(input.now * 1000).getUTCFullYear(),
    stocknums: new Set(),
  };
  return slotsFor(plan, rng).map((slot, index) => makeCar(ctx, slot, input.firstId + index));
}
