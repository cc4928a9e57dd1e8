import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

/** Waits on the store's own pace, which a loaded machine slows down (vi.waitFor's default is one second). */
const patiently = { timeout: 20_000 };
import type { SiteConfig } from '@dealer/contracts/site';
import { migrateToLatest } from '@dealer/db/database';
import { untilRenewed } from '@dealer/testing/lease-renewal';
import { skipPostgres } from '@dealer/testing/postgres';
import { openTestStore, type TestStore } from '@dealer/testing/test-store';
import { enqueueAdEvent } from '@dealer/db/ad-event-store';
import { AdEventOutbox } from './ad-event-outbox';
import type { AdDeliveryResult, ConversionsApiEvent } from './conversions-api';

const leaseMs = 60_000;
const site = {
  slug: 'harbour-used-cars',
  third_party: { facebook_pixel: '123456789' },
  secrets: { facebook_capi_token: 'a-token' },
} as unknown as SiteConfig;

type Deliver = (eventRowId: number) => Promise<AdDeliveryResult>;

/** A Graph API that answers each event only when the test lets it. */
function gatedGraph() {
  const gates = new Map<number, () => void>();
  const received: number[] = [];
  const deliver: Deliver = async (rowId) => {
    received.push(rowId);
    await new Promise<void>((answer) => gates.set(rowId, answer));
    return { outcome: 'sent', detail: '200 events_received=1' };
  };
  const answer = (rowId: number) => {
    const gate = gates.get(rowId);
    if (!gate) throw new Error(`event ${rowId} is not being sent`);
    gate();
  };
  return { deliver, received, answer };
}

describe.each(['sqlite', 'postgres'] as const)('the ad event outbox on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let store: TestStore;
  let clock = 1_800_000_000_000;
  const now = () => clock;
  beforeAll(async () => {
    store = await openTestStore(engine);
    await migrateToLatest(store.db, store.engine);
    await store.db.insertInto('sites').values({ id: 1, slug: site.slug, domain_name: null, config: '{}', updated_at: 0 }).execute();
  });
  afterAll(async () => {
    await store?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const outboxWith = (deliver: Deliver) =>
    new AdEventOutbox({
      db: store.db,
      siteOf: async () => site,
      dataDir: '/nonexistent',
      graphUrl: 'http://graph.test',
      backoffMs: [1000],
      maxAttempts: 3,
      leaseMs,
      deliver,
      now,
    });
  const rowsOf = (ids: number[]) =>
    store.db.selectFrom('ad_events').select(['id', 'status', 'attempts', 'claimed_until']).where('id', 'in', ids).orderBy('id').execute();
  const event = (n: number): ConversionsApiEvent => ({
    event_name: 'Lead',
    event_time: Math.floor(clock / 1000),
    event_id: `lead-${n}`,
    action_source: 'website',
    user_data: {},
  });

  it('sends each conversion once when the Graph API takes longer than a lease and a second server looks meanwhile', async () => {
    // Only the lease's timer is driven by the test; the store runs for real.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const ids: number[] = [];
    for (let n = 0; n < 6; n++) ids.push((await enqueueAdEvent(store.db, 1, event(n), clock))!);
    const slow = gatedGraph();
    const first = outboxWith(slow.deliver).runOnce();
    await vi.waitFor(() => expect(slow.received).toEqual([ids[0]]), patiently);

    // The Graph API takes two leases to answer: the first server's claim on its batch is renewed meanwhile.
    for (let step = 0; step < 6; step++) {
      clock += leaseMs / 3;
      await untilRenewed(leaseMs, async () =>
        expect((await rowsOf(ids)).map((row) => row.claimed_until)).toEqual(ids.map(() => clock + leaseMs)),
      );
    }
    const other: number[] = [];
    expect(await outboxWith(async (rowId) => (other.push(rowId), { outcome: 'sent', detail: '200' })).runOnce()).toBe(0);

    for (const id of ids) {
      await vi.waitFor(() => expect(slow.received).toContain(id), patiently);
      slow.answer(id);
    }
    expect(await first).toBe(6);
    expect([...slow.received, ...other].sort((a, b) => a - b)).toEqual(ids);
    expect(await rowsOf(ids)).toEqual(ids.map((id) => ({ id, status: 'sent', attempts: 1, claimed_until: null })));
  });
});
