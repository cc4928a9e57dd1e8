import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SiteConfig } from '@dealer/contracts/site';
import type { PlatformDb } from './database';
import { setSiteRemote, siteContentStamp, updateSiteSettings } from './site-store';
import { openMigratedStore } from '@dealer/testing/migrated-store';
import { skipPostgres } from '@dealer/testing/postgres';

describe.each(['sqlite', 'postgres'] as const)('a site’s content stamp on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let store: { db: PlatformDb; close(): Promise<void> };
  beforeAll(async () => {
    store = await openMigratedStore(engine);
    await store.db.insertInto('sites').values({ id: 1, slug: 'site-1', domain_name: null, config: '{}', updated_at: 5_000 }).execute();
  });
  afterAll(async () => store?.close());

  const stamp = () => siteContentStamp(store.db, 1);
  const settings = (name: string) => ({ id: 1, name, locations: [], remotes: [] }) as unknown as SiteConfig;

  it('moves on every settings save, two in one millisecond or with a clock behind the last one included', async () => {
    const seen = [await stamp()];
    await updateSiteSettings(store.db, settings('One'), 9_000);
    seen.push(await stamp());
    await updateSiteSettings(store.db, settings('Two'), 9_000);
    seen.push(await stamp());
    await updateSiteSettings(store.db, settings('Three'), 1_000);
    seen.push(await stamp());
    expect(new Set(seen).size).toBe(4);
    const row = await store.db.selectFrom('sites').select('updated_at').where('id', '=', 1).executeTakeFirstOrThrow();
    expect(Number(row.updated_at)).toBe(9_002);
  });

  it('moves on every remote switch, two in one millisecond included', async () => {
    const seen = [await stamp()];
    await setSiteRemote(store.db, 1, 'mf-chat', { enabled: true }, 20_000);
    seen.push(await stamp());
    await setSiteRemote(store.db, 1, 'mf-search', { enabled: true }, 20_000);
    seen.push(await stamp());
    await setSiteRemote(store.db, 1, 'mf-chat', { version: '1.2.0' }, 20_000);
    seen.push(await stamp());
    expect(new Set(seen).size).toBe(4);
  });
});
