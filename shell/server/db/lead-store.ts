import type { PlatformDb } from './database';

export type StoredLead = {
  id: number;
  site_id: number;
  category: string;
  lead_status: string;
  payload: Record<string, unknown>;
  created_at: number;
  updated_at: number;
};

const toLead = (row: { id: number; site_id: number; category: string; lead_status: string; payload: string; created_at: number; updated_at: number }): StoredLead => ({
  ...row,
  id: Number(row.id),
  payload: JSON.parse(row.payload) as Record<string, unknown>,
});

/**
 * Writes a lead before anyone is told it succeeded. A retried create with the same
 * idempotency key returns the first lead instead of a second one.
 */
export async function createLead(
  db: PlatformDb,
  lead: { siteId: number; category: string; leadStatus: string; payload: Record<string, unknown>; idempotencyKey: string | null },
  now = Date.now(),
): Promise<{ lead: StoredLead; created: boolean }> {
  if (lead.idempotencyKey) {
    const existing = await findLeadByIdempotencyKey(db, lead.siteId, lead.idempotencyKey);
    if (existing) return { lead: existing, created: false };
  }
  try {
    const row = await db
      .insertInto('leads')
      .values({
        site_id: lead.siteId,
        category: lead.category,
        lead_status: lead.leadStatus,
        idempotency_key: lead.idempotencyKey,
        payload: JSON.stringify(lead.payload),
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { lead: toLead(row), created: true };
  } catch (error) {
    // Two concurrent retries: the unique key lets one insert; the other reads the winner.
    if (lead.idempotencyKey) {
      const existing = await findLeadByIdempotencyKey(db, lead.siteId, lead.idempotencyKey);
      if (existing) return { lead: existing, created: false };
    }
    throw error;
  }
}

async function findLeadByIdempotencyKey(db: PlatformDb, siteId: number, key: string) {
  const row = await db.selectFrom('leads').selectAll().where('site_id', '=', siteId).where('idempotency_key', '=', key).executeTakeFirst();
  return row ? toLead(row) : null;
}

export async function listLeads(db: PlatformDb, siteId: number, filter: { since?: number; status?: string } = {}): Promise<StoredLead[]> {
  let query = db.selectFrom('leads').selectAll().where('site_id', '=', siteId);
  if (filter.since !== undefined) query = query.where('created_at', '>=', filter.since);
  if (filter.status) query = query.where('lead_status', '=', filter.status);
  const rows = await query.orderBy('id').execute();
  return rows.map(toLead);
}
