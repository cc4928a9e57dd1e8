import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type { DatabaseEngine } from './database-engine';
import type { PlatformDatabase } from './schema';
import { platformMigrations } from './migrations';

export type PlatformDb = Kysely<PlatformDatabase>;

export type DatabaseOptions = { dataDir: string; databaseUrl: string | null; pgSearchPath?: string };

// bigint columns come back as strings from pg by default; our timestamps fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** SQLite under DATA_DIR by default (WAL), PostgreSQL when DATABASE_URL is set. */
export function openDatabase(options: DatabaseOptions): { db: PlatformDb; engine: DatabaseEngine } {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      ...(options.pgSearchPath ? { options: `-c search_path=${options.pgSearchPath}` } : {}),
    });
    return { db: new Kysely<PlatformDatabase>({ dialect: new PostgresDialect({ pool }) }), engine: 'postgres' };
  }
  mkdirSync(options.dataDir, { recursive: true });
  const sqlite = new SQLite(join(options.dataDir, 'platform.sqlite'));
  sqlite.pragma('journal_mode = WAL');
  // FULL: a committed lead survives a power cut, not only a crash.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  // What a delete or an update frees is overwritten with zeros, not left readable in the file's
  // free space: a deleted shopper account (or a sign-in e-mail's erased body) is gone from the
  // bytes too. The cost is writing the freed space, in pages mostly written anyway (issue 10).
  sqlite.pragma('secure_delete = ON');
  sqlite.pragma('busy_timeout = 5000');
  cachePreparedStatements(sqlite);
  return { db: new Kysely<PlatformDatabase>({ dialect: new SqliteDialect({ database: sqlite }) }), engine: 'sqlite' };
}

/**
 * Kysely's SQLite driver prepares every query afresh; preparing costs more than running a small
 * insert. Statements are kept by their SQL (the most recent few hundred) and reused: Kysely only
 * runs them with all()/run(), synchronously, so one is never busy when asked for again.
 */
function cachePreparedStatements(sqlite: SQLite.Database, max = 300) {
  const prepare = sqlite.prepare.bind(sqlite);
  const cache = new Map<string, SQLite.Statement>();
  sqlite.prepare = ((source: string) => {
    const cached = cache.get(source);
    if (cached) {
      // Least recently used first: a hit moves to the back.
      cache.delete(source);
      cache.set(source, cached);
      return cached;
    }
    const statement = prepare(source);
    cache.set(source, statement);
    if (cache.size > max) cache.delete(cache.keys().next().value!);
    return statement;
  }) as SQLite.Database['prepare'];
}

export async function migrateToLatest(db: PlatformDb, engine: DatabaseEngine) {
  // Kysely looks for its migration tables in every schema unless told which: name ours, so another
  // schema's tables (other tenants of the server, other test runs) are never taken for them.
  const migrationTableSchema =
    engine === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  const migrator = new Migrator({ db, provider: platformMigrations(engine), ...(migrationTableSchema ? { migrationTableSchema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}
