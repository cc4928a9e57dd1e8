import type { PlatformDb } from './database';
import { releaseClaimedRows, renewClaimedRows, type OutboxTable } from './due-rows';

export type OutboxLease = {
  db: PlatformDb;
  table: OutboxTable;
  /** The claim token the batch was claimed with. */
  token: string;
  leaseMs: number;
  now: () => number;
  /** A renewal that failed: it is tried again at the next third of a lease. */
  onRenewalError: (error: unknown) => void;
};

/**
 * Works on a claimed batch while holding its lease, the one way every outbox (lead deliveries,
 * shopper mail, ad events) keeps what it claimed: the lease of the rows still held is renewed every
 * third of a lease, so a send may outlast a lease without another worker taking the row and
 * sending it again. `work` gets the ids still held and removes each once its result is recorded;
 * a row missing from a renewal was taken by another worker after this one's lease lapsed (a
 * stalled process), and is removed for it, so it is not started here. What is still held when
 * `work` ends (an error on the way) is given back, to be tried again at once.
 */
export async function holdingLeases<T>(lease: OutboxLease, ids: readonly number[], work: (held: Set<number>) => Promise<T>): Promise<T> {
  const held = new Set(ids);
  const renewal = keepRenewing(lease, held);
  try {
    return await work(held);
  } finally {
    await renewal.stop();
    await releaseClaimedRows(lease.db, lease.table, lease.token, [...held]).catch(() => undefined);
  }
}

function keepRenewing(lease: OutboxLease, held: Set<number>) {
  let renewing: Promise<void> = Promise.resolve();
  let busy = false;
  const renew = () => {
    if (busy || held.size === 0) return;
    busy = true;
    const asked = [...held];
    renewing = renewClaimedRows(lease.db, lease.table, lease.token, asked, lease.now() + lease.leaseMs)
      .then((kept) => {
        for (const id of asked) if (!kept.has(id)) held.delete(id);
      })
      .catch(lease.onRenewalError)
      .finally(() => {
        busy = false;
      });
  };
  const timer = setInterval(renew, Math.max(1, Math.floor(lease.leaseMs / 3)));
  timer.unref?.();
  return {
    stop: async () => {
      clearInterval(timer);
      await renewing;
    },
  };
}
