import type { ExpressionBuilder, Generated, Kysely, Selectable } from 'kysely';
import type { PlatformDb } from './database';
import type { PlatformDatabase } from './schema';

/** The columns an outbox row is claimed by: a status, when it is next due, and a worker's claim token and lease. */
type ClaimColumns = {
  id: Generated<number>;
  status: string;
  next_attempt_at: number;
  claim_token: string | null;
  claimed_until: number | null;
};

/** The outbox tables (those with the claim columns): lead_delivery_jobs, shopper_mail, console_mail, ad_events. */
export type OutboxTable = { [K in keyof PlatformDatabase]: PlatformDatabase[K] extends ClaimColumns ? K : never }[keyof PlatformDatabase];

/** A column of an outbox table, as read back. */
export type OutboxColumn<T extends OutboxTable> = keyof Selectable<PlatformDatabase[T]> & string;

/** Rows that may still be sent: not sent (delivered) and not given up (dead, expired). The same in all three outboxes. */
const claimable = ['pending', 'failed'] as const;

/** Every outbox table seen as its claim columns alone, under one name, so one query serves all of them. */
type AnyOutbox = { outbox: ClaimColumns };
const asAnyOutbox = (db: PlatformDb) => db as unknown as Kysely<AnyOutbox>;
const tableName = (table: OutboxTable) => table as unknown as 'outbox';

/** Due now: still claimable, its next attempt time reached, and not claimed or its lease run out. */
const dueAt = (now: number) => (eb: ExpressionBuilder<AnyOutbox, 'outbox'>) =>
  eb.and([
    eb('status', 'in', claimable),
    eb('next_attempt_at', '<=', now),
    eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]),
  ]);

/** A claimed row: the columns asked for, and its id. */
export type ClaimedRow<T extends OutboxTable, C extends OutboxColumn<T>> = Pick<Selectable<PlatformDatabase[T]>, C> & { id: number };

/** One worker's claim on a batch of due rows. */
export type Claim = {
  /** This worker's claim, written on each row it takes. */
  token: string;
  now: number;
  /** The claim lasts until `now + leaseMs`; after that the row may be claimed again. */
  leaseMs: number;
  limit: number;
};

export type ClaimDueRowsOptions<T extends OutboxTable, C extends OutboxColumn<T>> = Claim & {
  table: T;
  /** What to read back of each claimed row (its id always comes back). */
  columns: readonly C[];
};

/**
 * Claims up to `limit` due rows of an outbox for one worker, the most overdue first (by
 * next_attempt_at, then id): a single UPDATE that sets this worker's claim token and a lease, only
 * on rows still claimable (pending or failed, due, no live lease). On PostgreSQL a concurrent
 * claimer blocks on the row lock and then re-checks that WHERE against the new row, so it skips
 * what another took; SQLite runs one writer at a time. A worker that dies leaves its lease to run
 * out, and the row is claimed again after it. Returns the claimed rows by id.
 */
export async function claimDueRows<T extends OutboxTable, C extends OutboxColumn<T>>(
  db: PlatformDb,
  opts: ClaimDueRowsOptions<T, C>,
): Promise<ClaimedRow<T, C>[]> {
  const { token, now, leaseMs, limit } = opts;
  const outbox = asAnyOutbox(db);
  const table = tableName(opts.table);
  const due = outbox.selectFrom(table).select('id').where(dueAt(now)).orderBy('next_attempt_at').orderBy('id').limit(limit);
  const columns = [...new Set(['id', ...opts.columns])] as unknown as readonly 'id'[];
  const rows = await outbox
    .updateTable(table)
    .set({ claim_token: token, claimed_until: now + leaseMs })
    .where('id', 'in', due)
    .where(dueAt(now))
    .returning(columns)
    .execute();
  return (rows as unknown as ClaimedRow<T, C>[]).sort((a, b) => Number(a.id) - Number(b.id));
}

/**
 * Extends a worker's lease on the rows it still holds to `until`. Returns the ids it still holds:
 * one missing was recorded meanwhile or, after a lapsed lease, claimed by another worker.
 */
export async function renewClaimedRows(
  db: PlatformDb,
  table: OutboxTable,
  token: string,
  ids: readonly number[],
  until: number,
): Promise<Set<number>> {
  const held = new Set<number>();
  for (let start = 0; start < ids.length; start += 500) {
    const rows = await asAnyOutbox(db)
      .updateTable(tableName(table))
      .set({ claimed_until: until })
      .where('id', 'in', ids.slice(start, start + 500))
      .where('claim_token', '=', token)
      .returning('id')
      .execute();
    for (const row of rows) held.add(Number(row.id));
  }
  return held;
}

/** Gives claimed rows back untried (a worker stopping mid-batch, or short of lease), so another can take them at once. */
export async function releaseClaimedRows(db: PlatformDb, table: OutboxTable, token: string, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await asAnyOutbox(db)
    .updateTable(tableName(table))
    .set({ claim_token: null, claimed_until: null })
    .where('id', 'in', [...ids])
    .where('claim_token', '=', token)
    .execute();
}
