import type { PlatformDb } from './database';
import { claimDueRows, type Claim } from './due-rows';
import { settledColumns, type Attempt } from './outbox-attempt';

/**
 * Stores an event (kept as its JSON), due now, unless the site already has one with its event id.
 * Returns its row id, or null for a repeat.
 */
export async function enqueueAdEvent(
  db: PlatformDb,
  siteId: number,
  event: { event_id: string; event_name: string },
  now: number,
): Promise<number | null> {
  const row = await db
    .insertInto('ad_events')
    .values({
      site_id: siteId,
      event_id: event.event_id,
      event_name: event.event_name,
      payload: JSON.stringify(event),
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['site_id', 'event_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

/**
 * Deletes up to `limit` of the oldest events that came before `before` and are over (sent or
 * given up: one still to send is left to the outbox, which gives it up once too old). Returns how
 * many: fewer than `limit` means none older is left.
 */
export async function deleteFinishedAdEventsBefore(db: PlatformDb, before: number, limit: number): Promise<number> {
  const oldest = db
    .selectFrom('ad_events')
    .select('id')
    .where('created_at', '<', before)
    .where('status', 'in', ['sent', 'dead', 'expired'])
    .orderBy('created_at')
    .limit(limit);
  const result = await db.deleteFrom('ad_events').where('id', 'in', oldest).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** An event as the outbox sends it: `payload` is its JSON. */
export type ClaimedAdEvent = { id: number; site_id: number; event_id: string; payload: string; attempts: number; created_at: number };

/** Claims due events for one worker (claimDueRows). */
export async function claimDueAdEvents(db: PlatformDb, claim: Claim): Promise<ClaimedAdEvent[]> {
  const rows = await claimDueRows(db, {
    table: 'ad_events',
    columns: ['id', 'site_id', 'event_id', 'payload', 'attempts', 'created_at'],
    ...claim,
  });
  return rows.map((row) => ({ ...row, id: Number(row.id), attempts: Number(row.attempts), created_at: Number(row.created_at) }));
}

/**
 * Records attempts at sending events, each only while this worker still holds its claim. An event
 * no longer to be sent loses its payload (the hashes, the client's address and browser).
 */
export async function recordAdEventAttempts(
  db: PlatformDb,
  token: string,
  attempts: readonly Attempt<ClaimedAdEvent>[],
  now: number,
): Promise<void> {
  if (attempts.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const attempt of attempts) {
      const { row, state } = attempt;
      await trx
        .updateTable('ad_events')
        .set({ ...settledColumns(attempt, now), ...(state === 'failed' ? {} : { payload: '' }) })
        .where('id', '=', row.id)
        .where('claim_token', '=', token)
        .execute();
    }
  });
}
