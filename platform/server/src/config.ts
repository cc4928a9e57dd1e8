import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { LeadsConfig } from '@dealer/leads/lead-settings';
import type { CodeLimits } from './accounts/sign-in';
import type { SearchBudget } from '@dealer/search-engine/search-budget';

/** A yes/no switch from the environment: 1/true/yes/on or 0/false/no/off. */
const flag = (name: string, fallback = false) =>
  z
    .string()
    .regex(/^(1|0|true|false|yes|no|on|off)$/i, `${name} must be one of 1, 0, true, false, yes, no, on, off`)
    .optional()
    .transform((value) => (value === undefined ? fallback : /^(1|true|yes|on)$/i.test(value)));

const megabyte = 1024 * 1024;

const wholeNumber = (name: string, fallback: number, min: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${min}`)
    .default(fallback);

/** A whole number from the environment where 0 turns the thing off. */
const offOrMore = (name: string, fallback: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .min(0, `${name} must be 0 (off) or more`)
    .default(fallback);

const milliseconds = (name: string, fallback: number, min: number) =>
  z.coerce
    .number({ error: `${name} must be a number of milliseconds` })
    .int(`${name} must be a whole number of milliseconds`)
    .min(min, `${name} must be at least ${min}`)
    .default(fallback);

/** Names proxy-addr understands for the loopback, link-local and private (unique local) ranges. */
const proxyRangeNames = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An IP address, an address with a CIDR prefix length, or one of proxy-addr's range names. */
function isProxyAddress(entry: string): boolean {
  if (proxyRangeNames.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

// The form Meilisearch gives API key uids in, and the only one generateTenantToken accepts.
const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** Image renders at once: every core but one, so drawing photos never takes the whole machine from pages and leads. */
const defaultRenderConcurrency = Math.max(1, availableParallelism() - 1);

const baseEnvSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// or postgresql:// URL')
    .optional(),
  PLATFORM_ADMIN_KEY: z.string().min(16, 'PLATFORM_ADMIN_KEY must be at least 16 characters').optional(),
  PUBLIC_ORIGIN_SUFFIX: z
    .string()
    .regex(/^[a-z0-9.-]+(:\d+)?$/i, 'PUBLIC_ORIGIN_SUFFIX must look like "localhost:3000" or "sites.example.com"')
    .optional(),
  REMOTES_DIR: z.string().min(1).default('./dist/remotes'),
  REMOTES_BASE_URL: z.string().url('REMOTES_BASE_URL must be an absolute URL').optional(),
  SHELL_CLIENT_DIR: z.string().min(1).default('./shell/dist/client'),
  CONSOLE_CLIENT_DIR: z.string().min(1).default('./console/dist/client'),
  SEARCH_KEY_SECRET: z.string().min(16).optional(),
  SEARCH_ADMIN_KEY: z.string().min(16, 'SEARCH_ADMIN_KEY must be at least 16 characters').optional(),
  MEILISEARCH_URL: z
    .string()
    .regex(/^https?:\/\/[^\s/]+/, 'MEILISEARCH_URL must be an http:// or https:// URL such as http://127.0.0.1:7700')
    .pipe(z.url('MEILISEARCH_URL must be an http:// or https:// URL such as http://127.0.0.1:7700'))
    .optional(),
  MEILISEARCH_MASTER_KEY: z.string().min(16, 'MEILISEARCH_MASTER_KEY must be at least 16 characters').optional(),
  MEILISEARCH_SEARCH_KEY: z.string().min(1).optional(),
  MEILISEARCH_SEARCH_KEY_UID: z
    .string()
    .regex(uuidV4, 'MEILISEARCH_SEARCH_KEY_UID must be the uid (a UUID v4) of the MEILISEARCH_SEARCH_KEY key')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // The HTTP edge: who may say where a request came from, and how long a client may take.
  TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .refine((entries) => entries.every(isProxyAddress), {
      error:
        'TRUSTED_PROXIES must be IP addresses or CIDR ranges separated by commas, e.g. 10.0.0.1,10.1.0.0/16 (or loopback, linklocal, uniquelocal)',
    }),
  // How long the server waits for a page's remotes and data before it leaves that part to the browser.
  SERVER_RENDER_BUDGET_MS: milliseconds('SERVER_RENDER_BUDGET_MS', 250, 10),
  // What the parts server renders repeat (header, footer, result cards) may hold in memory; 0 = off.
  KEPT_MARKUP_MB: z.coerce
    .number({ error: 'KEPT_MARKUP_MB must be a whole number of megabytes' })
    .int('KEPT_MARKUP_MB must be a whole number of megabytes')
    .min(0, 'KEPT_MARKUP_MB must be 0 (off) or more')
    .max(4096, 'KEPT_MARKUP_MB must be at most 4096')
    .default(16),
  // Page render threads beside the main thread (0: none); by default every core but one, at most four.
  RENDER_THREADS: offOrMore('RENDER_THREADS', Math.min(4, availableParallelism() - 1)),
  HTTP_HEADERS_TIMEOUT_MS: milliseconds('HTTP_HEADERS_TIMEOUT_MS', 15_000, 100),
  HTTP_REQUEST_TIMEOUT_MS: milliseconds('HTTP_REQUEST_TIMEOUT_MS', 90_000, 100),
  HTTP_IDLE_TIMEOUT_MS: milliseconds('HTTP_IDLE_TIMEOUT_MS', 30_000, 100),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: milliseconds('HTTP_KEEP_ALIVE_TIMEOUT_MS', 72_000, 100),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: offOrMore('HTTP_MAX_CONNECTIONS_PER_ADDRESS', 64),
  HSTS_MAX_AGE_SECONDS: z.coerce
    .number({ error: 'HSTS_MAX_AGE_SECONDS must be a number of seconds' })
    .int('HSTS_MAX_AGE_SECONDS must be a whole number of seconds')
    .min(0, 'HSTS_MAX_AGE_SECONDS must be 0 or more (0 tells browsers to forget it)')
    .default(31_536_000),
  CHAT_POLL_RATE_LIMIT: offOrMore('CHAT_POLL_RATE_LIMIT', 60),
  EVENTS_RATE_LIMIT: offOrMore('EVENTS_RATE_LIMIT', 120),
  // How long the event log keeps each event (13 months: a year to compare with, and a month to spare); its daily counts stay.
  EVENTS_RETENTION_DAYS: z.coerce
    .number({ error: 'EVENTS_RETENTION_DAYS must be a number of days' })
    .int('EVENTS_RETENTION_DAYS must be a whole number of days')
    .min(1, 'EVENTS_RETENTION_DAYS must be at least 1')
    .default(400),
  SEARCH_RATE_LIMIT: offOrMore('SEARCH_RATE_LIMIT', 3000),
  // What one request with a site's public search key may ask for, summed over its queries.
  SEARCH_PUBLIC_MAX_QUERIES: wholeNumber('SEARCH_PUBLIC_MAX_QUERIES', 30, 1),
  SEARCH_PUBLIC_MAX_HITS: wholeNumber('SEARCH_PUBLIC_MAX_HITS', 100, 1),
  SEARCH_PUBLIC_MAX_FACETS: wholeNumber('SEARCH_PUBLIC_MAX_FACETS', 64, 1),
  SEARCH_PUBLIC_MAX_HIGHLIGHTS: wholeNumber('SEARCH_PUBLIC_MAX_HIGHLIGHTS', 1000, 0),
  SEARCH_PUBLIC_MAX_FILTER_KB: wholeNumber('SEARCH_PUBLIC_MAX_FILTER_KB', 64, 1),
  // The image endpoint draws photos on demand: bound the work and the disk it may take.
  IMAGE_CACHE_MAX_MB: z.coerce
    .number({ error: 'IMAGE_CACHE_MAX_MB must be a number of megabytes' })
    .int('IMAGE_CACHE_MAX_MB must be a whole number of megabytes')
    .min(1, 'IMAGE_CACHE_MAX_MB must be at least 1')
    .default(1024),
  IMAGE_RENDER_CONCURRENCY: z.coerce
    .number({ error: 'IMAGE_RENDER_CONCURRENCY must be a whole number' })
    .int('IMAGE_RENDER_CONCURRENCY must be a whole number')
    .min(1, 'IMAGE_RENDER_CONCURRENCY must be at least 1')
    .max(64)
    .default(defaultRenderConcurrency),
  IMAGE_RENDER_QUEUE: z.coerce
    .number({ error: 'IMAGE_RENDER_QUEUE must be a whole number' })
    .int('IMAGE_RENDER_QUEUE must be a whole number')
    .min(0, 'IMAGE_RENDER_QUEUE must be 0 or more')
    .default(32),
  IMAGE_RENDER_SMALL_CONCURRENCY: z.coerce
    .number({ error: 'IMAGE_RENDER_SMALL_CONCURRENCY must be a whole number' })
    .int('IMAGE_RENDER_SMALL_CONCURRENCY must be a whole number')
    .min(1, 'IMAGE_RENDER_SMALL_CONCURRENCY must be at least 1')
    .max(64, 'IMAGE_RENDER_SMALL_CONCURRENCY must be at most 64')
    .default(1),
  IMAGE_RENDERS_PER_ADDRESS: z.coerce
    .number({ error: 'IMAGE_RENDERS_PER_ADDRESS must be a whole number' })
    .int('IMAGE_RENDERS_PER_ADDRESS must be a whole number')
    .min(0, 'IMAGE_RENDERS_PER_ADDRESS must be 0 (off) or more')
    .default(24),
  IMAGE_RENDER_RATE_LIMIT: z.coerce
    .number({ error: 'IMAGE_RENDER_RATE_LIMIT must be a whole number' })
    .int('IMAGE_RENDER_RATE_LIMIT must be a whole number')
    .min(0, 'IMAGE_RENDER_RATE_LIMIT must be 0 (off) or more')
    .default(240),
  // The lead pipeline (issue 5).
  LEADS_MOCK_MODE: flag('LEADS_MOCK_MODE'),
  LEAD_TOKEN_SECRET: z.string().min(16, 'LEAD_TOKEN_SECRET must be at least 16 characters').optional(),
  LEADS_RATE_LIMIT: z.coerce
    .number({ error: 'LEADS_RATE_LIMIT must be a whole number' })
    .int('LEADS_RATE_LIMIT must be a whole number')
    .min(0, 'LEADS_RATE_LIMIT must be 0 (off) or more')
    .default(20),
  LEADS_RATE_WINDOW_SECONDS: z.coerce
    .number({ error: 'LEADS_RATE_WINDOW_SECONDS must be a number of seconds' })
    .int()
    .min(1, 'LEADS_RATE_WINDOW_SECONDS must be at least 1')
    .default(600),
  LEADS_MIN_FILL_MS: z.coerce.number({ error: 'LEADS_MIN_FILL_MS must be a number of milliseconds' }).int().min(0).default(2000),
  // Upcoming test drive and service bookings one shopper (e-mail or phone) may hold: at one location on one
  // day (a test drive and a service, or two cars), and on the whole site; and one address at one location on
  // one day (a showroom's wifi is one address). 0 switches a limit off (issue 4).
  BOOKINGS_PER_CONTACT_PER_DAY: z.coerce
    .number({ error: 'BOOKINGS_PER_CONTACT_PER_DAY must be a whole number' })
    .int('BOOKINGS_PER_CONTACT_PER_DAY must be a whole number')
    .min(0, 'BOOKINGS_PER_CONTACT_PER_DAY must be 0 (off) or more')
    .default(2),
  BOOKINGS_PER_CONTACT_UPCOMING: z.coerce
    .number({ error: 'BOOKINGS_PER_CONTACT_UPCOMING must be a whole number' })
    .int('BOOKINGS_PER_CONTACT_UPCOMING must be a whole number')
    .min(0, 'BOOKINGS_PER_CONTACT_UPCOMING must be 0 (off) or more')
    .default(4),
  BOOKINGS_PER_ADDRESS_PER_DAY: z.coerce
    .number({ error: 'BOOKINGS_PER_ADDRESS_PER_DAY must be a whole number' })
    .int('BOOKINGS_PER_ADDRESS_PER_DAY must be a whole number')
    .min(0, 'BOOKINGS_PER_ADDRESS_PER_DAY must be 0 (off) or more')
    .default(4),
  LEAD_UPLOAD_MAX_BYTES: z.coerce
    .number({ error: 'LEAD_UPLOAD_MAX_BYTES must be a number of bytes' })
    .int()
    .min(1024, 'LEAD_UPLOAD_MAX_BYTES must be at least 1024')
    .default(10 * 1024 * 1024),
  LEAD_UPLOAD_MAX_FILES: z.coerce
    .number({ error: 'LEAD_UPLOAD_MAX_FILES must be a whole number' })
    .int()
    .min(1, 'LEAD_UPLOAD_MAX_FILES must be at least 1')
    .max(100)
    .default(10),
  LEAD_UPLOAD_MAX_MB_PER_LEAD: wholeNumber('LEAD_UPLOAD_MAX_MB_PER_LEAD', 25, 1),
  LEAD_UPLOAD_MAX_MB_PER_ADDRESS_PER_DAY: wholeNumber('LEAD_UPLOAD_MAX_MB_PER_ADDRESS_PER_DAY', 100, 1),
  LEAD_UPLOAD_MAX_MB_PER_SITE_PER_DAY: wholeNumber('LEAD_UPLOAD_MAX_MB_PER_SITE_PER_DAY', 2048, 1),
  LEAD_DELIVERY_WORKER: flag('LEAD_DELIVERY_WORKER', true),
  LEAD_DELIVERY_POLL_MS: z.coerce
    .number({ error: 'LEAD_DELIVERY_POLL_MS must be a number of milliseconds' })
    .int()
    .min(10, 'LEAD_DELIVERY_POLL_MS must be at least 10')
    .default(250),
  LEAD_DELIVERY_BACKOFF_MS: z
    .string()
    .regex(/^\s*\d+(\s*,\s*\d+)*\s*$/, 'LEAD_DELIVERY_BACKOFF_MS must be milliseconds separated by commas, e.g. 1000,5000,30000')
    .default('1000,5000,30000,120000,600000,1800000,3600000'),
  LEAD_DELIVERY_MAX_ATTEMPTS: z.coerce
    .number({ error: 'LEAD_DELIVERY_MAX_ATTEMPTS must be a whole number' })
    .int()
    .min(1, 'LEAD_DELIVERY_MAX_ATTEMPTS must be at least 1')
    .max(100)
    .default(8),
  LEAD_DELIVERY_LEASE_MS: z.coerce
    .number({ error: 'LEAD_DELIVERY_LEASE_MS must be a number of milliseconds' })
    .int()
    .min(1000)
    .default(120_000),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'SMTP_URL must be an smtp:// or smtps:// URL')
    .optional(),
  // Trade-in rego lookup (SPEC §7): a vehicle register behind an HTTP API; without one, the demo register.
  /**
   * Card deposits: `test` (the default) takes them with the built-in test provider and Stripe's test
   * card numbers, offline; `live` sends each car's deposit to its own processor (Stripe, Till or
   * St.George) with the site's keys, and a site without them says so to the shopper.
   */
  PAYMENTS: z.enum(['test', 'live'], { error: 'PAYMENTS must be test or live' }).default('test'),
  /** Where the Stripe adapter calls Stripe's API (a test double or a proxy); absent: api.stripe.com. */
  STRIPE_API_URL: z
    .string()
    .regex(/^https?:\/\/[^/]+\/?$/, 'STRIPE_API_URL must be an http:// or https:// origin, e.g. http://127.0.0.1:12111')
    .optional(),
  RESERVATION_HOLDS_PER_PERSON: z.coerce
    .number({ error: 'RESERVATION_HOLDS_PER_PERSON must be a whole number' })
    .int('RESERVATION_HOLDS_PER_PERSON must be a whole number')
    .min(0, 'RESERVATION_HOLDS_PER_PERSON must be 0 (off) or more')
    .default(2),
  REGO_LOOKUP_URL: z
    .string()
    .regex(/^https?:\/\//, 'REGO_LOOKUP_URL must be an http:// or https:// URL')
    .optional(),
  REGO_LOOKUP_KEY: z.string().min(1).optional(),
  LEAD_EMAIL_FROM: z.string().min(3).default('leads@dealer-platform.localhost'),
  // Shopper accounts and the garage (issue 11): the sender of their e-mail (shown as the site's name) and how often alerts are looked for.
  ACCOUNT_EMAIL_FROM: z
    .string()
    .regex(/^[^\s<>@]+@[^\s<>@]+$/, 'ACCOUNT_EMAIL_FROM must be a plain e-mail address such as no-reply@example.com')
    .default('no-reply@dealer-platform.localhost'),
  GARAGE_ALERT_INTERVAL_MS: milliseconds('GARAGE_ALERT_INTERVAL_MS', 60_000, 1000),
  // Sign-in codes sent to one address in an hour: from one connection, and from all together (issue 7).
  SIGN_IN_CODES_PER_ADDRESS_AND_CLIENT: z.coerce
    .number({ error: 'SIGN_IN_CODES_PER_ADDRESS_AND_CLIENT must be a whole number' })
    .int('SIGN_IN_CODES_PER_ADDRESS_AND_CLIENT must be a whole number')
    .min(1, 'SIGN_IN_CODES_PER_ADDRESS_AND_CLIENT must be at least 1')
    .default(5),
  SIGN_IN_CODES_PER_ADDRESS: z.coerce
    .number({ error: 'SIGN_IN_CODES_PER_ADDRESS must be a whole number' })
    .int('SIGN_IN_CODES_PER_ADDRESS must be a whole number')
    .min(2, 'SIGN_IN_CODES_PER_ADDRESS must be at least 2')
    .default(10),
  // Dealer console sign-in codes sent to one address in an hour, from everyone together (issue 23).
  CONSOLE_SIGN_IN_CODES_PER_ADDRESS: z.coerce
    .number({ error: 'CONSOLE_SIGN_IN_CODES_PER_ADDRESS must be a whole number' })
    .int('CONSOLE_SIGN_IN_CODES_PER_ADDRESS must be a whole number')
    .min(1, 'CONSOLE_SIGN_IN_CODES_PER_ADDRESS must be at least 1')
    .default(10),
  // Server-side ad events (issue 11): forwarded to the Meta Conversions API on this Graph API host (a test double or a proxy in tests).
  FACEBOOK_GRAPH_URL: z
    .string()
    .regex(
      /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/,
      'FACEBOOK_GRAPH_URL must be an http:// or https:// URL without a query, e.g. https://graph.facebook.com',
    )
    .default('https://graph.facebook.com'),
  AD_EVENTS_RATE_LIMIT: z.coerce
    .number({ error: 'AD_EVENTS_RATE_LIMIT must be a whole number' })
    .int('AD_EVENTS_RATE_LIMIT must be a whole number')
    .min(0, 'AD_EVENTS_RATE_LIMIT must be 0 (off) or more')
    .default(60),
  // Sent ad events (their rows and the files written for sites without a token) are kept this long. At least
  // 7 days: an unsent event is retried that long, and its kept id refuses a repeat within Meta's 48-hour window.
  AD_EVENTS_RETENTION_DAYS: z.coerce
    .number({ error: 'AD_EVENTS_RETENTION_DAYS must be a number of days' })
    .int('AD_EVENTS_RETENTION_DAYS must be a whole number of days')
    .min(7, 'AD_EVENTS_RETENTION_DAYS must be at least 7 (an unsent ad event is retried for 7 days)')
    .default(30),
  // Inventory feeds and their photos are fetched from addresses dealers type: never from this machine or a private
  // network unless this is on (tests, the e2e server and the bench serve feeds from 127.0.0.1).
  FEEDS_ALLOW_PRIVATE_ADDRESSES: flag('FEEDS_ALLOW_PRIVATE_ADDRESSES'),
});

/**
 * Rules across variables. The headers are part of the request, so their limit cannot be the longer.
 * A real Meilisearch needs all of its settings: the indexer writes with the master key, browsers
 * search with tenant tokens signed by the search key.
 */
const envSchema = baseEnvSchema.superRefine((env, ctx) => {
  // Else one stranger's connection alone could use up the codes of someone else's address.
  if (env.SIGN_IN_CODES_PER_ADDRESS <= env.SIGN_IN_CODES_PER_ADDRESS_AND_CLIENT) {
    ctx.addIssue({
      code: 'custom',
      path: ['SIGN_IN_CODES_PER_ADDRESS'],
      message: 'SIGN_IN_CODES_PER_ADDRESS must be more than SIGN_IN_CODES_PER_ADDRESS_AND_CLIENT',
    });
  }
  if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
    ctx.addIssue({
      code: 'custom',
      path: ['HTTP_HEADERS_TIMEOUT_MS'],
      message: 'HTTP_HEADERS_TIMEOUT_MS must not be longer than HTTP_REQUEST_TIMEOUT_MS',
    });
  }
  if (!env.MEILISEARCH_URL) return;
  for (const name of ['MEILISEARCH_MASTER_KEY', 'MEILISEARCH_SEARCH_KEY', 'MEILISEARCH_SEARCH_KEY_UID'] as const) {
    if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: `${name} is required when MEILISEARCH_URL is set` });
  }
});

/** Where the platform's search runs: its own embedded engine, or a Meilisearch server. */
export type MeilisearchConfig = { url: string; masterKey: string; searchKey: string; searchKeyUid: string };

export type PlatformConfig = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  adminKey: string;
  adminKeyGenerated: boolean;
  publicOriginSuffix: string | null;
  remotesDir: string;
  remotesBaseUrl: string | null;
  shellClientDir: string;
  /** How long a server render waits for remotes and data before it leaves that part to the browser. */
  serverRenderBudgetMs: number;
  /** Bytes the parts server renders repeat may hold (0: every page renders them all). */
  keptMarkupBytes: number;
  /** Threads that render pages beside the main thread (0: pages render on the main thread). */
  renderThreads: number;
  /** The dealer console's browser build (served at /console-assets/ on the console's host). */
  consoleClientDir: string;
  searchKeySecret: string;
  searchKeySecretGenerated: boolean;
  /** The key the indexer uses on the embedded engine's /meili API. Never handed to a browser. */
  searchAdminKey: string;
  searchAdminKeyGenerated: boolean;
  /** Set: search runs on this Meilisearch and browsers get tenant tokens. Null: the embedded engine. */
  meilisearch: MeilisearchConfig | null;
  logLevel: z.infer<typeof baseEnvSchema>['LOG_LEVEL'];
  http: HttpConfig;
  /**
   * Analytics and remote-failure events the browser posts: per IP and site per minute before a 429
   * (0: no limit), and the days each is kept (then deleted, its site's daily counts kept).
   */
  events: { ratePerMinute: number; retentionDays: number };
  /** Searches a site's browser key makes at `/meili`: per IP and site per minute before a 429 (0: no limit). A shopper typing fast makes two or three a second. */
  search: { ratePerMinute: number; publicBudget: SearchBudget };
  images: ImagesConfig;
  leads: LeadsConfig;
  payments: PaymentsConfig;
  /**
   * Unpaid holds one shopper may have on a site at once, counted apart by e-mail, by phone and by
   * client address (0: no limit), so one identity cannot keep a yard of cars from everyone else.
   */
  reservations: { holdsPerPerson: number };
  /** Trade-in rego lookup: a register's HTTP API (key kept on the server), or null for the demo register. */
  regoLookup: { url: string; key: string | null } | null;
  accounts: AccountsConfig;
  adEvents: AdEventsConfig;
  /** Polls for new messages per conversation token per minute before a 429 (0: no limit). An open chat window asks every `chatPollMs` (4 s) and once more per message it gets. */
  chat: { pollsPerMinute: number };
  /** Inventory feeds (issue 24): whether a feed or its photos may be fetched from a private or loopback address. */
  feeds: { allowPrivateAddresses: boolean };
};

/** Server-side ad events (issue 11, `POST /api/fb-events`). */
export type AdEventsConfig = {
  /** Posts per IP and site per minute before a 429 (0: no limit). A page sends two or three. */
  ratePerMinute: number;
  /** The Graph API's base URL, without a trailing slash; the version and pixel follow it. */
  graphUrl: string;
  /** Days a sent or given-up event's row, and the file written for a site without a token, are kept. */
  retentionDays: number;
};

/** Shopper accounts and the garage (issue 11). Their e-mail goes through SMTP_URL like leads', or into DATA_DIR/outbox/mail. */
export type AccountsConfig = {
  /** The sender's address; the site's name is shown with it. */
  emailFrom: string;
  /** How often the garage alert sweep looks at the cars changed since its last look. */
  alertIntervalMs: number;
  /** Sign-in codes sent to one address on a site in an hour. */
  signInCodes: CodeLimits;
  /** Dealer console sign-in codes sent to one address in an hour. */
  consoleCodesPerHour: number;
};

/** Card deposits (issue 10). */
export type PaymentsConfig = {
  mode: 'test' | 'live';
  /** Stripe's API origin, when not api.stripe.com. */
  stripeApi: { host: string; port: number; protocol: 'http' | 'https' } | null;
};

/** The HTTP edge (issue 9). */
export type HttpConfig = {
  /**
   * Proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (addresses or CIDR ranges).
   * Empty: none, so the client is the socket's peer and nobody can pick their own address.
   */
  trustedProxies: string[];
  /** A client must have sent all its headers within this time (slow headers: slowloris). */
  headersTimeoutMs: number;
  /** …and its whole request, body included (slow bodies); long enough for a lead's uploads on a slow phone. */
  requestTimeoutMs: number;
  /** A connection with no bytes either way for this long is closed. */
  idleTimeoutMs: number;
  /** How long a kept-alive connection waits for its next request; longer than a load balancer's usual 60 s idle. */
  keepAliveTimeoutMs: number;
  /**
   * Connections one client address (an IPv6 /64) may hold open at once; beyond it a new one is
   * closed at once (0: no cap). The socket's own address, as no header has been read yet, so the
   * trusted proxies, whose connections carry every shopper behind them, are never capped.
   */
  maxConnectionsPerAddress: number;
  /** Strict-Transport-Security max-age on answers to requests that came over https. */
  hstsMaxAgeSeconds: number;
};

/** The image endpoint's bounds (issue 9). */
export type ImagesConfig = {
  /** Rendered photos kept on disk, least recently used dropped beyond this. */
  cacheMaxBytes: number;
  /** Photos drawn at once… */
  renderConcurrency: number;
  /** …and drawings that may wait for a turn, in each lane (large photos, small ones); beyond that a 503 with Retry-After. */
  renderQueue: number;
  /** Drawings of photos up to 640 px that may run beside those, so a thumbnail never waits behind large photos. */
  smallRenderConcurrency: number;
  /** Drawings one client address may have waiting or running at once (0: no limit); beyond it a 429. */
  rendersPerAddress: number;
  /** Drawings one client address may start in a minute (0: no limit); beyond it a 429. */
  renderRatePerMinute: number;
};

export class ConfigError extends Error {}

/** Reads the environment once at start; a bad value stops the platform with a message naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): PlatformConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = resolve(cwd, e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? null,
    adminKey: e.PLATFORM_ADMIN_KEY ?? randomBytes(24).toString('base64url'),
    adminKeyGenerated: !e.PLATFORM_ADMIN_KEY,
    publicOriginSuffix: e.PUBLIC_ORIGIN_SUFFIX ?? null,
    remotesDir: resolve(cwd, e.REMOTES_DIR),
    remotesBaseUrl: e.REMOTES_BASE_URL?.replace(/\/$/, '') ?? null,
    shellClientDir: resolve(cwd, e.SHELL_CLIENT_DIR),
    serverRenderBudgetMs: e.SERVER_RENDER_BUDGET_MS,
    keptMarkupBytes: e.KEPT_MARKUP_MB * 1024 * 1024,
    renderThreads: e.RENDER_THREADS,
    consoleClientDir: resolve(cwd, e.CONSOLE_CLIENT_DIR),
    searchKeySecret: e.SEARCH_KEY_SECRET ?? randomBytes(24).toString('base64url'),
    searchKeySecretGenerated: !e.SEARCH_KEY_SECRET,
    searchAdminKey: e.SEARCH_ADMIN_KEY ?? randomBytes(24).toString('base64url'),
    searchAdminKeyGenerated: !e.SEARCH_ADMIN_KEY,
    meilisearch: e.MEILISEARCH_URL
      ? {
          url: e.MEILISEARCH_URL.replace(/\/$/, ''),
          masterKey: e.MEILISEARCH_MASTER_KEY!,
          searchKey: e.MEILISEARCH_SEARCH_KEY!,
          searchKeyUid: e.MEILISEARCH_SEARCH_KEY_UID!,
        }
      : null,
    logLevel: e.LOG_LEVEL,
    http: {
      trustedProxies: e.TRUSTED_PROXIES,
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      idleTimeoutMs: e.HTTP_IDLE_TIMEOUT_MS,
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnectionsPerAddress: e.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
      hstsMaxAgeSeconds: e.HSTS_MAX_AGE_SECONDS,
    },
    events: { ratePerMinute: e.EVENTS_RATE_LIMIT, retentionDays: e.EVENTS_RETENTION_DAYS },
    search: {
      ratePerMinute: e.SEARCH_RATE_LIMIT,
      publicBudget: {
        queries: e.SEARCH_PUBLIC_MAX_QUERIES,
        hits: e.SEARCH_PUBLIC_MAX_HITS,
        facets: e.SEARCH_PUBLIC_MAX_FACETS,
        highlightedFields: e.SEARCH_PUBLIC_MAX_HIGHLIGHTS,
        filterBytes: e.SEARCH_PUBLIC_MAX_FILTER_KB * 1024,
      },
    },
    images: {
      cacheMaxBytes: e.IMAGE_CACHE_MAX_MB * 1024 * 1024,
      renderConcurrency: e.IMAGE_RENDER_CONCURRENCY,
      renderQueue: e.IMAGE_RENDER_QUEUE,
      smallRenderConcurrency: e.IMAGE_RENDER_SMALL_CONCURRENCY,
      rendersPerAddress: e.IMAGE_RENDERS_PER_ADDRESS,
      renderRatePerMinute: e.IMAGE_RENDER_RATE_LIMIT,
    },
    payments: { mode: e.PAYMENTS, stripeApi: e.STRIPE_API_URL ? apiOrigin(e.STRIPE_API_URL) : null },
    reservations: { holdsPerPerson: e.RESERVATION_HOLDS_PER_PERSON },
    regoLookup: e.REGO_LOOKUP_URL ? { url: e.REGO_LOOKUP_URL, key: e.REGO_LOOKUP_KEY ?? null } : null,
    accounts: {
      emailFrom: e.ACCOUNT_EMAIL_FROM,
      alertIntervalMs: e.GARAGE_ALERT_INTERVAL_MS,
      signInCodes: { perAddressAndClient: e.SIGN_IN_CODES_PER_ADDRESS_AND_CLIENT, perAddress: e.SIGN_IN_CODES_PER_ADDRESS },
      consoleCodesPerHour: e.CONSOLE_SIGN_IN_CODES_PER_ADDRESS,
    },
    adEvents: {
      ratePerMinute: e.AD_EVENTS_RATE_LIMIT,
      graphUrl: e.FACEBOOK_GRAPH_URL.replace(/\/+$/, ''),
      retentionDays: e.AD_EVENTS_RETENTION_DAYS,
    },
    chat: { pollsPerMinute: e.CHAT_POLL_RATE_LIMIT },
    feeds: { allowPrivateAddresses: e.FEEDS_ALLOW_PRIVATE_ADDRESSES },
    leads: {
      mockMode: e.LEADS_MOCK_MODE,
      tokenSecret: e.LEAD_TOKEN_SECRET ?? randomBytes(32).toString('base64url'),
      tokenSecretGenerated: !e.LEAD_TOKEN_SECRET,
      rateLimit: { max: e.LEADS_RATE_LIMIT, windowMs: e.LEADS_RATE_WINDOW_SECONDS * 1000 },
      minFillMs: e.LEADS_MIN_FILL_MS,
      bookingLimits: {
        perContactPerDay: e.BOOKINGS_PER_CONTACT_PER_DAY,
        perContactUpcoming: e.BOOKINGS_PER_CONTACT_UPCOMING,
        perAddressPerDay: e.BOOKINGS_PER_ADDRESS_PER_DAY,
      },
      uploads: {
        maxBytes: e.LEAD_UPLOAD_MAX_BYTES,
        maxFiles: e.LEAD_UPLOAD_MAX_FILES,
        maxBytesPerLead: e.LEAD_UPLOAD_MAX_MB_PER_LEAD * megabyte,
        maxBytesPerAddressPerDay: e.LEAD_UPLOAD_MAX_MB_PER_ADDRESS_PER_DAY * megabyte,
        maxBytesPerSitePerDay: e.LEAD_UPLOAD_MAX_MB_PER_SITE_PER_DAY * megabyte,
      },
      delivery: {
        worker: e.LEAD_DELIVERY_WORKER,
        pollMs: e.LEAD_DELIVERY_POLL_MS,
        backoffMs: e.LEAD_DELIVERY_BACKOFF_MS.split(',').map((part) => Number(part.trim())),
        maxAttempts: e.LEAD_DELIVERY_MAX_ATTEMPTS,
        leaseMs: e.LEAD_DELIVERY_LEASE_MS,
        smtpUrl: e.SMTP_URL ?? null,
        emailFrom: e.LEAD_EMAIL_FROM,
      },
    },
  };
}

function apiOrigin(url: string): PaymentsConfig['stripeApi'] {
  const parsed = new URL(url);
  const protocol = parsed.protocol === 'http:' ? 'http' : 'https';
  return { host: parsed.hostname, port: parsed.port ? Number(parsed.port) : protocol === 'http' ? 80 : 443, protocol };
}

function keptKey(dataDir: string, file: string, generated: string): string {
  const path = join(dataDir, file);
  if (existsSync(path)) {
    const kept = readFileSync(path, 'utf8').trim();
    if (kept) return kept;
  }
  writeFileSync(path, generated, { mode: 0o600 });
  return generated;
}

/**
 * Locally, generated keys are kept under DATA_DIR (mode 600) so restarts, the server and the
 * CLI agree on them. A key given in the environment is never written. DATA_DIR must exist.
 */
export function keepGeneratedKeys(config: PlatformConfig): void {
  if (config.adminKeyGenerated) config.adminKey = keptKey(config.dataDir, 'admin-key', config.adminKey);
  // Search keys handed to open tabs are signed with this: a restart must not make them invalid.
  if (config.searchKeySecretGenerated) config.searchKeySecret = keptKey(config.dataDir, 'search-key-secret', config.searchKeySecret);
  if (config.searchAdminKeyGenerated) config.searchAdminKey = keptKey(config.dataDir, 'search-admin-key', config.searchAdminKey);
  if (config.leads.tokenSecretGenerated) config.leads.tokenSecret = keptKey(config.dataDir, 'lead-token-secret', config.leads.tokenSecret);
}
