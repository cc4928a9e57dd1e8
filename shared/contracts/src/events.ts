import { z } from 'zod';
import { remoteNames } from './remote-modules';

/**
 * Cross-remote notifications. State a late-loading remote must read lives in the store;
 * events only say that something happened.
 */
export const eventSchemas = {
  'favourite:toggled': z.object({
    car: z.object({
      id: z.number(),
      name: z.string(),
      slug: z.string(),
      make: z.string(),
      model: z.string(),
      primary_image_url: z.string(),
    }),
    saved: z.boolean(),
  }),
  'lead:submitted': z.object({ leadId: z.number(), category: z.string(), successCategory: z.string() }),
  'form:open': z.object({ form: z.enum(['enquiry', 'test-drive', 'request-photos', 'finance']), carId: z.number().optional() }),
  'analytics:track': z.object({
    eventId: z.number().int(),
    label: z.string(),
    properties: z.record(z.string(), z.unknown()).optional(),
  }),
  /** A page shown: its SPEC §2 page-view type (1 to 13), or null for a page SPEC gives none (checkout, garage...). */
  'analytics:page-view': z.object({
    pageType: z.number().int().min(1).max(13).nullable(),
    url: z.string(),
    carSlug: z.string().optional(),
    carName: z.string().optional(),
  }),
  'ads:view-content': z.object({
    content_ids: z.array(z.string()),
    quantity: z.literal(1),
    currency: z.string(),
    value: z.number(),
    content_type: z.literal('product'),
    content_name: z.string(),
    search_string: z.string().optional(),
  }),
  'search:performed': z.object({ query: z.string(), filters: z.array(z.string()), total: z.number() }),
  'remote:failed': z.object({ remote: z.enum(remoteNames), module: z.string(), message: z.string() }),
} as const;

export type PlatformEvents = { [K in keyof typeof eventSchemas]: z.infer<(typeof eventSchemas)[K]> };
export type PlatformEventName = keyof PlatformEvents;
