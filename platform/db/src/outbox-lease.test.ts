import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

/** Waits on the store's own pace, which a loaded machine slows down (vi.waitFor's default is one second). */
const patiently = { timeout: 20_000 };
import type { PlatformDb } from './database';
import { claimDueRows } from './due-rows';
import { holdingLeases, type OutboxLease } from './outbox-lease';
import { openMigratedStore } from '@dealer/testing/migrated-store';
import { skipPostgres } from '@dealer/testing/postgres';

const leaseMs = 30_000;

describe.each(['sqlite', 'postgres'] as const)('holding the lease of a claimed outbox batch on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let store: { db: PlatformDb; close(): Promise<void> };
  let clock = 1_000_000;
  beforeAll(async () => {
    store = await openMigratedStore(engine);
    await store.db.insertInto('sites').values({ id: 1, slug: 'test-site', domain_name: null, config: '{}', updated_at: 0 }).execute();
  });
  afterAll(async () => {
    await store?.close();
  });
  beforeEach(async () => {
    await store.db.deleteFrom('shopper_mail').execute();
    // The renewal's timer is driven by the test; the store runs for real.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const lease = (token: string, errors: unknown[] = []): OutboxLease => ({
    db: store.db,
    table: 'shopper_mail',
    token,
    leaseMs,
    now: () => clock,
    onRenewalError: (error) => errors.push(error),
  });
  /** Three due e-mails, claimed by `token`. */
  const claimThree = async (token: string) => {
    for (let n = 0; n < 3; n++) {
      await store.db
        .insertInto('shopper_mail')
        .values({
          site_id: 1,
          email: `shopper${n}@example.com`,
          kind: 'sign-in',
          subject: 'Your code',
          body: 'code',
          status: 'pending',
          next_attempt_at: clock,
          created_at: clock,
          updated_at: clock,
        })
        .execute();
    }
    const rows = await claimDueRows(store.db, { table: 'shopper_mail', columns: ['id'], token, now: clock, leaseMs, limit: 10 });
    return rows.map((row) => row.id);
  };
  const claims = async () => {
    const rows = await store.db.selectFrom('shopper_mail').select(['id', 'claim_token', 'claimed_until']).orderBy('id').execute();
    return rows.map((row) => ({
      id: Number(row.id),
      token: row.claim_token,
      until: row.claimed_until === null ? null : Number(row.claimed_until),
    }));
  };
  /** Moves the clock and the renewal timer on by a third of a lease. */
  const aThirdOfALeaseLater = () => {
    clock += leaseMs / 3;
    vi.advanceTimersByTime(leaseMs / 3);
  };

  it('renews, every third of a lease, the lease of the rows still held, and not of those done', async () => {
    const [a, b, c] = (await claimThree('worker')) as [number, number, number];
    let finish!: () => void;
    const work = holdingLeases(lease('worker'), [a, b, c], async (held) => {
      // `a` was recorded: its claim is over.
      await store.db
        .updateTable('shopper_mail')
        .set({ status: 'sent', claim_token: null, claimed_until: null })
        .where('id', '=', a)
        .execute();
      held.delete(a);
      await new Promise<void>((resolve) => (finish = resolve));
      return [...held];
    });
    await vi.waitFor(() => expect(finish).toBeDefined(), patiently);
    aThirdOfALeaseLater();
    await vi.waitFor(
      async () =>
        expect(await claims()).toEqual([
          { id: a, token: null, until: null },
          { id: b, token: 'worker', until: clock + leaseMs },
          { id: c, token: 'worker', until: clock + leaseMs },
        ]),
      patiently,
    );
    finish();
    expect(await work).toEqual([b, c]);
  });

  it('stops holding a row another worker took after this one’s lease lapsed, and never gives it back', async () => {
    const [a, b, c] = (await claimThree('stalled')) as [number, number, number];
    let finish!: () => void;
    const work = holdingLeases(lease('stalled'), [a, b, c], async (held) => {
      await new Promise<void>((resolve) => (finish = resolve));
      return [...held];
    });
    await vi.waitFor(() => expect(finish).toBeDefined(), patiently);
    await store.db
      .updateTable('shopper_mail')
      .set({ claim_token: 'another', claimed_until: clock + 10 * leaseMs })
      .where('id', '=', b)
      .execute();
    aThirdOfALeaseLater();
    await vi.waitFor(async () => expect((await claims()).find((row) => row.id === a)?.until).toBe(clock + leaseMs), patiently);
    finish();
    expect(await work).toEqual([a, c]);
    // Given back when the work ended without recording them; the other worker's row is left alone.
    expect(await claims()).toEqual([
      { id: a, token: null, until: null },
      { id: b, token: 'another', until: clock - leaseMs / 3 + 10 * leaseMs },
      { id: c, token: null, until: null },
    ]);
  });

  it('gives back what it still holds when the work fails, so another worker may send it at once', async () => {
    const ids = await claimThree('failing');
    await expect(
      holdingLeases(lease('failing'), ids, async () => {
        throw new Error('the store went away');
      }),
    ).rejects.toThrow('the store went away');
    expect(await claims()).toEqual(ids.map((id) => ({ id, token: null, until: null })));
  });
});
