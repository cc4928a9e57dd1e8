/**
 * Migration 0022: inventory feeds (issue 24). A site's feed settings (how its CSV's columns map to
 * a car's fields, the address it is pulled from and how often), each import of a feed (the CSV as
 * it came, kept until it is applied, and what applying it did), and the photos a feed named that
 * were already fetched, so the next import of the same feed does not fetch them again.
 */
import type { Kysely, Migration } from 'kysely';
import type { DatabaseEngine } from './database-engine';

export function feedMigration(engine: DatabaseEngine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('feed_settings')
        .addColumn('site_id', 'integer', (c) => c.primaryKey().references('sites.id').onDelete('cascade'))
        .addColumn('mapping', 'text')
        .addColumn('url', 'text')
        .addColumn('schedule', 'text', (c) => c.notNull().defaultTo('off'))
        .addColumn('next_pull_at', 'bigint')
        // The site's one running import and how long its lease lasts: one import of a site at a time, across servers.
        .addColumn('import_id', 'bigint')
        .addColumn('import_until', 'bigint')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('feed_settings_due').on('feed_settings').columns(['schedule', 'next_pull_at']).execute();
      await db.schema
        .createTable('feed_imports')
        .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', (c) =>
          engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('csv', engine === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
        .addColumn('mapping', 'text')
        .addColumn('report', 'text')
        .addColumn('progress', 'text')
        .addColumn('error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .execute();
      await db.schema.createIndex('feed_imports_site').on('feed_imports').columns(['site_id', 'id']).execute();
      await db.schema
        .createTable('feed_photos')
        .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('fetched_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('feed_photos_pk', ['site_id', 'url'])
        .execute();
    },
  };
}
