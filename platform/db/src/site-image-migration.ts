/**
 * Migration 0018: pictures a dealer uploads (first the site's logo; issue 24's car photos next).
 * Kept in the store, not on one server's disk, so every instance of the platform serves the same
 * picture. A picture is named by the hash of its processed bytes, so its address never changes
 * meaning and is cached for good; uploading the same picture twice stores it once.
 */
import type { Kysely, Migration } from 'kysely';
import type { DatabaseEngine } from './database-engine';

export function siteImageMigration(engine: DatabaseEngine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('site_images')
        .addColumn('hash', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('bytes', engine === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('site_images_site').on('site_images').columns(['site_id', 'kind']).execute();
    },
  };
}
