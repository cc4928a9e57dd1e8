import { z } from 'zod';
import { locationTypes, openingHoursEntrySchema } from './location';
import { locales, siteTemplates } from './site';

/**
 * What an operator gives to open a dealer site (issue 24 onboarding): the dealer console's "New site"
 * form, `pnpm platform site create` and the demo seed all send this. Everything else a site has
 * comes from its template (templates in @dealer/rules site-templates.ts) and can be changed later in
 * the console's settings.
 */

/** Host names no dealer site may take: the console's, and names a platform keeps for itself. */
export const reservedSlugs = ['console', 'www', 'api', 'admin', 'app', 'mail', 'static', 'assets', 'cdn', 'img', 'meili'] as const;

const colour = z.string().regex(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i, 'A colour like #0b3d91.');
const hostName = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'A domain like www.example.com.au, without https://.');

export const newLocationSchema = z.object({
  name: z.string().trim().min(1, 'The location needs a name.').max(120, 'At most 120 characters.'),
  type: z.enum(locationTypes, { error: `A location is one of ${locationTypes.join(', ')}.` }).default('sales'),
  phone: z.string().trim().min(6, 'Enter the phone number shoppers call.').max(40),
  email: z.email('Enter an e-mail address like name@example.com.').max(200).nullable().default(null),
  address: z.object({
    street: z.string().trim().min(1, 'Enter the street address.').max(200),
    city: z.string().trim().min(1, 'Enter the suburb or city.').max(100),
    state: z.string().trim().max(60).default(''),
    postcode: z.string().trim().min(3, 'Enter the postcode.').max(12),
    /** Where the map pin goes; 0, 0 until the dealer places it. */
    lat: z.number().min(-90).max(90).default(0),
    long: z.number().min(-180).max(180).default(0),
  }),
  /** Sunday first, all seven days; absent: weekdays 8:30 to 5:30, Saturday 9 to 4, Sunday closed. */
  opening_hours: z.array(openingHoursEntrySchema).length(7, 'Give all seven days.').optional(),
});
export type NewLocation = z.infer<typeof newLocationSchema>;

export const newSiteSchema = z
  .strictObject({
    template: z.enum(siteTemplates, { error: `A template is one of ${siteTemplates.join(', ')}.` }),
    name: z.string().trim().min(1, 'The site needs a name.').max(120, 'At most 120 characters.'),
    slug: z
      .string()
      .trim()
      .min(3, 'At least 3 characters.')
      .max(60, 'At most 60 characters.')
      .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'Lower-case letters, digits and single hyphens, like harbour-used-cars.')
      .refine((slug) => !(reservedSlugs as readonly string[]).includes(slug), 'That name is kept for the platform; choose another.'),
    locale: z.enum(locales, { error: `A locale is one of ${locales.join(', ')}.` }),
    domain_name: hostName.nullable().default(null),
    dealership_group: z.string().trim().max(120).nullable().default(null),
    /** A brand's dealer (the brand pre-owned template needs one). */
    manufacturer: z.string().trim().min(1).max(60).nullable().default(null),
    branding: z.object({ primary: colour, primaryContrast: colour, accent: colour, surface: colour, text: colour }).partial().default({}),
    locations: z.array(newLocationSchema).min(1, 'A site has at least one location.').max(100, 'At most 100 locations.'),
  })
  .refine((site) => site.template !== 'toyota-pre-owned' || site.manufacturer !== null, {
    path: ['manufacturer'],
    message: 'A brand pre-owned site names its brand.',
  });
export type NewSite = z.infer<typeof newSiteSchema>;
export type NewSiteInput = z.input<typeof newSiteSchema>;
