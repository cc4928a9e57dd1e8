import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { migrateToLatest } from '@dealer/db/database';
import { recordEvent } from '@dealer/db/event-store';
import { skipPostgres } from '@dealer/testing/postgres';
import { openTestStore, type TestStore } from '@dealer/testing/test-store';
import { createTestPlatform, type TestPlatform } from '../testing/test-platform';
import { adEventsOutboxDir } from '../ads/conversions-api';
import { EventRetention } from './event-retention';

const day = 24 * 60 * 60 * 1000;
/** Noon UTC, 20 May 2026: the sweeps' "now". */
const now = Date.UTC(2026, 4, 20, 12);
const metro = 1;
const harbour = 2;

describe.each(['sqlite', 'postgres'] as const)('the event retention sweep on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let store: TestStore;
  let dataDir: string;
  beforeAll(async () => {
    store = await openTestStore(engine);
    await migrateToLatest(store.db, store.engine);
    await store.db
      .insertInto('sites')
      .values([
        { id: metro, slug: 'metro-motor-group', domain_name: null, config: '{}', updated_at: 0 },
        { id: harbour, slug: 'harbour-used-cars', domain_name: null, config: '{}', updated_at: 0 },
      ])
      .execute();
    dataDir = await mkdtemp(path.join(tmpdir(), 'dealer-event-retention-test-'));
  });
  afterAll(async () => {
    await store?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    for (const table of ['events', 'event_daily_counts', 'ad_events'] as const) await store.db.deleteFrom(table).execute();
  });

  /** Retention of 400 days for events and 30 for ad events, a few rows a batch so several batches run. */
  const sweep = (batchSize = 3) =>
    new EventRetention({ db: store.db, dataDir, eventsRetentionDays: 400, adEventsRetentionDays: 30, batchSize, now: () => now });
  const event = (siteId: number | null, category: string, at: number) =>
    recordEvent(store.db, { siteId, category, url: '/', errorMessage: null, payload: { category } }, at);
  const eventsLeft = async () =>
    (await store.db.selectFrom('events').select(['site_id', 'category', 'created_at']).orderBy('created_at').execute()).map(
      (row) => `${row.site_id} ${row.category} ${now - Number(row.created_at)}`,
    );
  const dailyCounts = async () => {
    const rows = await store.db
      .selectFrom('event_daily_counts')
      .selectAll()
      .orderBy('site_id')
      .orderBy('day')
      .orderBy('category')
      .execute();
    return rows.map((row) => `${row.site_id} ${row.day} ${row.category} ${Number(row.count)}`);
  };

  it('deletes events older than EVENTS_RETENTION_DAYS, a batch at a time, and keeps each site’s daily counts by kind', async () => {
    const old = now - 401 * day; // 14 April 2025, noon
    for (let n = 0; n < 3; n++) await event(metro, 'page_view', old + n);
    await event(metro, 'event_22', old + 10);
    await event(metro, 'event_22', old + 11);
    await event(metro, 'made-up-by-a-client', old + 12);
    await event(metro, 'page_view', old + day - 1);
    await event(harbour, 'remote_load_failed', old + 20);
    await event(null, 'app_error', old + 30);
    await event(metro, 'page_view', now - 399 * day);
    await event(harbour, 'event_39', now - day);

    expect(await sweep().runOnce()).toEqual({ events: 9, adEvents: 0, adEventFiles: 0 });
    expect(await eventsLeft()).toEqual([`${metro} page_view ${399 * day}`, `${harbour} event_39 ${day}`]);
    expect(await dailyCounts()).toEqual([
      `${metro} 2025-04-14 event_22 2`,
      `${metro} 2025-04-14 other 1`,
      `${metro} 2025-04-14 page_view 3`,
      `${metro} 2025-04-15 page_view 1`,
      `${harbour} 2025-04-14 remote_load_failed 1`,
    ]);

    // A later sweep adds to the day's counts.
    await event(metro, 'page_view', old + 40);
    expect((await sweep().runOnce()).events).toBe(1);
    expect(await dailyCounts()).toContain(`${metro} 2025-04-14 page_view 4`);
  });

  it('counts each event once when two servers sweep at the same time', async () => {
    const old = now - 500 * day;
    for (let n = 0; n < 40; n++) await event(n % 2 ? metro : harbour, n % 3 ? 'page_view' : 'event_22', old + n);
    const [a, b] = await Promise.all([sweep(4).runOnce(), sweep(4).runOnce()]);
    expect(a.events + b.events).toBe(40);
    expect(await eventsLeft()).toEqual([]);
    const total = await store.db
      .selectFrom('event_daily_counts')
      .select((eb) => eb.fn.sum<number>('count').as('total'))
      .executeTakeFirstOrThrow();
    expect(Number(total.total)).toBe(40);
  });

  it('deletes ad events sent or given up more than AD_EVENTS_RETENTION_DAYS ago, and keeps those still to send', async () => {
    const ids = new Map<string, number>();
    const adEvent = async (name: string, status: 'pending' | 'failed' | 'sent' | 'dead' | 'expired', age: number) => {
      const row = await store.db
        .insertInto('ad_events')
        .values({
          site_id: metro,
          event_id: name,
          event_name: 'Lead',
          payload: '',
          status,
          attempts: 1,
          next_attempt_at: now - age,
          created_at: now - age,
          updated_at: now - age,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.set(name, Number(row.id));
    };
    for (const status of ['sent', 'dead', 'expired'] as const) {
      await adEvent(`old ${status}`, status, 31 * day);
      await adEvent(`recent ${status}`, status, 29 * day);
    }
    for (let n = 0; n < 5; n++) await adEvent(`old sent ${n}`, 'sent', 40 * day + n);
    await adEvent('old and still failing', 'failed', 31 * day);

    expect((await sweep(2).runOnce()).adEvents).toBe(8);
    const left = await store.db.selectFrom('ad_events').select('event_id').orderBy('id').execute();
    expect(left.map((row) => row.event_id)).toEqual(['recent sent', 'recent dead', 'recent expired', 'old and still failing']);
  });

  it('deletes the ad event files in DATA_DIR/outbox/ad-events/<site>/ last written more than AD_EVENTS_RETENTION_DAYS ago', async () => {
    const root = adEventsOutboxDir(dataDir);
    const files = {
      'metro-motor-group/1.json': 31,
      'metro-motor-group/2.json': 29,
      'metro-motor-group/.3.0f8e.tmp': 45,
      'harbour-used-cars/4.json': 60,
      'harbour-used-cars/5.json': 1,
    };
    for (const [name, ageDays] of Object.entries(files)) {
      const file = path.join(root, name);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, '{}');
      const at = (now - ageDays * day) / 1000;
      await utimes(file, at, at);
    }
    expect((await sweep().runOnce()).adEventFiles).toBe(3);
    expect((await readdir(path.join(root, 'metro-motor-group'))).sort()).toEqual(['2.json']);
    expect(await readdir(path.join(root, 'harbour-used-cars'))).toEqual(['5.json']);
    await rm(root, { recursive: true });
    expect((await sweep().runOnce()).adEventFiles).toBe(0);
  });
});

describe('the event retention sweep in a running server', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform({ env: { EVENTS_RETENTION_DAYS: '30' } });
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('sweeps by itself once the server listens (where the outboxes run), keeping the daily counts', async () => {
    const siteId = Number(
      (await platform.ctx.db.selectFrom('sites').select('id').where('slug', '=', 'harbour-used-cars').executeTakeFirstOrThrow()).id,
    );
    await recordEvent(platform.ctx.db, { siteId, category: 'page_view', url: '/', errorMessage: null, payload: {} }, Date.now() - 31 * day);
    await recordEvent(platform.ctx.db, { siteId, category: 'page_view', url: '/', errorMessage: null, payload: {} }, Date.now() - 29 * day);
    await platform.app.listen({ port: 0, host: '127.0.0.1' });
    await vi.waitFor(async () => expect(await platform.ctx.db.selectFrom('events').select('created_at').execute()).toHaveLength(1), {
      timeout: 5_000,
      interval: 20,
    });
    const counts = await platform.ctx.db.selectFrom('event_daily_counts').select(['site_id', 'category', 'count']).execute();
    expect(counts.map((row) => ({ ...row, count: Number(row.count) }))).toEqual([{ site_id: siteId, category: 'page_view', count: 1 }]);
  });
});
