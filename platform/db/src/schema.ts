import type { ColumnType, Generated } from 'kysely';
import type { ContentKind } from '@dealer/contracts/content';

/** JSON is kept as text in both engines so one set of queries serves SQLite and PostgreSQL. */
export interface SitesTable {
  id: number;
  slug: string;
  domain_name: string | null;
  config: string;
  updated_at: number;
  /** When the site's content (pages, posts, offers, jobs, reviews) last changed on the site (migration 0023); only ever moves on. */
  content_updated_at: ColumnType<number, number | undefined, number>;
}

export interface SiteRemotesTable {
  site_id: number;
  remote: string;
  enabled: number;
  version: string | null;
  updated_at: number;
}

export interface LocationsTable {
  id: number;
  site_id: number;
  dealership_id: number;
  slug: string;
  location_type: string;
  data: string;
}

export interface CarsTable {
  id: number;
  site_id: number;
  slug: string;
  dealership_id: number;
  location_id: number;
  status: string;
  car_type: string;
  make: string;
  model: string;
  price: number;
  show_on_dealer_website: number;
  sold_date_timestamp: number | null;
  updated_at: number;
  data: string;
  /** The car's stock number and VIN (migration 0021), for feeds and the console to find it by. */
  stocknum: ColumnType<string | null, string | null | undefined, string | null>;
  vin: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface LeadsTable {
  id: Generated<number>;
  site_id: number;
  category: string;
  lead_status: string;
  idempotency_key: string | null;
  payload: string;
  created_at: number;
  updated_at: number;
  /** Random per lead; the update token is an HMAC of the lead id and this salt (never stored itself). */
  token_salt: string | null;
  /** sha256 of the normalised create body, to tell a retry from a different body under one Idempotency-Key. */
  request_hash: string | null;
  /** Set: held as suspected spam (honeypot, time trap), stored but not delivered until released. */
  spam_reason: string | null;
  /** When the lead became complete (its deliveries were enqueued then, unless held or mock). */
  completed_at: number | null;
  form_completed: ColumnType<number, number | undefined, number>;
  has_files: ColumnType<number, number | undefined, number>;
  /** Saved through /mock: answered like a real lead, never delivered. */
  mock: ColumnType<number, number | undefined, number>;
  /** The dealer's workflow (console): new → contacted → appointment → sold / lost. */
  dealer_status: ColumnType<LeadDealerStatus, LeadDealerStatus | undefined, LeadDealerStatus>;
  /** The console user the lead is assigned to. */
  assignee_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export const leadDealerStatuses = ['new', 'contacted', 'appointment', 'sold', 'lost'] as const;
export type LeadDealerStatus = (typeof leadDealerStatuses)[number];

export type DeliveryJobStatus = 'pending' | 'failed' | 'delivered' | 'dead';

/** The outbox: one job per lead and delivery target, claimed by a worker with a token and a lease. */
export interface LeadDeliveryJobsTable {
  id: Generated<number>;
  lead_id: number;
  site_id: number;
  /** The site's target as data (JSON), resolved to an address and secret when delivered. */
  target: string;
  status: DeliveryJobStatus;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: number;
  claim_token: string | null;
  claimed_until: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
}

/** One row per delivery attempt, with what the target answered. */
export interface LeadDeliveryLogTable {
  id: Generated<number>;
  job_id: number;
  lead_id: number;
  site_id: number;
  attempt: number;
  target_kind: string;
  outcome: 'delivered' | 'failed' | 'dead';
  status: string;
  detail: string;
  duration_ms: number;
  created_at: number;
}

/** A shopper's upload: stored under DATA_DIR/uploads/<site>/<lead>/<random>.<ext>, never under its own name. */
export interface LeadFilesTable {
  id: Generated<number>;
  lead_id: number;
  site_id: number;
  /** Relative to DATA_DIR/uploads. */
  path: string;
  content_type: string;
  size: number;
  /** The shopper's file name, for the dealer's eyes only (cleaned, never used as a path). */
  original_name: string;
  created_at: number;
}

/**
 * A seat at a location's test drive or service start time, taken by a lead. A partial lead only
 * holds it until `held_until`; a completed lead's booking has none (confirmed).
 */
export interface BookingsTable {
  id: Generated<number>;
  site_id: number;
  lead_id: number;
  location_id: number;
  kind: 'appointment' | 'service';
  starts_at: number;
  seat: number;
  held_until: number | null;
  created_at: number;
  /** Who took the seat, as the booking limits count them (null: not given, or a seat from before they were kept). */
  booker_email: string | null;
  booker_phone: string | null;
  booker_address: string | null;
}

/** A half-hour block a car is out on a test drive, taken by a lead (held like its booking). */
export interface CarHoldsTable {
  id: Generated<number>;
  site_id: number;
  lead_id: number;
  car_id: number;
  block_start: number;
  held_until: number | null;
  created_at: number;
}

/** A dealer's key to its own site's admin routes; the key itself is never stored, only its SHA-256. */
export interface DealerKeysTable {
  id: Generated<number>;
  site_id: number;
  /** Who holds it, in the dealer's words ('Sales manager', 'CRM import'). */
  label: string;
  /** Hex SHA-256 of the whole key. */
  key_hash: string;
  created_at: number;
  revoked_at: number | null;
}

export interface ReservationsTable {
  id: Generated<number>;
  site_id: number;
  car_id: number;
  /** The car while this reservation holds it (holding or reserved), else null: unique, so one holder a car. */
  active_car_id: number | null;
  state: 'holding' | 'reserved' | 'expired' | 'cancelled' | 'released' | 'refunded';
  /** Until when a `holding` reservation keeps the car (ms since the epoch). */
  held_until: number;
  provider: string;
  amount_cents: number;
  currency: string;
  /** The payment provider's id of the payment (a PaymentIntent's `pi_…`), once there is one. */
  payment_ref: string | null;
  refund_ref: string | null;
  /** The shopper's contact details, JSON. */
  customer: string;
  /** SHA-256 of the secret the shopper's browser holds to act on its own reservation. */
  secret_hash: string;
  /** The lead that tells the dealer, once reserved. */
  lead_id: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  /** Who holds, as the per-person hold limit counts them: e-mail in lower case, phone in the site's national digits, client address (an IPv6 /64). Null on rows from before the limit. */
  holder_email: string | null;
  holder_phone: string | null;
  holder_address: string | null;
}

/** A shopper's account on one site (issue 11): signed in by a code or link sent to the address. */
export interface ShoppersTable {
  id: Generated<number>;
  site_id: number;
  /** Trimmed and lower-cased: one account per address and site. */
  email: string;
  name: string | null;
  created_at: number;
  /** Bumped by every change that counts the shopper's rows, so two such changes take turns (PostgreSQL row lock). */
  updated_at: number;
  signed_in_at: number;
}

/** A sign-in code and link sent to an address: live until used, expired or tried wrongly too often. */
export interface ShopperSignInCodesTable {
  id: Generated<number>;
  site_id: number;
  email: string;
  /** Random per code, hashed in with it. */
  salt: string;
  /** Hex HMAC-SHA256 of salt and code, keyed with a key derived from the server secret. */
  code_hash: string;
  /** Hex SHA-256 of the link's token. */
  token_hash: string;
  /** Keyed hash of the connection (IPv4 address, IPv6 /64) that asked for the code; '' for codes made before it was kept. */
  requester: ColumnType<string, string | undefined, string>;
  /** Tries of the code so far from the connection that asked for it, right or wrong; none is taken beyond the limit. */
  tries: ColumnType<number, number | undefined, number>;
  /** …and from all other connections together, with a limit of their own. */
  other_tries: ColumnType<number, number | undefined, number>;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export interface ShopperSessionsTable {
  /** Hex SHA-256 of the `dp_session` cookie's value (the value itself is never stored). */
  id_hash: string;
  shopper_id: number;
  site_id: number;
  created_at: number;
  expires_at: number;
}

/** A car in a shopper's garage (the watchlist), with its price when saved: a drop below it is alerted. */
export interface GarageSavedCarsTable {
  shopper_id: number;
  car_id: number;
  site_id: number;
  saved_price: number;
  created_at: number;
}

/** A saved search: the search page the browser showed, and the Meilisearch filter and words that alert on arrivals. */
export interface GarageSearchesTable {
  id: Generated<number>;
  shopper_id: number;
  site_id: number;
  name: string;
  path: string;
  /** JSON: a Meilisearch filter (an expression, or the array form). Null: no alerts (a bookmark). */
  filter: string | null;
  q: string | null;
  created_at: number;
}

export type GarageAlertKind = 'price_drop' | 'new_match';

/** An alert sent: one per shopper, car and kind, ever. */
export interface GarageAlertsTable {
  shopper_id: number;
  car_id: number;
  kind: GarageAlertKind;
  search_id: number | null;
  created_at: number;
}

export interface GarageAlertProgressTable {
  name: string;
  /** The cars changed up to this time (cars.updated_at, ms) have been looked at. */
  scanned_until: number;
}

export type ShopperMailStatus = 'pending' | 'failed' | 'sent' | 'dead' | 'expired';

/** A shopper's e-mail, kept until delivered; its body is erased once it is sent or given up. */
export interface ShopperMailTable {
  id: Generated<number>;
  site_id: number;
  email: string;
  kind: 'sign-in' | 'garage-alert';
  subject: string;
  body: string;
  status: ShopperMailStatus;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: number;
  /** A sign-in e-mail is worthless after its code expires: not sent after this. */
  expires_at: number | null;
  claim_token: string | null;
  claimed_until: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
  /** A garage alert's one-click unsubscribe address (its List-Unsubscribe header); null for a sign-in e-mail (migration 0020). */
  list_unsubscribe: string | null;
}

/** Where an opt-out was made: the `/unsubscribe` page's form, a mail program's one-click, or the e-mail's link. */
export type MailOptOutSource = 'page' | 'one-click' | 'link';

/**
 * An address that wants no more offers or alert e-mails from a site (migration 0020). The address
 * is trimmed and lower case, as sign-in stores it. Sign-in codes the address asks for still go.
 */
export interface MailOptOutsTable {
  site_id: number;
  email: string;
  source: MailOptOutSource;
  created_at: number;
}

export type AdEventStatus = 'pending' | 'failed' | 'sent' | 'dead' | 'expired';

/**
 * A server-side ad conversion event (issue 11), kept until it is forwarded to the Meta Conversions
 * API. One row per site and browser event id: the pixel's event carries the same id, so Meta
 * counts the two once, and a repeat post is not stored again. No raw personal data: `payload` holds
 * the Conversions API event with the shopper's details as SHA-256 hashes (plus the client's IP and
 * user agent, which the API takes as they are), and is erased once the event is sent or given up.
 */
export interface AdEventsTable {
  id: Generated<number>;
  site_id: number;
  /** The id the browser pixel's event was given (its eventID): Meta's deduplication key. */
  event_id: string;
  event_name: string;
  /** The Conversions API event (JSON), without the pixel id or the access token; '' once over. */
  payload: string;
  status: AdEventStatus;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: number;
  claim_token: string | null;
  claimed_until: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
}

export type ChatAuthor = 'shopper' | 'dealer';

/**
 * A conversation of the built-in chat (issue 11). It started as a lead (its first message), written
 * in the lead's transaction, and is deleted with it. The shopper's token is an HMAC of the id and
 * `token_salt` (never stored itself).
 */
export interface ChatThreadsTable {
  id: Generated<number>;
  site_id: number;
  lead_id: number;
  token_salt: string;
  name: string;
  phone: string;
  email: string;
  created_at: number;
  /** The latest message's time: the dealer's list is newest activity first. */
  updated_at: number;
  /** Who wrote the latest message: 'shopper' means the dealer has yet to answer. */
  last_author: ChatAuthor;
  /** Messages so far, both sides: counted in the same update that admits one, so the cap holds under races. */
  message_count: ColumnType<number, number | undefined, number>;
}

export interface ChatMessagesTable {
  id: Generated<number>;
  thread_id: number;
  author: ChatAuthor;
  /** The dealer's person who answered; null for the shopper. */
  author_name: string | null;
  body: string;
  /** The shopper's own id of the message: unique per conversation, so a retry is stored once. Null for the dealer's. */
  client_message_id: string | null;
  created_at: number;
}

export interface EventsTable {
  id: Generated<number>;
  site_id: number | null;
  category: string;
  url: string | null;
  error_message: string | null;
  payload: string;
  created_at: ColumnType<number, number, never>;
}

/**
 * How many events of a kind a site's log had on a day (UTC), kept after the events themselves are
 * deleted (EVENTS_RETENTION_DAYS): added to in the transaction that deletes them. `category` is the
 * event's (page_view, event_22, remote_load_failed, …), or `other` for one the platform does not send.
 */
export interface EventDailyCountsTable {
  site_id: number;
  /** YYYY-MM-DD, UTC. */
  day: string;
  category: string;
  count: number;
}

/* ---------------------------------------------------------- the dealer console (issue 23) */

export interface ConsoleUsersTable {
  id: Generated<number>;
  /** Lower case. */
  email: string;
  name: string | null;
  created_at: number;
  updated_at: number;
  signed_in_at: number | null;
}

export const consoleRoleNames = ['operator', 'group_admin', 'site_admin', 'staff'] as const;
export type ConsoleRoleName = (typeof consoleRoleNames)[number];

/** operator: site_id and dealer_group null; group_admin: dealer_group set; site_admin, staff: site_id set. */
export interface ConsoleRolesTable {
  id: Generated<number>;
  user_id: number;
  role: ConsoleRoleName;
  site_id: number | null;
  dealer_group: string | null;
  created_at: number;
}

export interface ConsoleSignInCodesTable {
  id: Generated<number>;
  email: string;
  salt: string;
  code_hash: string;
  token_hash: string;
  tries: ColumnType<number, number | undefined, number>;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export interface ConsoleSessionsTable {
  /** sha256 of the cookie's value. */
  id_hash: string;
  user_id: number;
  user_agent: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

export interface ConsoleMailTable {
  id: Generated<number>;
  email: string;
  subject: string;
  body: string;
  status: ShopperMailStatus;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: number;
  expires_at: number | null;
  claim_token: string | null;
  claimed_until: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
}

export interface ConsoleAuditTable {
  id: Generated<number>;
  site_id: number | null;
  user_id: number | null;
  user_email: string;
  action: string;
  /** What was changed ('lead 42', 'remote mf-search', 'user 7'). */
  target: string;
  /** JSON of the values before and after. */
  before: string | null;
  after: string | null;
  created_at: number;
}

export interface LeadNotesTable {
  id: Generated<number>;
  lead_id: number;
  user_id: number | null;
  author: string;
  body: string;
  created_at: number;
}

/** A picture a dealer uploaded, processed and named by the hash of its bytes (migration 0018). */
export interface SiteImagesTable {
  hash: string;
  site_id: number;
  /** What it is for: 'logo' (issue 24 adds car photos). */
  kind: string;
  content_type: string;
  width: number;
  height: number;
  bytes: Buffer;
  created_at: number;
}

export type FeedSchedule = 'off' | 'hourly' | 'daily';
export type FeedImportSource = 'upload' | 'url';
export type FeedImportStatus = 'previewed' | 'running' | 'done' | 'failed';

/** A site's inventory feed (migration 0022): its column mapping (JSON, field → column), where it is pulled from and when next. */
export interface FeedSettingsTable {
  site_id: number;
  mapping: string | null;
  url: string | null;
  schedule: FeedSchedule;
  next_pull_at: number | null;
  /** The import running now, and until when its lease holds (renewed while it runs). */
  import_id: number | null;
  import_until: number | null;
  updated_at: number;
}

/** One import of a feed: the CSV as uploaded or fetched (emptied once applied), its mapping, and its progress and report (JSON). */
export interface FeedImportsTable {
  id: Generated<number>;
  site_id: number;
  source: FeedImportSource;
  status: FeedImportStatus;
  csv: Buffer;
  mapping: string | null;
  report: string | null;
  progress: string | null;
  error: string | null;
  created_at: number;
  finished_at: number | null;
}

/** A photo a feed named, already fetched and stored (site_images) under `hash`. */
export interface FeedPhotosTable {
  site_id: number;
  url: string;
  hash: string;
  fetched_at: number;
}

/**
 * A page, news post, special offer or job of a site (migration 0023). The versions are JSON of the
 * kind's contract (shared/contracts content.ts), checked by the server before they are stored.
 */
export interface SiteContentTable {
  id: Generated<number>;
  site_id: number;
  kind: ContentKind;
  slug: string;
  /** The version being edited; null: no changes that are not on the site. */
  draft: string | null;
  /** The version shoppers see; null: not on the site. */
  published: string | null;
  /** When it was first published (a post's date). */
  published_at: number | null;
  /** An offer's end or a job's closing, from the published version: it leaves the site's lists then. */
  expires_at: number | null;
  updated_at: number;
  /** The console user who last changed it. */
  updated_by: number | null;
}

/** A review of one of the site's locations, as fetched from its source ('google'). */
export interface LocationReviewsTable {
  id: Generated<number>;
  site_id: number;
  location_id: number;
  source: string;
  external_id: string;
  author: string;
  rating: number;
  text: string;
  reviewed_at: number;
  fetched_at: number;
}

export interface PlatformDatabase {
  sites: SitesTable;
  site_remotes: SiteRemotesTable;
  locations: LocationsTable;
  cars: CarsTable;
  leads: LeadsTable;
  lead_delivery_jobs: LeadDeliveryJobsTable;
  lead_delivery_log: LeadDeliveryLogTable;
  lead_files: LeadFilesTable;
  bookings: BookingsTable;
  car_holds: CarHoldsTable;
  dealer_keys: DealerKeysTable;
  reservations: ReservationsTable;
  shoppers: ShoppersTable;
  shopper_sign_in_codes: ShopperSignInCodesTable;
  shopper_sessions: ShopperSessionsTable;
  garage_saved_cars: GarageSavedCarsTable;
  garage_searches: GarageSearchesTable;
  garage_alerts: GarageAlertsTable;
  garage_alert_progress: GarageAlertProgressTable;
  shopper_mail: ShopperMailTable;
  mail_opt_outs: MailOptOutsTable;
  ad_events: AdEventsTable;
  chat_threads: ChatThreadsTable;
  chat_messages: ChatMessagesTable;
  events: EventsTable;
  event_daily_counts: EventDailyCountsTable;
  console_users: ConsoleUsersTable;
  console_roles: ConsoleRolesTable;
  console_sign_in_codes: ConsoleSignInCodesTable;
  console_sessions: ConsoleSessionsTable;
  console_mail: ConsoleMailTable;
  site_images: SiteImagesTable;
  console_audit: ConsoleAuditTable;
  lead_notes: LeadNotesTable;
  feed_settings: FeedSettingsTable;
  feed_imports: FeedImportsTable;
  feed_photos: FeedPhotosTable;
  site_content: SiteContentTable;
  location_reviews: LocationReviewsTable;
}
