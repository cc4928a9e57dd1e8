import { z } from 'zod';

export const openingHoursEntrySchema = z.object({
  weekday: z.number().int().min(0).max(6),
  status: z.enum(['Open', 'Closed']),
  formated_hours: z.string(),
  open: z.string().nullable(),
  close: z.string().nullable(),
});
export type OpeningHoursEntry = z.infer<typeof openingHoursEntrySchema>;

export const locationTypes = ['sales', 'service', 'parts'] as const;

export const locationSchema = z.object({
  id: z.number().int(),
  dealership_id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  location_type: z.enum(locationTypes),
  groupings: z.array(z.enum(['primary', 'sales', 'service', 'parts', 'service-and-parts'])),
  dealer_license_number: z.string().nullable(),
  motor_vehicle_repairer: z.string().nullable(),
  primary: z.boolean(),
  visible: z.boolean(),
  manufacturers: z.array(z.string()),
  contact_detail: z.object({
    phone: z.string(),
    landline_phone: z.string().nullable(),
    mobile: z.string().nullable(),
    email: z.string().nullable(),
    social: z.record(z.string(), z.string()),
    opening_hours: z.array(openingHoursEntrySchema),
  }),
  address: z.object({
    street: z.string(),
    city: z.string(),
    state: z.string(),
    postcode: z.string(),
    lat: z.number(),
    long: z.number(),
    place_id: z.string().nullable(),
    place_url: z.string().nullable(),
    full: z.string(),
    map_key: z.string().nullable(),
    map_url: z.string().nullable(),
  }),
  reviews: z.object({ count: z.number().int(), average_rating: z.number() }),
  image: z.string().nullable(),
  external_identifiers: z.array(z.object({ identifier_name: z.string(), primary_code: z.string() })),
});
export type Location = z.infer<typeof locationSchema>;
