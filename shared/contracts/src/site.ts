import { z } from 'zod';
import { locationSchema } from './location';
import { remoteNames } from './remote-modules';
import { remoteRefSchema } from './remotes';
import { vehicleCategories } from './car';
import { searchFacetNames } from './car-values';

export const siteTemplates = [
  'dealer-group',
  'used-cars',
  'trucks',
  'motorcycles',
  'campers',
  'subscription-cars',
  'rental-cars',
  'toyota-pre-owned',
] as const;
export type SiteTemplate = (typeof siteTemplates)[number];

export const locales = ['en-AU', 'en-NZ', 'en-US'] as const;
export type SiteLocale = (typeof locales)[number];

/** A navigation entry; `to: true` is the SPEC's "link target of true" that renders nothing. */
export type NavLink = { label: string; to: string | true; children?: NavLink[]; dynamic?: 'stock' | 'brands' };
export const navLinkSchema: z.ZodType<NavLink> = z.lazy(() =>
  z.object({
    label: z.string(),
    to: z.union([z.string(), z.literal(true)]),
    children: z.array(navLinkSchema).optional(),
    dynamic: z.enum(['stock', 'brands']).optional(),
  }),
);

export const brandingSchema = z.object({
  primary: z.string(),
  primaryContrast: z.string(),
  accent: z.string(),
  surface: z.string(),
  text: z.string(),
  radius: z.string(),
});
export type Branding = z.infer<typeof brandingSchema>;

/** Per-site switch and version pin of one remote; version null follows the latest published. */
export const siteRemoteSettingSchema = z.object({
  name: z.enum(remoteNames),
  enabled: z.boolean(),
  version: z.string().nullable(),
});
export type SiteRemoteSetting = z.infer<typeof siteRemoteSettingSchema>;

/** Third-party identifiers the browser may see (SPEC §3); tokens and keys live in siteSecretsSchema. */
export const thirdPartyIdsSchema = z.object({
  google_site_verification: z.string().nullable(),
  google_analytics_id: z.string().nullable(),
  facebook_pixel: z.string().nullable(),
  livechat_agent_group: z.string().nullable(),
  podium_api_organization: z.string().nullable(),
  impel_chatbot_key: z.string().nullable(),
  /** The Zendesk Web Widget's key: public by design (it is in the widget's script address). */
  zendesk_key: z.string().nullable(),
  /** The LiveChat account (license number) whose `livechat_agent_group` takes the site's chats; public in LiveChat's snippet. */
  livechat_license: z.string().nullable().optional(),
  youx_provider_code: z.string().nullable(),
  xtime_url: z.string().nullable(),
  autobot: z.string().nullable(),
  dealercell: z.string().nullable(),
});

/**
 * Where a site's leads are delivered, as data (issue 5 lead pipeline). Addresses only: the webhook is
 * signed with the site's `lead_webhook_secret`, e-mail goes through the platform's SMTP_URL, and
 * `adf-file` writes ADF/XML documents into DATA_DIR/outbox/ (the local default of every site).
 */
export const leadDeliveryTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('adf-file') }),
  z.object({ kind: z.literal('webhook'), url: z.string().url() }),
  z.object({ kind: z.literal('adf-http'), url: z.string().url() }),
  z.object({ kind: z.literal('adf-email'), to: z.string().min(3), from: z.string().min(3).optional() }),
]);
export type LeadDeliveryTargetSetting = z.infer<typeof leadDeliveryTargetSchema>;

/** A hosted payment page's gateway (Till, St.George): where it takes payments and the merchant key that signs calls and notifications. */
export const hostedGatewaySchema = z.object({
  url: z.string().url(),
  key: z.string().min(16, 'a gateway key has at least 16 characters'),
});
export type HostedGatewaySettings = z.infer<typeof hostedGatewaySchema>;

/** Server-only values. Never serialised into a document, a bundle or a public response. */
export const siteSecretsSchema = z.object({
  podium_api_token: z.string().nullable(),
  stripe_secret_key: z.string().nullable(),
  stripe_webhook_secret: z.string().nullable(),
  lead_webhook_secret: z.string().nullable(),
  /**
   * Meta Conversions API access token for the site's `third_party.facebook_pixel`: server-side ad
   * events are POSTed to the Graph API with it. Absent or null: they are written to
   * DATA_DIR/outbox/ad-events/ instead (the local default).
   */
  facebook_capi_token: z.string().nullable().optional(),
  /** Deposits by hosted payment page, for cars whose processor is `till` or `st_george`; absent: not configured. */
  till: hostedGatewaySchema.nullable().optional(),
  st_george: hostedGatewaySchema.nullable().optional(),
  /** Lead delivery targets; absent: one `adf-file` target. Kept with the secrets since hook URLs often carry a key. */
  lead_delivery: z.array(leadDeliveryTargetSchema).optional(),
});
export type SiteSecrets = z.infer<typeof siteSecretsSchema>;

export const siteFeaturesSchema = z.object({
  redbook: z.boolean(),
  dealerstudio: z.boolean(),
  split_testing: z.boolean(),
  authentication: z.boolean(),
  stock_on_homepage: z.boolean(),
  pre_owned_redirect: z.boolean(),
  bot_protection: z.boolean(),
  mobile_only_phone: z.boolean(),
  fuel_tags: z.boolean(),
  plain_spinner: z.boolean(),
  show_postcode: z.boolean(),
  /** SPEC §2: on some sites the chat is also hidden on cars, locations and checkout-journey pages. */
  hide_chat_on_stock_pages: z.boolean().optional(),
  /** SPEC §9: this dealer takes deposits on coming-soon cars too ("status in_stock (or coming_soon on some dealers)"). */
  reserve_coming_soon: z.boolean().optional(),
  /** SPEC §2: the manufacturer site whose /blog links become /news. */
  blog_to_news: z.boolean().optional(),
  /** SPEC §2: the site serves its CMS pages under /pages/ (links keep the prefix, except the root pages SPEC names). */
  uses_pages_path: z.boolean().optional(),
  /** SPEC §5: Australian sites that also take New Zealand (and UK) numbers. */
  au_nz_phone: z.boolean().optional(),
  /**
   * Whose chat the 'Text us' button opens: a provider the site has ids for, or the platform's own
   * (`built_in`, a lead thread the dealer answers through the admin API). Absent: the first provider
   * with ids (Podium, LiveChat, Zendesk, Impel), else the built-in chat.
   */
  chat_provider: z.enum(['podium', 'livechat', 'zendesk', 'impel', 'built_in']).optional(),
});
export type SiteFeatures = z.infer<typeof siteFeaturesSchema>;

/**
 * How a site's leads are assembled and its forms start (SPEC §3 Lead payload, §5 opt_in). All
 * optional: a site without them gets the SPEC defaults (no forced slug, no primary push, no Yes/No
 * conversion, opt_in ticked, no consent wording, phone rule from the locale and `features`).
 */
export const leadSettingsSchema = z.object({
  /** SPEC §3: "On some sites the lead is forced to a fixed dealership slug." */
  forced_dealership_slug: z.string().nullable().optional(),
  /** SPEC §3: the slug and location id come from the primary location. */
  push_to_primary_location: z.boolean().optional(),
  /** SPEC §3: the one site whose 'Ready to sell', 'Valuation guide', 'Best Finance', 'Best Deal' become Yes/No. */
  yes_no_fields: z.boolean().optional(),
  /** SPEC §5 opt_in defaults to true; false starts it unticked (Spam Act consent). */
  opt_in_default: z.boolean().optional(),
  /** Shown beside opt_in and stored with every lead of the site. */
  consent_wording: z.string().nullable().optional(),
  /** SPEC §5: "The message (Comments) is required unless the dealer opts out": true opts out. */
  comments_optional: z.boolean().optional(),
  /** SPEC §5: "On one brand, ' - Service' is stripped from option labels" (its service centres are named '… - Service'). */
  strip_service_suffix: z.boolean().optional(),
  /** Mobile numbers only (SPEC §5); absent: `features.mobile_only_phone`. */
  mobile_only_phone: z.boolean().optional(),
  /** Test drives / service drop-offs one location takes at the same start time (defaults: 2 and 3). */
  /**
   * SPEC §7 mock mode for this site (a staging or demo site): its browser sends lead calls to /mock,
   * stored as mock and never delivered. Only when the platform serves /mock (LEADS_MOCK_MODE).
   */
  mock_mode: z.boolean().optional(),
  /** Offer test drive and service times on public holidays too (default: closed on them). */
  bookings_on_public_holidays: z.boolean().optional(),
  booking_capacity: z
    .object({ appointment: z.number().int().min(1).max(50).optional(), service: z.number().int().min(1).max(50).optional() })
    .optional(),
});
export type LeadSettings = z.infer<typeof leadSettingsSchema>;

/** The whole site configuration as stored (SPEC §3 "Site config"). */
export const siteConfigSchema = z.object({
  id: z.number().int(),
  template: z.enum(siteTemplates),
  name: z.string(),
  slug: z.string().regex(/^[a-z0-9-]+$/),
  url: z.string(),
  domain_name: z.string().nullable(),
  locale: z.enum(locales),
  vehicle_category: z.enum(vehicleCategories),
  dealership_id: z.number().int(),
  dealership_group: z.string().nullable(),
  manufacturer_id: z.number().int().nullable(),
  manufacturer: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  override_city: z.string().nullable(),
  address: z.object({ city: z.string(), state: z.string() }),
  phone: z.string(),
  locations: z.array(locationSchema),
  dealerships: z.array(
    z.object({ id: z.number().int(), slug: z.string(), name: z.string(), stripe_publishable_key: z.string().nullable() }),
  ),
  payment_provider: z.string().nullable(),
  finance_provider: z.string().nullable(),
  logo: z.object({ url: z.string(), thumb: z.string(), banner: z.string().nullable() }),
  branding: brandingSchema,
  garage_enabled: z.boolean(),
  garage_path: z.string(),
  offers_subscription: z.boolean(),
  include_sold_cars_days: z.number().int().nonnegative(),
  specifications: z.object({
    just_arrived_days: z.number().int(),
    just_arrived_tag_name: z.string(),
    sold_tag_name: z.string().nullable(),
  }),
  search_categories: z.array(z.object({ label: z.string(), path: z.string() })),
  default_search_path: z.string(),
  detail_path: z.enum(['/cars', '/motorcycles', '/campers']),
  finance_path: z.string(),
  search_filters: z.array(z.string()),
  /** SPEC §9: which per-site stock search filter applies (0 to 14; 0 or absent: none). */
  stock_filter_code: z.number().int().min(0).max(14).optional(),
  search_facets: z.array(z.enum(searchFacetNames, { error: `A search facet must be one of SPEC §3's: ${searchFacetNames.join(', ')}` })),
  default_sort: z.string(),
  promo_positions: z.array(z.number().int()),
  dealership_websites: z.array(z.object({ name: z.string(), url: z.string() })),
  stock: z.object({
    count: z.number().int(),
    makes: z.array(z.string()),
    make_models: z.record(z.string(), z.number().int()),
    car_types: z.record(z.string(), z.number().int()),
  }),
  blogs: z.number().int(),
  offers: z.number().int(),
  navigation: z.object({ header: z.array(navLinkSchema), footer: z.array(navLinkSchema) }),
  features: siteFeaturesSchema,
  lead_settings: leadSettingsSchema.optional(),
  third_party: thirdPartyIdsSchema,
  /** Ask the shopper's consent before any third-party tag loads (absent: tags load, deferred, unless refused). */
  consent_banner: z.boolean().optional(),
  secrets: siteSecretsSchema,
  remotes: z.array(siteRemoteSettingSchema),
  seo: z.object({ title: z.string(), description: z.string() }),
});
export type SiteConfig = z.infer<typeof siteConfigSchema>;

/** What a browser gets: the config less secrets and remote settings, plus resolved remotes and search access. */
export const publicSiteConfigSchema = siteConfigSchema.omit({ secrets: true, remotes: true }).extend({
  remotes: z.array(remoteRefSchema),
  search: z.object({ host: z.string(), apiKey: z.string(), indexUid: z.string() }),
  /** SPEC §7: where the browser's lead calls go: `/api`, or `/mock` when the platform runs in mock mode. */
  api_prefix: z.enum(['/api', '/mock']),
  /** This browser previews the site at remote versions chosen in the dealer console (the `dp_preview` cookie); absent otherwise. */
  preview: z.literal(true).optional(),
  /** The preview shows the dealer's unpublished pages, posts and offers too (a console Content preview link). */
  preview_drafts: z.literal(true).optional(),
});
export type PublicSiteConfig = z.infer<typeof publicSiteConfigSchema>;

/**
 * What a server-rendered page's first scripts need of its site before its app starts: the analytics
 * sink (its tag ids and consent rule) and the app's start (the consent rule, the site's saved cars).
 * The server writes it into the document's `app-start`, so a page a shopper only reads never fetches
 * the whole public config (tens of KB: every location's hours), which the app fetches as it starts.
 */
export type DocumentSite = Pick<PublicSiteConfig, 'slug' | 'consent_banner' | 'third_party'>;

/** The document's part of a site's public config (`DocumentSite`), no more. */
export const documentSite = ({ slug, consent_banner, third_party }: DocumentSite): DocumentSite => ({
  slug,
  ...(consent_banner === undefined ? {} : { consent_banner }),
  third_party,
});
