import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformDb } from './database';
import * as feeds from './feed-store';
import { openMigratedStore } from '@dealer/testing/migrated-store';
import { skipPostgres } from '@dealer/testing/postgres';

const leaseMs = 60_000;

describe.each(['sqlite', 'postgres'] as const)('inventory feed settings, imports and photos on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let store: { db: PlatformDb; close(): Promise<void> };
  beforeAll(async () => {
    store = await openMigratedStore(engine);
    await store.db
      .insertInto('sites')
      .values([1, 2].map((id) => ({ id, slug: `site-${id}`, domain_name: null, config: '{}', updated_at: 0 })))
      .execute();
  });
  afterAll(async () => store?.close());

  it('keeps a site’s mapping, address and schedule, changing only what is given', async () => {
    expect(await feeds.feedSettingsOf(store.db, 1)).toBeNull();
    await feeds.saveFeedSettings(store.db, 1, { mapping: { stocknum: 'Stock No' }, url: 'https://feeds.example/1.csv' }, 1_000);
    await feeds.saveFeedSettings(store.db, 1, { schedule: 'hourly', nextPullAt: 5_000 }, 2_000);
    expect(await feeds.feedSettingsOf(store.db, 1)).toEqual({
      mapping: { stocknum: 'Stock No' },
      url: 'https://feeds.example/1.csv',
      schedule: 'hourly',
      nextPullAt: 5_000,
    });
  });

  it('gives a due pull to one taker only, then not again until its next time', async () => {
    expect(await feeds.dueFeedPulls(store.db, 4_999)).toEqual([]);
    expect(await feeds.dueFeedPulls(store.db, 5_000)).toEqual([{ siteId: 1, nextPullAt: 5_000 }]);
    const takers = await Promise.all([1, 2].map(() => feeds.takeFeedPull(store.db, 1, 5_000, 3_605_000)));
    expect(takers.filter(Boolean)).toHaveLength(1);
    expect(await feeds.dueFeedPulls(store.db, 10_000)).toEqual([]);
  });

  it('keeps an import’s CSV until it is applied, with its mapping, progress and report', async () => {
    const csv = Buffer.from('Stock No,Make\nA1,Kia\n');
    const id = await feeds.createFeedImport(store.db, { siteId: 1, source: 'upload', csv }, 1_000);
    expect((await feeds.feedImportCsv(store.db, 1, id))!.equals(csv)).toBe(true);
    expect(await feeds.feedImportOf(store.db, 2, id)).toBeNull();
    await feeds.setFeedImportMapping(store.db, id, { stocknum: 'Stock No' });
    expect(await feeds.claimSiteImport(store.db, 1, id, 2_000, leaseMs)).toBe(true);
    await feeds.setFeedImportProgress(store.db, id, { done: 1, total: 1 });
    await feeds.finishFeedImport(store.db, 1, id, { status: 'done', report: { counts: { new: 1 } }, error: null }, 3_000);
    expect(await feeds.feedImportOf(store.db, 1, id)).toEqual({
      id,
      siteId: 1,
      source: 'upload',
      status: 'done',
      mapping: { stocknum: 'Stock No' },
      report: { counts: { new: 1 } },
      progress: { done: 1, total: 1 },
      error: null,
      createdAt: 1_000,
      finishedAt: 3_000,
    });
    expect((await feeds.feedImportCsv(store.db, 1, id))!.length).toBe(0);
  });

  it('runs one import of a site at a time; a lease left by a stopped server runs out, and its import is marked failed', async () => {
    const csv = Buffer.from('a,b\n');
    const [first, second, other] = [
      await feeds.createFeedImport(store.db, { siteId: 1, source: 'upload', csv }, 10_000),
      await feeds.createFeedImport(store.db, { siteId: 1, source: 'url', csv }, 10_000),
      await feeds.createFeedImport(store.db, { siteId: 2, source: 'upload', csv }, 10_000),
    ];
    const claims = await Promise.all([first, second].map((id) => feeds.claimSiteImport(store.db, 1, id, 20_000, leaseMs)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    const [running, waiting] = claims[0] ? [first, second] : [second, first];
    expect(await feeds.claimSiteImport(store.db, 2, other, 20_000, leaseMs)).toBe(true);
    await feeds.renewSiteImport(store.db, 1, running, 20_000 + 2 * leaseMs);
    expect(await feeds.claimSiteImport(store.db, 1, waiting, 20_000 + leaseMs + 1, leaseMs)).toBe(false);
    expect(await feeds.holdsSiteImport(store.db, 1, running, 20_000 + 2 * leaseMs)).toBe(true);
    // The server running it stopped: its lease runs out, the next import takes over and the first is failed.
    const later = 20_000 + 2 * leaseMs + 1;
    expect(await feeds.holdsSiteImport(store.db, 1, running, later)).toBe(false);
    expect(await feeds.claimSiteImport(store.db, 1, waiting, later, leaseMs)).toBe(true);
    expect(await feeds.feedImportOf(store.db, 1, running)).toMatchObject({ status: 'failed', error: feeds.feedImportStopped });
    expect(await feeds.feedImportOf(store.db, 1, waiting)).toMatchObject({ status: 'running' });
    // A failed import keeps its CSV, to be applied again.
    await feeds.finishFeedImport(
      store.db,
      1,
      waiting,
      { status: 'failed', report: null, error: 'The feed at … did not answer within 30 s.' },
      later,
    );
    expect((await feeds.feedImportCsv(store.db, 1, waiting))!.length).toBe(4);
    expect(await feeds.claimSiteImport(store.db, 1, running, later, leaseMs)).toBe(true);
  });

  it('keeps the newest imports of a site only', async () => {
    for (let i = 0; i < feeds.feedImportsKept + 3; i++)
      await feeds.createFeedImport(store.db, { siteId: 2, source: 'upload', csv: Buffer.from('a,b\n') }, 50_000 + i);
    const listed = await feeds.listFeedImports(store.db, 2, 100);
    // The running one is never deleted.
    expect(listed.length).toBe(feeds.feedImportsKept + 1);
    expect(listed[0]!.createdAt).toBe(50_000 + feeds.feedImportsKept + 2);
  });

  it('remembers the photos a feed named once fetched', async () => {
    await feeds.recordFeedPhoto(store.db, 1, 'https://x.example/a.jpg', 'a'.repeat(32), 1_000);
    await feeds.recordFeedPhoto(store.db, 1, 'https://x.example/a.jpg', 'b'.repeat(32), 2_000);
    await feeds.recordFeedPhoto(store.db, 2, 'https://x.example/c.jpg', 'c'.repeat(32), 1_000);
    const urls = ['https://x.example/a.jpg', 'https://x.example/c.jpg', ...Array.from({ length: 600 }, (_, i) => `https://x.example/${i}`)];
    expect(await feeds.knownFeedPhotos(store.db, 1, urls)).toEqual(new Map([['https://x.example/a.jpg', 'b'.repeat(32)]]));
  });
});
