/**
 * Migration 0017: finding leads by the words the shopper wrote (the console's leads inbox, `q`)
 * without reading every lead of the site. On PostgreSQL, a trigram index (pg_trgm) over the payload
 * answers `ilike '%word%'`; without it PostgreSQL reads the whole table (about 400 ms for 100,000
 * leads, bench:console). pg_trgm is a trusted extension, but a database where it cannot be created
 * keeps working without the index, only slower. SQLite needs nothing: it reads a site's leads newest
 * first and stops at a page.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { DatabaseEngine } from './database-engine';

export function leadSearchMigration(engine: DatabaseEngine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (engine !== 'postgres') return;
      await sql`savepoint lead_text_search`.execute(db);
      try {
        await sql`create extension if not exists pg_trgm`.execute(db);
        const found = await sql<{
          schema: string;
        }>`select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`.execute(db);
        const schema = found.rows[0]?.schema ?? 'public';
        await sql`create index leads_payload_trigrams on leads using gin (payload ${sql.raw(`${quoteIdent(schema)}.gin_trgm_ops`)})`.execute(
          db,
        );
        await sql`release savepoint lead_text_search`.execute(db);
      } catch (error) {
        await sql`rollback to savepoint lead_text_search`.execute(db);
        console.warn(
          `[migrate] leads: no trigram index for the console's lead search (${error instanceof Error ? error.message : String(error)}); it works, only slower`,
        );
      }
    },
  };
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
