import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

/** Waits on the store's own pace, which a loaded machine slows down (vi.waitFor's default is one second). */
const patiently = { timeout: 20_000 };
import type { SiteConfig } from '@dealer/contracts/site';
import { migrateToLatest } from '@dealer/db/database';
import { untilRenewed } from '@dealer/testing/lease-renewal';
import { skipPostgres } from '@dealer/testing/postgres';
import { openTestStore, type TestStore } from '@dealer/testing/test-store';
import type { MailDeliveryResult, ShopperMailMessage } from './mail-delivery';
import { enqueueShopperMail } from '@dealer/db/mail-outbox-store';
import { MailOutbox } from './mail-outbox';

const leaseMs = 60_000;
const site = { slug: 'harbour-used-cars', name: 'Harbour Used Cars' } as SiteConfig;

/** A mail server that answers each message only when the test lets it. */
function gatedMailServer() {
  const gates = new Map<number, () => void>();
  const received: number[] = [];
  const deliver = async (message: ShopperMailMessage): Promise<MailDeliveryResult> => {
    received.push(message.id);
    await new Promise<void>((answer) => gates.set(message.id, answer));
    return { outcome: 'sent', detail: `mail ${message.id}` };
  };
  const answer = (mailId: number) => {
    const gate = gates.get(mailId);
    if (!gate) throw new Error(`mail ${mailId} is not being sent`);
    gate();
  };
  return { deliver, received, answer };
}

/** A mail server that answers at once. */
function quickMailServer() {
  const received: number[] = [];
  const deliver = async (message: ShopperMailMessage): Promise<MailDeliveryResult> => {
    received.push(message.id);
    return { outcome: 'sent', detail: `mail ${message.id}` };
  };
  return { deliver, received };
}

describe.each(['sqlite', 'postgres'] as const)('the shoppers’ mail outbox on %s', (engine) => {
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

  const outboxWith = (deliver: (message: ShopperMailMessage) => Promise<MailDeliveryResult>) =>
    new MailOutbox({
      db: store.db,
      transport: { dataDir: '/nonexistent', smtpUrl: null, from: 'garage@dealer.example' },
      siteOf: async () => site,
      backoffMs: [1000],
      maxAttempts: 3,
      leaseMs,
      deliver,
      now,
    });
  const rowsOf = (ids: number[]) =>
    store.db
      .selectFrom('shopper_mail')
      .select(['id', 'status', 'attempts', 'claimed_until'])
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();

  it('sends each sign-in code once when the mail server takes longer than a lease and a second server looks meanwhile', async () => {
    // Only the lease's timer is driven by the test; the store and the mail server run for real.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const ids: number[] = [];
    for (let n = 0; n < 6; n++) {
      ids.push(
        await enqueueShopperMail(
          store.db,
          { siteId: 1, email: `shopper${n}@example.com`, kind: 'sign-in', subject: 'Your code', body: `code ${n}` },
          clock,
        ),
      );
    }
    const slow = gatedMailServer();
    const first = outboxWith(slow.deliver).runOnce();
    await vi.waitFor(() => expect(slow.received).toEqual([ids[0]]), patiently);

    // The mail server takes two leases to answer: the first server's claim on its batch is renewed meanwhile.
    for (let step = 0; step < 6; step++) {
      clock += leaseMs / 3;
      await untilRenewed(leaseMs, async () =>
        expect((await rowsOf(ids)).map((row) => row.claimed_until)).toEqual(ids.map(() => clock + leaseMs)),
      );
    }
    const quick = quickMailServer();
    expect(await outboxWith(quick.deliver).runOnce()).toBe(0);

    for (const id of ids) {
      await vi.waitFor(() => expect(slow.received).toContain(id), patiently);
      slow.answer(id);
    }
    expect(await first).toBe(6);
    expect([...slow.received, ...quick.received].sort((a, b) => a - b)).toEqual(ids);
    expect(await rowsOf(ids)).toEqual(ids.map((id) => ({ id, status: 'sent', attempts: 1, claimed_until: null })));
  });
});
