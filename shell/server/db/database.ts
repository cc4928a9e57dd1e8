import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import type { PlatformDatabase } from './schema';
import { platformMigrations } from './migrations';

export type DatabaseEngine = 'sqlite' | 'postgres';
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
  sqlite.pragma('busy_timeout = 5000');
  return { db: new Kysely<PlatformDatabase>({ dialect: new SqliteDialect({ database: sqlite }) }), engine: 'sqlite' };
}

export async function migrateToLatest(db: PlatformDb, engine: DatabaseEngine) {
  const migrator = new Migrator({ db, provider: platformMigrations(engine) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}
