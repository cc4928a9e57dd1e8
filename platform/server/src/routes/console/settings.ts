import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { linkTarget } from '@dealer/contracts/link-target';
import { openingHoursEntrySchema, type Location } from '@dealer/contracts/location';
import { badDayMessage, normaliseWeek } from '@dealer/rules/opening-hours';
import {
  leadDeliveryTargetSchema,
  siteConfigSchema,
  siteFeaturesSchema,
  thirdPartyIdsSchema,
  type SiteConfig,
} from '@dealer/contracts/site';
import { insertAudit } from '@dealer/db/console-lead-store';
import { changeSiteConfig, loadSiteConfig } from '@dealer/db/site-store';
import { relabelLocationCars } from '@dealer/db/stock-store';
import type { PlatformContext } from '../../platform-context';
import { checkFields, refusals } from '../admin/admin-schemas';
import { fieldErrors } from '../auth';
import type { ConsoleRequests } from './console-access';

/** The secrets a dealer may set from the console: written, never read back (the console sees only whether each is set). */
export const writableSecrets = [
  'stripe_secret_key',
  'stripe_webhook_secret',
  'lead_webhook_secret',
  'podium_api_token',
  'facebook_capi_token',
] as const;
type WritableSecret = (typeof writableSecrets)[number];

const menuLink = z.object({
  label: z.string().trim().min(1, 'Give the link a label.').max(60, 'At most 60 characters.'),
  to: z.union([z.literal(true), linkTarget]),
  dynamic: z.enum(['stock', 'brands']).optional(),
});
const menu = z
  .array(menuLink.extend({ children: z.array(menuLink).max(30, 'At most 30 links in a menu.').optional() }))
  .max(40, 'At most 40 links.');

/** A colour as the site's style sheet takes it: #rgb or #rrggbb. */
const colour = z.string().regex(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i, 'A colour like #0b3d91.');

/** A location's details the dealer keeps up to date (its map pin stays where it is). */
const locationChange = z.object({
  id: z.number().int(),
  name: z.string().trim().min(1, 'The location needs a name.').max(120).optional(),
  phone: z.string().trim().min(6, 'Enter the phone number shoppers call.').max(40).optional(),
  email: z.email('Enter an e-mail address like name@example.com.').max(200).nullable().optional(),
  address: z
    .object({
      street: z.string().trim().min(1, 'Enter the street address.').max(200),
      city: z.string().trim().min(1, 'Enter the suburb or city.').max(100),
      state: z.string().trim().max(60),
      postcode: z.string().trim().min(3, 'Enter the postcode.').max(12),
    })
    .optional(),
  // Each day's text is written here from its times (never taken as sent), as the SPEC writes hours: '8:30am - 5:30pm'.
  opening_hours: z
    .array(openingHoursEntrySchema)
    .length(7, 'Give all seven days.')
    .transform((days, context) => {
      const checked = normaliseWeek(days);
      if ('week' in checked) return checked.week;
      context.addIssue({
        code: 'custom',
        message: badDayMessage(checked.badDay),
      });
      return z.NEVER;
    })
    .optional(),
});

const settingsBody = z.strictObject({
  name: z.string().trim().min(1, 'The site needs a name.').max(120).optional(),
  phone: z.string().trim().min(6, 'Enter the phone number shoppers call.').max(40).optional(),
  branding: z
    .object({
      primary: colour,
      primaryContrast: colour,
      accent: colour,
      surface: colour,
      text: colour,
      radius: z.string().regex(/^\d{1,2}px$/, 'A corner radius in pixels, like 8px.'),
    })
    .partial()
    .optional(),
  features: siteFeaturesSchema.partial().optional(),
  third_party: thirdPartyIdsSchema.partial().optional(),
  consent_banner: z.boolean().optional(),
  garage_enabled: z.boolean().optional(),
  include_sold_cars_days: z
    .number({ error: 'Enter a number of days.' })
    .int()
    .min(0, 'At least 0 days.')
    .max(365, 'At most 365 days.')
    .optional(),
  just_arrived_days: z.number({ error: 'Enter a number of days.' }).int().min(0, 'At least 0 days.').max(90, 'At most 90 days.').optional(),
  seo: z
    .object({
      title: z.string().trim().min(1, 'Give the site a title for search engines.').max(70, 'At most 70 characters.'),
      description: z.string().trim().max(160, 'At most 160 characters.'),
    })
    .optional(),
  lead_delivery: z.array(leadDeliveryTargetSchema).max(10, 'At most 10 delivery targets.').optional(),
  /** A value sets the secret, null clears it; a secret not named stays as it is. */
  secrets: z
    .partialRecord(z.enum(writableSecrets), z.string().trim().min(8, 'A key has at least 8 characters.').max(500).nullable())
    .optional(),
  navigation: z.object({ header: menu, footer: menu }).optional(),
  locations: z.array(locationChange).max(100, 'At most 100 locations.').optional(),
});
type SettingsChange = z.infer<typeof settingsBody>;

/** What the console shows of a site's settings: everything editable, and of each secret only whether it is set. */
function settingsView(site: SiteConfig) {
  return {
    name: site.name,
    phone: site.phone,
    branding: site.branding,
    features: site.features,
    third_party: site.third_party,
    consent_banner: site.consent_banner ?? false,
    garage_enabled: site.garage_enabled,
    include_sold_cars_days: site.include_sold_cars_days,
    just_arrived_days: site.specifications.just_arrived_days,
    seo: site.seo,
    logo: site.logo.url,
    navigation: site.navigation,
    lead_delivery: site.secrets.lead_delivery ?? [{ kind: 'adf-file' as const }],
    secrets_set: Object.fromEntries(writableSecrets.map((key) => [key, Boolean(site.secrets[key])])) as Record<WritableSecret, boolean>,
    locations: site.locations.map((location) => ({
      id: location.id,
      name: location.name,
      phone: location.contact_detail.phone,
      email: location.contact_detail.email,
      address: {
        street: location.address.street,
        city: location.address.city,
        state: location.address.state,
        postcode: location.address.postcode,
      },
      opening_hours: location.contact_detail.opening_hours,
    })),
  };
}

/** The site with the dealer's change applied (not yet checked). */
function applied(site: SiteConfig, change: SettingsChange): SiteConfig {
  const secrets = { ...site.secrets };
  for (const [key, value] of Object.entries(change.secrets ?? {})) secrets[key as WritableSecret] = value ?? null;
  if (change.lead_delivery) secrets.lead_delivery = change.lead_delivery;
  const changes = new Map((change.locations ?? []).map((location) => [location.id, location]));
  return {
    ...site,
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...(change.phone !== undefined ? { phone: change.phone } : {}),
    ...(change.consent_banner !== undefined ? { consent_banner: change.consent_banner } : {}),
    ...(change.garage_enabled !== undefined ? { garage_enabled: change.garage_enabled } : {}),
    ...(change.include_sold_cars_days !== undefined ? { include_sold_cars_days: change.include_sold_cars_days } : {}),
    ...(change.just_arrived_days !== undefined
      ? { specifications: { ...site.specifications, just_arrived_days: change.just_arrived_days } }
      : {}),
    ...(change.seo ? { seo: change.seo } : {}),
    branding: { ...site.branding, ...change.branding },
    features: { ...site.features, ...change.features },
    third_party: { ...site.third_party, ...change.third_party },
    ...(change.navigation ? { navigation: change.navigation } : {}),
    secrets,
    locations: site.locations.map((location) => {
      const one = changes.get(location.id);
      return one ? changedLocation(location, one, site.locale) : location;
    }),
  };
}

/** The full address line as the site shows it, in the country's order (as the demo writes it). */
function fullAddress(locale: SiteConfig['locale'], { street, city, state, postcode }: Location['address']) {
  if (locale === 'en-US') return `${street}, ${city}, ${state} ${postcode}`;
  if (locale === 'en-NZ') return `${street}, ${city} ${postcode}`;
  return `${street}, ${city} ${state} ${postcode}`;
}

function changedLocation(location: Location, change: z.infer<typeof locationChange>, locale: SiteConfig['locale']): Location {
  const address = change.address ? { ...location.address, ...change.address } : location.address;
  return {
    ...location,
    ...(change.name !== undefined ? { name: change.name } : {}),
    contact_detail: {
      ...location.contact_detail,
      ...(change.phone !== undefined ? { phone: change.phone } : {}),
      ...(change.email !== undefined ? { email: change.email } : {}),
      ...(change.opening_hours ? { opening_hours: change.opening_hours } : {}),
    },
    address: change.address ? { ...address, full: fullAddress(locale, address) } : address,
  };
}

/** The audit's view of a change: the fields changed, before and after, with secrets never written out. */
function audited(before: ReturnType<typeof settingsView>, after: ReturnType<typeof settingsView>) {
  const changed = (Object.keys(after) as (keyof typeof after)[]).filter(
    (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
  return {
    before: Object.fromEntries(changed.map((key) => [key, before[key]])),
    after: Object.fromEntries(changed.map((key) => [key, after[key]])),
  };
}

const phoneFor: Record<SiteConfig['locale'], string> = { 'en-AU': '0412 345 678', 'en-NZ': '021 123 4567', 'en-US': '(415) 555-0134' };

/**
 * A site's settings (`settings.read`, `settings.write`): name, phone, colours, the per-site switches
 * and features (the shoppers' garage, how long sold cars stay listed, how long a car is "just arrived",
 * the chat provider), the search engines' title and description, third-party ids, the consent banner,
 * the menus, opening hours of each location, lead delivery targets and the
 * payment and webhook keys (write-only). A change is checked with the site's own contract
 * (siteConfigSchema, as the server reads it), saved whole or not at all, audited (secrets never written
 * out), and shoppers' next page shows it. `POST …/settings/test-lead` sends a test lead through the
 * site's delivery targets.
 */
export function consoleSettingsRoutes(scope: FastifyInstance, ctx: PlatformContext, { userOf, siteOf }: ConsoleRequests) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const schemaError = (error: z.ZodError) => ({ status: 400, body: { message: checkFields, fields: fieldErrors(error) } });
  const params = z.object({ site: z.string() });

  app.get(
    '/api/console/sites/:site/settings',
    { config: { console: 'settings.read' }, schema: { params, response: { 200: z.looseObject({}), ...refusals } } },
    async (request, reply) => {
      const site = await loadSiteConfig(ctx.db, siteOf(request).id);
      return site ? reply.send(settingsView(site)) : reply.code(404).send({ message: 'There is no such site.' });
    },
  );

  app.post(
    '/api/console/sites/:site/settings',
    {
      bodyLimit: 64 * 1024,
      config: { console: 'settings.write', schemaError },
      schema: { params, body: settingsBody, response: { 200: z.looseObject({}), ...refusals } },
    },
    async (request, reply) => {
      const user = userOf(request);
      const now = Date.now();
      // Applied to the site as it is now, so a change saved meanwhile (the stock summary, a logo) stays.
      const saved = await changeSiteConfig<Record<string, string> | null>(
        ctx.db,
        ctx.dialect,
        siteOf(request).id,
        (current) => {
          const next = applied(current, request.body);
          const checked = siteConfigSchema.safeParse(next);
          return checked.success ? { site: next, result: null } : { refused: fieldErrors(checked.error) };
        },
        now,
      );
      if (!saved) return reply.code(404).send({ message: 'There is no such site.' });
      if (!saved.after) return reply.code(400).send({ message: checkFields, fields: saved.result });
      const { before: current, after: next } = saved;
      const change = audited(settingsView(current), settingsView(next));
      if (Object.keys(change.after).length > 0)
        await insertAudit(
          ctx.db,
          { siteId: current.id, userId: user.id, userEmail: user.email, action: 'settings.write', target: 'settings', ...change },
          now,
        );
      // A location renamed or moved: its cars carry its name and town on their cards and in search.
      for (const location of next.locations) {
        const was = current.locations.find((one) => one.id === location.id);
        if (
          !was ||
          (was.name === location.name && was.address.city === location.address.city && was.address.state === location.address.state)
        )
          continue;
        const cars = await relabelLocationCars(ctx.db, ctx.dialect, next.id, {
          id: location.id,
          name: location.name,
          city: location.address.city,
          state: location.address.state,
        });
        await ctx.indexer
          .indexCars(next.id, cars)
          .catch((error: unknown) =>
            request.log.error({ err: error, locationId: location.id }, 'cars relabelled but not pushed to search'),
          );
      }
      ctx.sites.clear();
      return reply.send(settingsView(next));
    },
  );

  app.post(
    '/api/console/sites/:site/settings/test-lead',
    { bodyLimit: 1024, config: { console: 'settings.write' }, schema: { params, response: { 200: z.looseObject({}), ...refusals } } },
    async (request, reply) => {
      const user = userOf(request);
      ctx.sites.clear();
      const site = await ctx.sites.forId(siteOf(request).id);
      if (!site) return reply.code(404).send({ message: 'There is no such site.' });
      const answer = await ctx.leads.service.create({
        site,
        lead: {
          category: 'General Enquiry',
          name: 'Test',
          last_name: 'Lead',
          email: user.email,
          phone: phoneFor[site.locale],
          comments: `A test lead sent from the dealer console by ${user.email} to check where this site's leads arrive.`,
        },
        idempotencyKey: null,
        userAgent: 'dealer console (test lead)',
        ip: 'console',
        mock: false,
        trusted: true,
      });
      if (answer.status !== 200 && answer.status !== 201) return reply.code(answer.status >= 500 ? 502 : 400).send(answer.body);
      ctx.leads.worker.nudge();
      const leadId = (answer.body as { lead_id: number }).lead_id;
      return reply.send({
        lead_id: leadId,
        message: `Test lead ${leadId} sent to ${(site.secrets.lead_delivery ?? [{ kind: 'adf-file' }]).map((t) => t.kind).join(', ')}.`,
      });
    },
  );
}
