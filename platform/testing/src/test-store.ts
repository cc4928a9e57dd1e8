import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseEngine } from '@dealer/db/database-engine';
import { openDatabase, type PlatformDb } from '@dealer/db/database';
import { createTestSchema, type TestSchema } from './postgres';

export type TestStore = { db: PlatformDb; engine: DatabaseEngine; close(): Promise<void> };

/** An empty store of the given engine (not migrated): a temp SQLite file, or a fresh PostgreSQL schema. */
export async function openTestStore(engine: DatabaseEngine): Promise<TestStore> {
  const dataDir = await mkdtemp(join(tmpdir(), 'dealer-store-test-'));
  let schema: TestSchema | null = null;
  try {
    if (engine === 'postgres') schema = await createTestSchema();
    const opened = openDatabase({ dataDir, databaseUrl: schema?.databaseUrl ?? null, pgSearchPath: schema?.schema });
    return {
      ...opened,
      close: async () => {
        await opened.db.destroy();
        await schema?.drop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await schema?.drop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
