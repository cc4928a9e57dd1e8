import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

/** Waits on the store's own pace, which a loaded machine slows down (vi.waitFor's default is one second). */
const patiently = { timeout: 20_000 };
import { migrateToLatest } from '@dealer/db/database';
import { insertLead } from '@dealer/db/lead-store';
import { findSiteIdBySlug, loadSiteConfig } from '@dealer/db/site-store';
import { seedDemoDataIfEmpty } from '@dealer/demo/seed-database';
import { untilRenewed } from '@dealer/testing/lease-renewal';
import { skipPostgres } from '@dealer/testing/postgres';
import { openTestStore, type TestStore } from '@dealer/testing/test-store';
import { OutboxWorker, type Deliver } from '@dealer/leads/outbox-worker';

/**
 * A lease of a minute on a clock the test moves, and the lease's renewal timer driven by the test:
 * nothing here races real time, however busy the machine (the store and the deliveries run for real).
 */
const leaseMs = 60_000;

/** A delivery that answers only when the test lets it, one gate per lead. */
function gatedDelivery() {
  const gates = new Map<number, () => void>();
  const started: number[] = [];
  const deliver: Deliver = async (_target, lead) => {
    started.push(lead.id);
    await new Promise<void>((open) => gates.set(lead.id, open));
    return { ok: true, status: 'delivered', detail: `lead ${lead.id}` };
  };
  const open = (leadId: number) => {
    const gate = gates.get(leadId);
    if (!gate) throw new Error(`lead ${leadId} is not being delivered`);
    gate();
  };
  return { deliver, started, open };
}

describe.each(['sqlite', 'postgres'] as const)('the outbox lease on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let store: TestStore;
  let siteId: number;
  let clock = 1_800_000_000_000;
  const now = () => clock;
  /** Moves the clock a third of a lease and fires the lease's renewal timer, as that much time passing would. */
  const aThirdOfALeasePasses = () => {
    clock += leaseMs / 3;
    vi.advanceTimersByTime(leaseMs / 3);
  };
  afterEach(() => {
    vi.useRealTimers();
  });
  beforeAll(async () => {
    store = await openTestStore(engine);
    await migrateToLatest(store.db, store.engine);
    await seedDemoDataIfEmpty(store.db);
    siteId = (await findSiteIdBySlug(store.db, 'harbour-used-cars'))!;
  });
  afterAll(async () => {
    await store?.close();
  });

  const workerWith = (deliver: Deliver) =>
    new OutboxWorker({
      db: store.db,
      dataDir: '/nonexistent',
      delivery: {
        worker: false,
        pollMs: 1000,
        backoffMs: [1000],
        maxAttempts: 3,
        leaseMs,
        smtpUrl: null,
        emailFrom: 'leads@dealer.example',
      },
      siteOf: (id) => loadSiteConfig(store.db, id),
      deliver,
      now,
    });
  const newLeads = async (count: number) => {
    const ids: number[] = [];
    for (let n = 0; n < count; n++) {
      const { lead } = await insertLead(
        store.db,
        {
          siteId,
          category: 'General Enquiry',
          leadStatus: 'New',
          payload: { name: `Lead ${n}` },
          idempotencyKey: null,
          requestHash: null,
          tokenSalt: null,
          formCompleted: true,
          hasFiles: false,
          spamReason: null,
          mock: false,
        },
        [{ kind: 'adf-file' }],
      );
      ids.push(lead.id);
    }
    return ids;
  };
  const jobOf = (leadId: number) =>
    store.db.selectFrom('lead_delivery_jobs').selectAll().where('lead_id', '=', leadId).executeTakeFirstOrThrow();
  const logOf = (leadIds: number[]) =>
    store.db
      .selectFrom('lead_delivery_log')
      .select(['job_id', 'lead_id', 'outcome'])
      .where('lead_id', 'in', leadIds)
      .orderBy('id')
      .execute();

  it('keeps the lease of a job delivered for longer than a lease, so no other worker takes it over', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const [leadId] = await newLeads(1);
    const slow = gatedDelivery();
    const first = workerWith(slow.deliver).runOnce();
    await vi.waitFor(() => expect(slow.started).toEqual([leadId]), patiently);
    // The delivery takes two leases: the claim is renewed every third of one meanwhile.
    for (let step = 0; step < 6; step++) {
      clock += leaseMs / 3;
      await untilRenewed(leaseMs, async () => expect(Number((await jobOf(leadId!)).claimed_until)).toBe(clock + leaseMs));
    }

    const other = gatedDelivery();
    expect(await workerWith(other.deliver).runOnce()).toBe(0);
    expect(other.started).toEqual([]);
    expect((await jobOf(leadId!)).claim_token).not.toBeNull();

    slow.open(leadId!);
    expect(await first).toBe(1);
    expect(await jobOf(leadId!)).toMatchObject({ status: 'delivered', attempts: 1, claim_token: null, claimed_until: null });
    expect(await logOf([leadId!])).toEqual([expect.objectContaining({ lead_id: leadId, outcome: 'delivered' })]);
  });

  it('records each result as soon as that delivery is over, not at the end of the batch', async () => {
    const ids = await newLeads(3);
    const [a, b, c] = ids as [number, number, number];
    const gated = gatedDelivery();
    const batch = workerWith(gated.deliver).runOnce();
    await vi.waitFor(() => expect([...gated.started].sort()).toEqual([...ids].sort()), patiently);

    gated.open(b);
    await vi.waitFor(async () => expect((await jobOf(b)).status).toBe('delivered'), patiently);
    expect((await jobOf(a)).status).toBe('pending');
    expect((await jobOf(c)).status).toBe('pending');
    expect((await logOf(ids)).map((row) => row.lead_id)).toEqual([b]);

    gated.open(a);
    await vi.waitFor(async () => expect((await jobOf(a)).status).toBe('delivered'), patiently);
    expect((await jobOf(c)).status).toBe('pending');

    gated.open(c);
    expect(await batch).toBe(3);
    expect((await logOf(ids)).map((row) => row.lead_id)).toEqual([b, a, c]);
  });

  it('neither records a job another worker took after a lapsed lease, nor starts one that was waiting', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    // Nine jobs: eight are delivered side by side, the ninth waits for a free lane.
    const ids = await newLeads(9);
    const running = ids[0]!;
    const waiting = ids[8]!;
    const gated = gatedDelivery();
    const batch = workerWith(gated.deliver).runOnce();
    await vi.waitFor(() => expect(gated.started).toHaveLength(8), patiently);
    expect(gated.started).not.toContain(waiting);

    // What another worker's claim does to a job whose lease lapsed (this process stalled).
    await store.db
      .updateTable('lead_delivery_jobs')
      .set({ claim_token: 'another-worker', claimed_until: clock + 3_600_000 })
      .where('lead_id', 'in', [running, waiting])
      .execute();
    // The next renewal keeps the jobs still this worker's and finds those two gone.
    aThirdOfALeasePasses();
    await vi.waitFor(async () => expect(Number((await jobOf(ids[1]!)).claimed_until)).toBe(clock + leaseMs), patiently);
    for (const id of gated.started) gated.open(id);
    expect(await batch).toBe(9);

    expect(gated.started).not.toContain(waiting);
    for (const id of [running, waiting])
      expect(await jobOf(id)).toMatchObject({ status: 'pending', attempts: 0, claim_token: 'another-worker' });
    const log = await logOf(ids);
    expect(log.map((row) => row.lead_id).sort()).toEqual(ids.slice(1, 8).sort());
    await store.db.updateTable('lead_delivery_jobs').set({ status: 'dead' }).where('lead_id', 'in', [running, waiting]).execute();
  });
});
