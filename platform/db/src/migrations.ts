import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { consoleMigration } from './console-migration';
import { contentMigration } from './content-migration';
import { feedMigration } from './feed-migration';
import { leadSearchMigration } from './lead-search-migration';
import { mailOptOutMigration } from './mail-opt-out-migration';
import { siteImageMigration } from './site-image-migration';
import { stockNumberMigration } from './stock-number-migration';
import type { DatabaseEngine } from './database-engine';

/** One set of migrations for both engines; only the auto-increment key differs. */
export function platformMigrations(engine: DatabaseEngine): MigrationProvider {
  const migrations: Record<string, Migration> = {
    '0001_sites_locations_cars_leads': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('sites')
          .addColumn('id', 'integer', (c) => c.primaryKey())
          .addColumn('slug', 'text', (c) => c.notNull().unique())
          .addColumn('domain_name', 'text', (c) => c.unique())
          .addColumn('config', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('site_remotes')
          .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
          .addColumn('remote', 'text', (c) => c.notNull())
          .addColumn('enabled', 'integer', (c) => c.notNull())
          .addColumn('version', 'text')
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('site_remotes_pk', ['site_id', 'remote'])
          .execute();
        await db.schema
          .createTable('locations')
          .addColumn('id', 'integer', (c) => c.primaryKey())
          .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
          .addColumn('dealership_id', 'integer', (c) => c.notNull())
          .addColumn('slug', 'text', (c) => c.notNull())
          .addColumn('location_type', 'text', (c) => c.notNull())
          .addColumn('data', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('cars')
          .addColumn('id', 'integer', (c) => c.primaryKey())
          .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
          .addColumn('slug', 'text', (c) => c.notNull())
          .addColumn('dealership_id', 'integer', (c) => c.notNull())
          .addColumn('location_id', 'integer', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('car_type', 'text', (c) => c.notNull())
          .addColumn('make', 'text', (c) => c.notNull())
          .addColumn('model', 'text', (c) => c.notNull())
          .addColumn('price', 'double precision', (c) => c.notNull())
          .addColumn('show_on_dealer_website', 'integer', (c) => c.notNull())
          .addColumn('sold_date_timestamp', 'bigint')
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addColumn('data', 'text', (c) => c.notNull())
          .addUniqueConstraint('cars_site_slug', ['site_id', 'slug'])
          .execute();
        await db.schema
          .createTable('leads')
          .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', (c) =>
            engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id'))
          .addColumn('category', 'text', (c) => c.notNull())
          .addColumn('lead_status', 'text', (c) => c.notNull())
          .addColumn('idempotency_key', 'text')
          .addColumn('payload', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addUniqueConstraint('leads_site_idempotency', ['site_id', 'idempotency_key'])
          .execute();
        await db.schema.createIndex('leads_site_created').on('leads').columns(['site_id', 'created_at']).execute();
        await db.schema
          .createTable('events')
          .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', (c) =>
            engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('site_id', 'integer')
          .addColumn('category', 'text', (c) => c.notNull())
          .addColumn('url', 'text')
          .addColumn('error_message', 'text')
          .addColumn('payload', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull().defaultTo(sql`0`))
          .execute();
        await db.schema.createIndex('events_site_created').on('events').columns(['site_id', 'created_at']).execute();
      },
    },
    /**
     * The lead pipeline: what a lead needs for updates, idempotent retries, spam holds, mock mode and
     * files, and the outbox its deliveries go through (jobs plus one log row per attempt).
     */
    '0002_lead_pipeline': {
      async up(db: Kysely<unknown>) {
        const autoId = (table: string) =>
          db.schema
            .createTable(table)
            .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', (c) =>
              engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
            );
        const addLeadColumns: [string, 'text' | 'integer' | 'bigint', boolean][] = [
          ['token_salt', 'text', false],
          ['request_hash', 'text', false],
          ['spam_reason', 'text', false],
          ['completed_at', 'bigint', false],
          ['form_completed', 'integer', true],
          ['has_files', 'integer', true],
          ['mock', 'integer', true],
        ];
        for (const [name, type, flag] of addLeadColumns) {
          await db.schema
            .alterTable('leads')
            .addColumn(name, type, (c) => (flag ? c.notNull().defaultTo(name === 'form_completed' ? 1 : 0) : c))
            .execute();
        }
        // Leads written before the pipeline keep their state; none is enqueued for delivery now
        // (a dealer would get a flood of old leads), the admin list and CSV still show them.
        await sql`UPDATE leads SET completed_at = created_at WHERE lead_status <> 'Incomplete'`.execute(db);
        await sql`UPDATE leads SET form_completed = 0 WHERE lead_status = 'Incomplete'`.execute(db);

        await autoId('lead_delivery_jobs')
          .addColumn('lead_id', 'bigint', (c) => c.notNull().references('leads.id').onDelete('cascade'))
          .addColumn('site_id', 'integer', (c) => c.notNull())
          .addColumn('target', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
          .addColumn('claim_token', 'text')
          .addColumn('claimed_until', 'bigint')
          .addColumn('last_error', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addColumn('delivered_at', 'bigint')
          .execute();
        await db.schema.createIndex('lead_delivery_jobs_due').on('lead_delivery_jobs').columns(['status', 'next_attempt_at']).execute();
        await db.schema.createIndex('lead_delivery_jobs_lead').on('lead_delivery_jobs').columns(['lead_id']).execute();

        await autoId('lead_delivery_log')
          .addColumn('job_id', 'bigint', (c) => c.notNull().references('lead_delivery_jobs.id').onDelete('cascade'))
          .addColumn('lead_id', 'bigint', (c) => c.notNull())
          .addColumn('site_id', 'integer', (c) => c.notNull())
          .addColumn('attempt', 'integer', (c) => c.notNull())
          .addColumn('target_kind', 'text', (c) => c.notNull())
          .addColumn('outcome', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('detail', 'text', (c) => c.notNull())
          .addColumn('duration_ms', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('lead_delivery_log_lead').on('lead_delivery_log').columns(['lead_id', 'id']).execute();

        await autoId('lead_files')
          .addColumn('lead_id', 'bigint', (c) => c.notNull().references('leads.id').onDelete('cascade'))
          .addColumn('site_id', 'integer', (c) => c.notNull())
          .addColumn('path', 'text', (c) => c.notNull())
          .addColumn('content_type', 'text', (c) => c.notNull())
          .addColumn('size', 'integer', (c) => c.notNull())
          .addColumn('original_name', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('lead_files_lead').on('lead_files').columns(['lead_id']).execute();
      },
    },
    '0003_bookings': {
      async up(db: Kysely<unknown>) {
        // One row per seat taken at a location's start time: the unique index is what stops two
        // shoppers taking the last seat at once, on SQLite and PostgreSQL alike.
        await db.schema
          .createTable('bookings')
          .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', (c) =>
            engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('site_id', 'integer', (c) => c.notNull())
          .addColumn('lead_id', 'bigint', (c) => c.notNull().references('leads.id').onDelete('cascade'))
          .addColumn('location_id', 'integer', (c) => c.notNull())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('starts_at', 'bigint', (c) => c.notNull())
          .addColumn('seat', 'integer', (c) => c.notNull())
          .addColumn('held_until', 'bigint')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('bookings_seat')
          .on('bookings')
          .columns(['location_id', 'kind', 'starts_at', 'seat'])
          .unique()
          .execute();
        await db.schema.createIndex('bookings_lead').on('bookings').columns(['lead_id', 'kind']).execute();
      },
    },
    '0004_car_holds': {
      async up(db: Kysely<unknown>) {
        // A car on a test drive is out for an hour: one row per half-hour block it is out, so the
        // unique index refuses a second test drive of the same car over any of those blocks.
        await db.schema
          .createTable('car_holds')
          .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', (c) =>
            engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('site_id', 'integer', (c) => c.notNull())
          .addColumn('lead_id', 'bigint', (c) => c.notNull().references('leads.id').onDelete('cascade'))
          .addColumn('car_id', 'integer', (c) => c.notNull())
          .addColumn('block_start', 'bigint', (c) => c.notNull())
          .addColumn('held_until', 'bigint')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('car_holds_block').on('car_holds').columns(['car_id', 'block_start']).unique().execute();
        await db.schema.createIndex('car_holds_lead').on('car_holds').columns(['lead_id']).execute();
      },
    },
    '0005_dealer_keys': {
      async up(db: Kysely<unknown>) {
        // A dealer's own key to its site's leads: only its SHA-256 is kept, the key is shown once.
        await db.schema
          .createTable('dealer_keys')
          .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', (c) =>
            engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
          .addColumn('label', 'text', (c) => c.notNull())
          .addColumn('key_hash', 'text', (c) => c.notNull().unique())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('revoked_at', 'bigint')
          .execute();
        await db.schema.createIndex('dealer_keys_site').on('dealer_keys').columns(['site_id']).execute();
        // The admin listings page newest first by (created_at, id): these indexes walk a page without
        // sorting, and replace the (site_id, created_at) ones they start with.
        for (const table of ['leads', 'events']) {
          await db.schema.createIndex(`${table}_site_created_id`).on(table).columns(['site_id', 'created_at', 'id']).execute();
          await db.schema.dropIndex(`${table}_site_created`).execute();
        }
      },
    },
    '0006_reservations': {
      async up(db: Kysely<unknown>) {
        // A shopper's hold on a car while paying its deposit, then the reservation it becomes.
        // `active_car_id` is the car while the row holds it (holding or reserved) and null after:
        // its unique index lets one row at a time hold a car, whoever races for it.
        await db.schema
          .createTable('reservations')
          .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', (c) =>
            engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
          .addColumn('car_id', 'integer', (c) => c.notNull())
          .addColumn('active_car_id', 'integer', (c) => c.unique())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('held_until', 'bigint', (c) => c.notNull())
          .addColumn('provider', 'text', (c) => c.notNull())
          .addColumn('amount_cents', 'integer', (c) => c.notNull())
          .addColumn('currency', 'text', (c) => c.notNull())
          .addColumn('payment_ref', 'text', (c) => c.unique())
          .addColumn('refund_ref', 'text')
          .addColumn('customer', 'text', (c) => c.notNull())
          .addColumn('secret_hash', 'text', (c) => c.notNull())
          .addColumn('lead_id', 'bigint', (c) => c.references('leads.id'))
          .addColumn('last_error', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('reservations_site_created_id').on('reservations').columns(['site_id', 'created_at', 'id']).execute();
        await db.schema.createIndex('reservations_car').on('reservations').columns(['car_id']).execute();
      },
    },
    '0007_shopper_accounts': {
      async up(db: Kysely<unknown>) {
        const autoId = (table: string) =>
          db.schema
            .createTable(table)
            .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', (c) =>
              engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
            );
        // A shopper's account belongs to one site: the same address on two sites is two accounts.
        await autoId('shoppers')
          .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
          .addColumn('email', 'text', (c) => c.notNull())
          .addColumn('name', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addColumn('signed_in_at', 'bigint', (c) => c.notNull())
          .addUniqueConstraint('shoppers_site_email', ['site_id', 'email'])
          .execute();
        // Sign-in codes by address (an address may have no account yet); the code and link token only as hashes.
        await autoId('shopper_sign_in_codes')
          .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
          .addColumn('email', 'text', (c) => c.notNull())
          .addColumn('salt', 'text', (c) => c.notNull())
          .addColumn('code_hash', 'text', (c) => c.notNull())
          .addColumn('token_hash', 'text', (c) => c.notNull().unique())
          .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .addColumn('used_at', 'bigint')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('shopper_sign_in_codes_address')
          .on('shopper_sign_in_codes')
          .columns(['site_id', 'email', 'created_at'])
          .execute();
        await db.schema
          .createTable('shopper_sessions')
          .addColumn('id_hash', 'text', (c) => c.primaryKey())
          .addColumn('shopper_id', 'bigint', (c) => c.notNull().references('shoppers.id').onDelete('cascade'))
          .addColumn('site_id', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('shopper_sessions_shopper').on('shopper_sessions').columns(['shopper_id', 'created_at']).execute();
        await db.schema.createIndex('shopper_sessions_expires').on('shopper_sessions').columns(['expires_at']).execute();
        // No key to cars: a car may leave the store and come back under its id; the garage shows what is there.
        await db.schema
          .createTable('garage_saved_cars')
          .addColumn('shopper_id', 'bigint', (c) => c.notNull().references('shoppers.id').onDelete('cascade'))
          .addColumn('car_id', 'integer', (c) => c.notNull())
          .addColumn('site_id', 'integer', (c) => c.notNull())
          .addColumn('saved_price', 'double precision', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('garage_saved_cars_pk', ['shopper_id', 'car_id'])
          .execute();
        await db.schema.createIndex('garage_saved_cars_car').on('garage_saved_cars').columns(['car_id']).execute();
        await autoId('garage_searches')
          .addColumn('shopper_id', 'bigint', (c) => c.notNull().references('shoppers.id').onDelete('cascade'))
          .addColumn('site_id', 'integer', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('path', 'text', (c) => c.notNull())
          .addColumn('filter', 'text')
          .addColumn('q', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('garage_searches_shopper').on('garage_searches').columns(['shopper_id']).execute();
        await db.schema.createIndex('garage_searches_site').on('garage_searches').columns(['site_id']).execute();
        // One row per alert sent: the primary key is what makes an alert go out once per shopper, car and kind.
        await db.schema
          .createTable('garage_alerts')
          .addColumn('shopper_id', 'bigint', (c) => c.notNull().references('shoppers.id').onDelete('cascade'))
          .addColumn('car_id', 'integer', (c) => c.notNull())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('search_id', 'bigint')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('garage_alerts_pk', ['shopper_id', 'car_id', 'kind'])
          .execute();
        // How far the alert sweep has read the cars changed (by cars.updated_at, hence the index).
        await db.schema
          .createTable('garage_alert_progress')
          .addColumn('name', 'text', (c) => c.primaryKey())
          .addColumn('scanned_until', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('cars_updated_at').on('cars').columns(['updated_at', 'id']).execute();
        // Shoppers' e-mail (sign-in codes, alerts), delivered by its own small outbox with retries.
        await autoId('shopper_mail')
          .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
          .addColumn('email', 'text', (c) => c.notNull())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('subject', 'text', (c) => c.notNull())
          .addColumn('body', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
          .addColumn('expires_at', 'bigint')
          .addColumn('claim_token', 'text')
          .addColumn('claimed_until', 'bigint')
          .addColumn('last_error', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addColumn('sent_at', 'bigint')
          .execute();
        await db.schema.createIndex('shopper_mail_due').on('shopper_mail').columns(['status', 'next_attempt_at']).execute();
        await db.schema.createIndex('shopper_mail_address').on('shopper_mail').columns(['site_id', 'email']).execute();
      },
    },
    '0008_ad_events': {
      async up(db: Kysely<unknown>) {
        // Server-side ad events on their way to the Meta Conversions API (issue 11). The unique key is
        // the deduplication: a second post of one browser event id is not stored, nor sent, again.
        await db.schema
          .createTable('ad_events')
          .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', (c) =>
            engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
          .addColumn('event_id', 'text', (c) => c.notNull())
          .addColumn('event_name', 'text', (c) => c.notNull())
          .addColumn('payload', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
          .addColumn('claim_token', 'text')
          .addColumn('claimed_until', 'bigint')
          .addColumn('last_error', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addColumn('sent_at', 'bigint')
          .addUniqueConstraint('ad_events_site_event', ['site_id', 'event_id'])
          .execute();
        await db.schema.createIndex('ad_events_due').on('ad_events').columns(['status', 'next_attempt_at']).execute();
        // Rows are dropped whole once older than the retention (their id no longer needed for deduplication).
        await db.schema.createIndex('ad_events_created').on('ad_events').columns(['created_at']).execute();
      },
    },
    '0009_chat': {
      async up(db: Kysely<unknown>) {
        const autoId = (table: string) =>
          db.schema
            .createTable(table)
            .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', (c) =>
              engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
            );
        // The built-in chat (issue 11): a conversation is its lead's, one per lead, and goes with it
        // (or with its site). The shopper's details are kept as the lead was sent, for the dealer's list.
        await autoId('chat_threads')
          .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
          .addColumn('lead_id', 'bigint', (c) => c.notNull().unique().references('leads.id').onDelete('cascade'))
          .addColumn('token_salt', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('phone', 'text', (c) => c.notNull())
          .addColumn('email', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addColumn('last_author', 'text', (c) => c.notNull())
          .addColumn('message_count', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        // The dealer's list: a site's conversations by latest activity, walked a page at a time.
        await db.schema.createIndex('chat_threads_site_updated_id').on('chat_threads').columns(['site_id', 'updated_at', 'id']).execute();
        // The unique key makes a retried message (same client id) stored once; dealers' replies carry none.
        await autoId('chat_messages')
          .addColumn('thread_id', 'bigint', (c) => c.notNull().references('chat_threads.id').onDelete('cascade'))
          .addColumn('author', 'text', (c) => c.notNull())
          .addColumn('author_name', 'text')
          .addColumn('body', 'text', (c) => c.notNull())
          .addColumn('client_message_id', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addUniqueConstraint('chat_messages_thread_client', ['thread_id', 'client_message_id'])
          .execute();
        await db.schema.createIndex('chat_messages_thread_id').on('chat_messages').columns(['thread_id', 'id']).execute();
      },
    },
    '0010_site_content_stamp': {
      async up(db) {
        // A site's latest car change in one index step: the page cache's check on every page.
        await db.schema.createIndex('cars_site_updated_at').on('cars').columns(['site_id', 'updated_at']).execute();
      },
    },
    '0011_event_retention': {
      async up(db) {
        // Events older than the retention go oldest first, a batch at a time: found by this index
        // rather than by a walk of the whole log.
        await db.schema.createIndex('events_created').on('events').columns(['created_at']).execute();
        // What a site's log counted per day and kind, kept after the events are deleted.
        await db.schema
          .createTable('event_daily_counts')
          .addColumn('site_id', 'integer', (c) => c.notNull())
          .addColumn('day', 'text', (c) => c.notNull())
          .addColumn('category', 'text', (c) => c.notNull())
          .addColumn('count', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('event_daily_counts_pk', ['site_id', 'day', 'category'])
          .execute();
      },
    },
    '0012_reservation_holders': {
      async up(db) {
        // Who holds (normalised e-mail, phone, client address), so each may hold only so many cars of
        // a site at once; rows from before have none and count for no one.
        for (const column of ['holder_email', 'holder_phone', 'holder_address']) {
          await db.schema.alterTable('reservations').addColumn(column, 'text').execute();
        }
        // A site's live holds, the few rows that limit is counted over.
        await db.schema
          .createIndex('reservations_site_state_held')
          .on('reservations')
          .columns(['site_id', 'state', 'held_until'])
          .execute();
      },
    },
    '0013_sign_in_code_requesters': {
      async up(db) {
        // Who asked for each sign-in code (a keyed hash of the connection), and the wrong tries made
        // from other connections, counted apart from the asker's own: a stranger can neither use up
        // an owner's codes nor kill the code the owner is typing (issue 7).
        await db.schema
          .alterTable('shopper_sign_in_codes')
          .addColumn('requester', 'text', (c) => c.notNull().defaultTo(''))
          .execute();
        await db.schema
          .alterTable('shopper_sign_in_codes')
          .addColumn('other_tries', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
      },
    },
    '0014_lead_files_site_created': {
      async up(db) {
        // The bytes of files a site has taken in the last day, summed before each upload is read.
        await db.schema.createIndex('lead_files_site_created').on('lead_files').columns(['site_id', 'created_at']).execute();
      },
    },
    '0015_booking_bookers': {
      async up(db) {
        // Who took each seat (normalised e-mail and phone, client address), so one shopper or one
        // address may hold only so many upcoming bookings; seats from before count for no one.
        for (const column of ['booker_email', 'booker_phone', 'booker_address']) {
          await db.schema.alterTable('bookings').addColumn(column, 'text').execute();
          await db.schema.createIndex(`bookings_${column}`).on('bookings').columns([column, 'starts_at']).execute();
        }
      },
    },
    '0016_dealer_console': consoleMigration(engine),
    '0017_lead_text_search': leadSearchMigration(engine),
    '0018_site_images': siteImageMigration(engine),
    // The forms a site's leads came from, for the console inbox's form filter, read from the index alone.
    '0019_lead_forms_of_a_site': {
      async up(db: Kysely<unknown>) {
        await db.schema.createIndex('leads_site_category').on('leads').columns(['site_id', 'category']).execute();
      },
    },
    '0020_mail_opt_outs': mailOptOutMigration(),
    '0021_car_stock_numbers': stockNumberMigration(engine),
    '0022_inventory_feeds': feedMigration(engine),
    '0023_site_content': contentMigration(engine),
  };
  return { getMigrations: async () => migrations };
}
