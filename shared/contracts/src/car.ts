import { z } from 'zod';

import { carStatuses, carTypes, vehicleCategories } from './car-values';

export { carSlugPattern, carStatuses, carTypes, vehicleCategories } from './car-values';

export const paymentProcessorSchema = z.object({
  authorization_type: z.enum(['stripe', 'till', 'st_george']),
  /** Public (publishable) key only; secret keys live in server config. */
  authorization_key: z.string(),
  deposit_amount: z.number(),
});
export type PaymentProcessor = z.infer<typeof paymentProcessorSchema>;

export const carImageSchema = z.object({ url: z.string(), width: z.number().int(), height: z.number().int() });

/** A vehicle in stock, as SPEC §3 names its fields. */
export const carSchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  make: z.string(),
  model: z.string(),
  badge: z.string().nullable(),
  series: z.string().nullable(),
  year: z.number().int(),
  km: z.number().int(),
  price: z.number(),
  before_price: z.number().nullable(),
  subscription_price: z.number().nullable(),
  car_type: z.enum(carTypes),
  category: z.enum(vehicleCategories),
  status: z.enum(carStatuses),
  stocknum: z.string(),
  vin: z.string(),
  tag: z.string().nullable(),
  certified: z.boolean(),
  reserved: z.boolean(),
  /** Until when a shopper holds the car while paying its deposit (unix seconds): "On hold" until then. Absent or null: no one does. */
  on_hold_until_timestamp: z.number().int().nullable().optional(),
  sold: z.boolean(),
  reservable: z.boolean().nullable(),
  preorder: z.boolean(),
  created_at: z.string(),
  created_at_timestamp: z.number().int(),
  sold_date_timestamp: z.number().int().nullable(),
  custom_rank: z.number(),
  show_on_dealer_website: z.boolean(),
  photos_count: z.number().int(),
  dealership_slug: z.string(),
  dealership_id: z.number().int(),
  location_id: z.number().int(),
  location_name: z.string(),
  location: z.object({ name: z.string(), distribution_locations: z.array(z.string()) }),
  city: z.string(),
  state: z.string(),
  simple_body: z.string(),
  simple_drive: z.string(),
  simple_fuel: z.string(),
  simple_transmission: z.string(),
  colour: z.string(),
  seats: z.number().int(),
  categories: z.array(z.string()),
  filtered_features: z.array(z.string()),
  primary_image_url: z.string(),
  images: z.array(z.string()),
  thumbnails: z.array(z.string()),
  payment_processors: z.array(paymentProcessorSchema),
  has_checkout_payment_processor: z.boolean(),
  autograb_data: z.object({ state_average_market_price: z.number().nullable(), average_market_price: z.number().nullable() }).nullable(),
  carsales_seller_identifier: z.string().nullable(),
  description: z.string(),
});
export type Car = z.infer<typeof carSchema>;
export type CarType = Car['car_type'];
export type CarStatus = Car['status'];
export type VehicleCategory = Car['category'];
