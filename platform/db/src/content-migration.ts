/**
 * Migration 0023: a site's own content (issue 24 parts 3 and 4). The pages, news posts, special
 * offers and jobs the dealer writes in the console, each with the version on the site and the one
 * being edited; the Google reviews of the site's locations; and the time the site's content last
 * changed, which the page cache's stamp reads (siteContentStamp).
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { DatabaseEngine } from './database-engine';

export function contentMigration(engine: DatabaseEngine): Migration {
  const autoId = (db: Kysely<unknown>, table: string) =>
    db.schema
      .createTable(table)
      .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', (c) =>
        engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      );
  return {
    async up(db: Kysely<unknown>) {
      // Both versions are JSON: `draft` null means nothing unpublished, `published` null means not on the site.
      await autoId(db, 'site_content')
        .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('draft', 'text')
        .addColumn('published', 'text')
        .addColumn('published_at', 'bigint')
        // Copied from the published version (an offer's end, a job's closing), so lists leave it out by an indexed column.
        .addColumn('expires_at', 'bigint')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_by', 'integer')
        .addUniqueConstraint('site_content_site_kind_slug', ['site_id', 'kind', 'slug'])
        .execute();
      // A kind's list, newest first, a page at a time.
      await db.schema
        .createIndex('site_content_site_kind_published')
        .on('site_content')
        .columns(['site_id', 'kind', 'published_at', 'id'])
        .execute();
      // The unique key is what makes a fetch of reviews already stored update them rather than add them again.
      await autoId(db, 'location_reviews')
        .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('location_id', 'integer', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('external_id', 'text', (c) => c.notNull())
        .addColumn('author', 'text', (c) => c.notNull())
        .addColumn('rating', 'integer', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('reviewed_at', 'bigint', (c) => c.notNull())
        .addColumn('fetched_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('location_reviews_site_source_external', ['site_id', 'source', 'external_id'])
        .execute();
      await db.schema
        .createIndex('location_reviews_site_rating_reviewed')
        .on('location_reviews')
        .columns(['site_id', 'rating', 'reviewed_at'])
        .execute();
      await db.schema
        .alterTable('sites')
        .addColumn('content_updated_at', 'bigint', (c) => c.notNull().defaultTo(sql`0`))
        .execute();
    },
  };
}
