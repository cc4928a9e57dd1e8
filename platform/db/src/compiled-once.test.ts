import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformDb } from './database';
import { compiledOnce } from './compiled-once';
import { openMigratedStore } from '@dealer/testing/migrated-store';
import { skipPostgres } from '@dealer/testing/postgres';

describe.each(['sqlite', 'postgres'] as const)('a query compiled once on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let store: { db: PlatformDb; close(): Promise<void> };
  beforeAll(async () => {
    store = await openMigratedStore(engine);
    await store.db
      .insertInto('sites')
      .values([
        { id: 1, slug: 'north', domain_name: null, config: '{}', updated_at: 1 },
        { id: 2, slug: 'south', domain_name: 'south.example.com', config: '{}', updated_at: 1 },
      ])
      .execute();
  });
  afterAll(async () => store?.close());

  it('answers for each value it is run with, the value used wherever the query names it', async () => {
    const bySlugOrDomain = compiledOnce(
      (db, name: string) =>
        db
          .selectFrom('sites')
          .select('id')
          .where((eb) => eb.or([eb('slug', '=', name), eb('domain_name', '=', name)])),
      '\u0000name',
    );
    expect(await bySlugOrDomain(store.db, 'north')).toEqual([{ id: 1 }]);
    expect(await bySlugOrDomain(store.db, 'south.example.com')).toEqual([{ id: 2 }]);
    expect(await bySlugOrDomain(store.db, 'west')).toEqual([]);
  });

  it('refuses a query with a value of its own besides the one it is run with', async () => {
    const twoValues = compiledOnce(
      (db, slug: string) => db.selectFrom('sites').select('id').where('slug', '=', slug).where('id', '>', 0),
      '',
    );
    await expect(twoValues(store.db, 'north')).rejects.toThrow('A query compiled once takes exactly one value');
  });
});
