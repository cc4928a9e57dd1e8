/**
 * A car as the dealer edits it in the console (issue 24, stock): the fields of SPEC §3 a person
 * types, checked with messages for the screen, and the whole stored car made from them. What
 * follows from those fields (the name, the page address, the location's dealership, city and
 * state, the sold date, the photo lists, the categories) is worked out here, never typed.
 */
import { z } from 'zod';
import { carStatuses, carTypes, type Car, type PaymentProcessor } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';
import { vehicleCategoriesOf } from '@dealer/demo/catalogue';
import { kebab } from '@dealer/rules/new-site-config';

const text = (max: number) => z.string().trim().max(max, `At most ${max} characters.`);
const optionalText = (max: number) =>
  text(max)
    .nullable()
    .transform((value) => value || null);
const money = (what: string) =>
  z
    .number({ error: `Enter the ${what} as a number.` })
    .nonnegative(`The ${what} cannot be negative.`)
    .max(10_000_000, `The ${what} is too high.`);
const thisYear = new Date().getUTCFullYear();

/** A photo the car may show: one uploaded for the site (`/img/car/<hash>.jpg`) or one it already has. */
export const uploadedPhotoPattern = /^\/img\/car\/[0-9a-f]{32}\.jpg$/;

export const carEditSchema = z.strictObject({
  make: text(40).min(1, 'Enter the make.'),
  model: text(60).min(1, 'Enter the model.'),
  badge: optionalText(60),
  series: optionalText(60),
  year: z
    .number({ error: 'Enter the year.' })
    .int('Enter the year.')
    .min(1900, 'A year from 1900.')
    .max(thisYear + 1, `A year up to ${thisYear + 1}.`),
  km: z
    .number({ error: 'Enter the kilometres.' })
    .int('Whole kilometres.')
    .min(0, 'Kilometres cannot be negative.')
    .max(2_000_000, 'At most 2,000,000 km.'),
  price: money('price'),
  before_price: money('price before').nullable(),
  subscription_price: money('subscription price').nullable(),
  car_type: z.enum(carTypes, { error: `New, used or demo.` }),
  status: z.enum(carStatuses, { error: `One of ${carStatuses.join(', ')}.` }),
  stocknum: text(40)
    .min(1, 'Enter the stock number.')
    .regex(/^[A-Za-z0-9._/-]+$/, 'Letters, digits and . _ / - only.'),
  vin: z
    .string()
    .trim()
    .toUpperCase()
    .refine((vin) => vin === '' || /^[A-HJ-NPR-Z0-9]{17}$/.test(vin), 'A VIN is 17 letters and digits (no I, O or Q).'),
  tag: optionalText(60),
  certified: z.boolean(),
  preorder: z.boolean(),
  show_on_dealer_website: z.boolean(),
  location_id: z.number({ error: 'Choose the location.' }).int(),
  simple_body: text(40),
  simple_drive: text(40),
  simple_fuel: text(40),
  simple_transmission: text(40),
  colour: text(40),
  seats: z.number({ error: 'Enter the seats.' }).int().min(1, 'At least 1 seat.').max(99, 'At most 99 seats.'),
  filtered_features: z.array(text(60).min(1)).max(100, 'At most 100 features.'),
  description: text(20_000),
  custom_rank: z.number({ error: 'The rank is a number.' }).min(-1_000_000).max(1_000_000),
  photos: z.array(z.string().max(300)).max(100, 'At most 100 photos.'),
});
export type CarEdit = z.infer<typeof carEditSchema>;

/** A new car: what must be given; the rest starts empty or off. */
export const newCarSchema = carEditSchema
  .partial()
  .required({ make: true, model: true, year: true, price: true, car_type: true, stocknum: true, location_id: true });

/** A change to a car: any of its fields. */
export const carChangeBodySchema = carEditSchema.partial();

const blankCar: Omit<CarEdit, 'make' | 'model' | 'year' | 'price' | 'car_type' | 'stocknum' | 'location_id'> = {
  badge: null,
  series: null,
  km: 0,
  before_price: null,
  subscription_price: null,
  status: 'in_stock',
  vin: '',
  tag: null,
  certified: false,
  preorder: false,
  show_on_dealer_website: true,
  simple_body: '',
  simple_drive: '',
  simple_fuel: '',
  simple_transmission: '',
  colour: '',
  seats: 5,
  filtered_features: [],
  description: '',
  custom_rank: 0,
  photos: [],
};

/** Why a car cannot be saved as asked, field by field. */
export class CarRefused extends Error {
  constructor(readonly fields: Record<string, string>) {
    super(Object.values(fields)[0] ?? 'The car cannot be saved.');
  }
}

/** The fields the console's car form shows, from a stored car. */
export const carEditOf = (car: Car): CarEdit => ({
  make: car.make,
  model: car.model,
  badge: car.badge,
  series: car.series,
  year: car.year,
  km: car.km,
  price: car.price,
  before_price: car.before_price,
  subscription_price: car.subscription_price,
  car_type: car.car_type,
  status: car.status,
  stocknum: car.stocknum,
  vin: car.vin,
  tag: car.tag,
  certified: car.certified,
  preorder: car.preorder,
  show_on_dealer_website: car.show_on_dealer_website,
  location_id: car.location_id,
  simple_body: car.simple_body,
  simple_drive: car.simple_drive,
  simple_fuel: car.simple_fuel,
  simple_transmission: car.simple_transmission,
  colour: car.colour,
  seats: car.seats,
  filtered_features: car.filtered_features,
  description: car.description,
  custom_rank: car.custom_rank,
  photos: car.images,
});

/** A new car's deposit (SPEC §9), as the demo stock's: through its dealership's Stripe key when the site takes deposits. */
function depositProcessors(site: SiteConfig, dealership: SiteConfig['dealerships'][number], price: number): PaymentProcessor[] {
  const takesDeposits =
    site.payment_provider === 'stripe' && site.remotes.some((remote) => remote.name === 'mf-checkout' && remote.enabled);
  if (!takesDeposits || price <= 200 || !dealership.stripe_publishable_key) return [];
  return [
    { authorization_type: 'stripe', authorization_key: dealership.stripe_publishable_key, deposit_amount: price > 80_000 ? 1000 : 500 },
  ];
}

/**
 * The stored car after the dealer's edit (`before` null: a new car with this id). The page address
 * of a car never changes once made, so links and search results shared before stay good.
 */
export function carFromEdit(site: SiteConfig, before: Car | null, change: Partial<CarEdit>, id: number, nowSeconds: number): Car {
  const edit: CarEdit = { ...(before ? carEditOf(before) : (blankCar as CarEdit)), ...change };
  const location = site.locations.find((one) => one.id === edit.location_id);
  if (!location) throw new CarRefused({ location_id: 'Choose one of the site’s locations.' });
  const known = new Set(before?.images ?? []);
  const stray = edit.photos.find((photo) => !known.has(photo) && !uploadedPhotoPattern.test(photo));
  if (stray !== undefined) throw new CarRefused({ photos: 'A photo must be one uploaded for this car.' });
  const dealership = site.dealerships.find((one) => one.id === location.dealership_id) ?? site.dealerships[0]!;
  const sold = edit.status === 'sold';
  const name = [edit.year, edit.make, edit.model, edit.badge].filter(Boolean).join(' ');
  const processors = before ? before.payment_processors : depositProcessors(site, dealership, edit.price);
  const { photos, ...fields } = edit;
  return {
    ...before,
    ...fields,
    id,
    slug: before?.slug ?? `${kebab(name)}-${kebab(edit.stocknum)}`,
    name,
    category: site.vehicle_category,
    reserved: before?.reserved ?? false,
    sold,
    reservable: before?.reservable ?? null,
    created_at: before?.created_at ?? new Date(nowSeconds * 1000).toISOString(),
    created_at_timestamp: before?.created_at_timestamp ?? nowSeconds,
    sold_date_timestamp: sold ? (before?.sold && before.sold_date_timestamp ? before.sold_date_timestamp : nowSeconds) : null,
    photos_count: photos.length,
    dealership_slug: dealership.slug,
    dealership_id: dealership.id,
    location_id: location.id,
    location_name: location.name,
    location: { name: location.name, distribution_locations: before?.location.distribution_locations ?? [] },
    city: location.address.city,
    state: location.address.state,
    categories: vehicleCategoriesOf({
      body: edit.simple_body,
      fuel: edit.simple_fuel,
      drive: edit.simple_drive,
      seats: edit.seats,
      price: edit.price,
    }),
    primary_image_url: photos[0] ?? '',
    images: photos,
    thumbnails: photos,
    payment_processors: processors,
    has_checkout_payment_processor: processors.length > 0,
    autograb_data: before?.autograb_data ?? null,
    carsales_seller_identifier: before?.carsales_seller_identifier ?? null,
  };
}
