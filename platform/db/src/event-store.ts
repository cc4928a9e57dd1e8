import type { PlatformDb } from './database';

export type PlatformEventRecord = {
  siteId: number | null;
  category: string;
  url: string | null;
  errorMessage: string | null;
  payload: Record<string, unknown>;
};

/** The platform's event log: remote failures and analytics events the browser reports. */
export async function recordEvent(db: PlatformDb, event: PlatformEventRecord, now = Date.now()) {
  await db
    .insertInto('events')
    .values({
      site_id: event.siteId,
      category: event.category,
      url: event.url,
      error_message: event.errorMessage,
      payload: JSON.stringify(event.payload),
      created_at: now,
    })
    .execute();
}

/**
 * The kinds the platform's pages send (a page view, a SPEC §9 conversion, a failure): counted each
 * under its own name. Anything else a client made up is counted as `other`, so the counts of a
 * day stay a few dozen rows a site however many names a client invents.
 */
const countedCategory = (category: string) =>
  /^(page_view|event_\d{1,3}|remote_load_failed|app_error)$/.test(category) ? category : 'other';

const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);

/**
 * Deletes up to `limit` of the oldest events written before `before`, and adds them to their
 * site's daily counts in the same transaction, so the counts survive the events. The counts are
 * of the rows this call deleted (DELETE … RETURNING): two servers at it at once never count an
 * event twice. Events of no site are deleted uncounted. Returns how many were deleted: fewer than
 * `limit` means none older is left.
 */
export async function rollUpEventsBefore(db: PlatformDb, before: number, limit: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const oldest = trx.selectFrom('events').select('id').where('created_at', '<', before).orderBy('created_at').limit(limit);
    const deleted = await trx.deleteFrom('events').where('id', 'in', oldest).returning(['site_id', 'category', 'created_at']).execute();
    const counts = new Map<string, { site_id: number; day: string; category: string; count: number }>();
    for (const event of deleted) {
      if (event.site_id === null) continue;
      const row = {
        site_id: Number(event.site_id),
        day: utcDay(Number(event.created_at)),
        category: countedCategory(event.category),
        count: 1,
      };
      const key = `${row.site_id}|${row.day}|${row.category}`;
      const counted = counts.get(key);
      if (counted) counted.count += 1;
      else counts.set(key, row);
    }
    // In key order: two servers adding to the same counts take their row locks in one order (no deadlock).
    const rows = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
    if (rows.length > 0) {
      await trx
        .insertInto('event_daily_counts')
        .values(rows)
        .onConflict((oc) =>
          oc
            .columns(['site_id', 'day', 'category'])
            .doUpdateSet((eb) => ({ count: eb('event_daily_counts.count', '+', eb.ref('excluded.count')) })),
        )
        .execute();
    }
    return deleted.length;
  });
}
