import type { ColumnType, Generated } from 'kysely';

/** JSON is kept as text in both engines so one set of queries serves SQLite and PostgreSQL. */
export interface SitesTable {
  id: number;
  slug: string;
  domain_name: string | null;
  config: string;
  updated_at: number;
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
}

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
  events: EventsTable;
}
