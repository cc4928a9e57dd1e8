import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseEngine } from '@dealer/db/database-engine';
import { migrateToLatest, openDatabase, type PlatformDb } from '@dealer/db/database';
import { createTestSchema } from './postgres';

/** A migrated, empty store: a temp SQLite file, or a fresh PostgreSQL schema. `close()` removes it. */
export async function openMigratedStore(engine: DatabaseEngine): Promise<{ db: PlatformDb; close(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'dealer-db-test-'));
  const schema = engine === 'postgres' ? await createTestSchema() : null;
  const { db } = openDatabase({ dataDir, databaseUrl: schema?.databaseUrl ?? null, pgSearchPath: schema?.schema });
  await migrateToLatest(db, engine);
  return {
    db,
    close: async () => {
      await db.destroy();
      await schema?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
