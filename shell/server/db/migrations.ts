import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { DatabaseEngine } from './database';

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
  };
  return { getMigrations: async () => migrations };
}
