import type { Transaction } from 'kysely';
import type { LeadDeliveryTargetSetting } from '@dealer/contracts/site';
import type { PlatformDb } from './database';
import type { PlatformDatabase } from './schema';
import { enqueueDeliveries } from './lead-job-store';

/** A lead as the dealer sees it. Never carries what makes its update token (the salt) nor the request hash. */
export type StoredLead = {
  id: number;
  site_id: number;
  category: string;
  lead_status: string;
  payload: Record<string, unknown>;
  created_at: number;
  updated_at: number;
  form_completed: boolean;
  has_files: boolean;
  /** Held as suspected spam: stored, not delivered until released. */
  suspected_spam: boolean;
  spam_reason: string | null;
  /** Saved through /mock: never delivered. */
  mock: boolean;
  /** When the lead became complete (null: a partial save so far). */
  completed_at: number | null;
};

type LeadRow = {
  id: number;
  site_id: number;
  category: string;
  lead_status: string;
  payload: string;
  created_at: number;
  updated_at: number;
  form_completed?: number;
  has_files?: number;
  spam_reason?: string | null;
  mock?: number;
  completed_at?: number | null;
};

export const toLead = (row: LeadRow): StoredLead => ({
  id: Number(row.id),
  site_id: row.site_id,
  category: row.category,
  lead_status: row.lead_status,
  payload: JSON.parse(row.payload) as Record<string, unknown>,
  created_at: Number(row.created_at),
  updated_at: Number(row.updated_at),
  form_completed: (row.form_completed ?? 1) === 1,
  has_files: (row.has_files ?? 0) === 1,
  suspected_spam: row.spam_reason != null,
  spam_reason: row.spam_reason ?? null,
  mock: (row.mock ?? 0) === 1,
  completed_at: row.completed_at == null ? null : Number(row.completed_at),
});

export const leadColumns = [
  'id',
  'site_id',
  'category',
  'lead_status',
  'payload',
  'created_at',
  'updated_at',
  'form_completed',
  'has_files',
  'spam_reason',
  'mock',
  'completed_at',
] as const;

/**
 * Writes a lead before anyone is told it succeeded. A retried create with the same
 * idempotency key returns the first lead instead of a second one.
 */
export async function createLead(
  db: PlatformDb,
  lead: { siteId: number; category: string; leadStatus: string; payload: Record<string, unknown>; idempotencyKey: string | null },
  now = Date.now(),
): Promise<{ lead: StoredLead; created: boolean }> {
  const result = await insertLead(
    db,
    {
      siteId: lead.siteId,
      category: lead.category,
      leadStatus: lead.leadStatus,
      payload: lead.payload,
      idempotencyKey: lead.idempotencyKey,
      requestHash: null,
      tokenSalt: null,
      formCompleted: lead.leadStatus !== 'Incomplete',
      hasFiles: false,
      spamReason: null,
      mock: false,
    },
    [],
    now,
  );
  return { lead: result.lead, created: result.created };
}

export type NewLead = {
  siteId: number;
  category: string;
  leadStatus: string;
  payload: Record<string, unknown>;
  idempotencyKey: string | null;
  /** sha256 of the normalised request, kept to tell a retry from another body under the same key. */
  requestHash: string | null;
  tokenSalt: string | null;
  /** False for a partial save: stored, not delivered until an update completes it. */
  formCompleted: boolean;
  hasFiles: boolean;
  spamReason: string | null;
  mock: boolean;
};

export type InsertedLead = {
  lead: StoredLead;
  created: boolean;
  /** The stored lead's request hash and salt: a replay is checked against the first and answered with the second. */
  requestHash: string | null;
  tokenSalt: string | null;
};

type Trx = Transaction<PlatformDatabase>;

/** Runs inside the lead's transaction once its id is known: e.g. moves its uploads into place and records them. */
export type WithinLeadTransaction = (trx: Trx, leadId: number) => Promise<void>;

/**
 * The lead and its delivery jobs (one per target, only when the lead is complete, not held as
 * spam and not mock) in ONE transaction: committed together before the shopper hears of success.
 * With an idempotency key, a second create returns the first lead (`created: false`), also when
 * two arrive at once: the unique key lets one insert, the other reads the winner.
 */
export async function insertLead(
  db: PlatformDb,
  lead: NewLead,
  targets: readonly LeadDeliveryTargetSetting[],
  now = Date.now(),
  within?: WithinLeadTransaction,
): Promise<InsertedLead> {
  const existing = async () => (lead.idempotencyKey ? findLeadByIdempotencyKey(db, lead.siteId, lead.idempotencyKey, lead.mock) : null);
  try {
    return await db.transaction().execute(async (trx) => {
      const complete = lead.formCompleted;
      // With a key already used, the insert does nothing (on PostgreSQL after waiting for a
      // concurrent insert of the same key to commit) and the first lead is read instead.
      const row = await trx
        .insertInto('leads')
        .values({
          site_id: lead.siteId,
          category: lead.category,
          lead_status: lead.leadStatus,
          idempotency_key: lead.idempotencyKey === null ? null : idempotencyColumn(lead.idempotencyKey, lead.mock),
          payload: JSON.stringify(lead.payload),
          created_at: now,
          updated_at: now,
          token_salt: lead.tokenSalt,
          request_hash: lead.requestHash,
          spam_reason: lead.spamReason,
          completed_at: complete ? now : null,
          form_completed: complete ? 1 : 0,
          has_files: lead.hasFiles ? 1 : 0,
          mock: lead.mock ? 1 : 0,
        })
        .onConflict((oc) => oc.columns(['site_id', 'idempotency_key']).doNothing())
        .returning(leadColumns)
        .executeTakeFirst();
      if (!row) {
        const first = await findLeadByIdempotencyKey(trx, lead.siteId, lead.idempotencyKey!, lead.mock);
        if (first) return first;
        throw new Error(`lead with idempotency key ${lead.idempotencyKey} neither inserted nor found`);
      }
      const leadId = Number(row.id);
      if (within) await within(trx, leadId);
      if (complete && !lead.spamReason && !lead.mock) await enqueueDeliveries(trx, leadId, lead.siteId, targets, now);
      return { lead: toLead(row), created: true, requestHash: lead.requestHash, tokenSalt: lead.tokenSalt };
    });
  } catch (error) {
    // Two concurrent creates with one key: the unique index lets one in; the other reads it.
    const first = await existing().catch(() => null);
    if (first) return first;
    throw error;
  }
}

/**
 * Mock leads keep their keys apart from real ones, so a key used on /mock never answers for /api.
 * The space cannot occur in a key the API accepts (visible ASCII only), so no real key collides.
 */
export const idempotencyColumn = (key: string, mock: boolean) => (mock ? `mock ${key}` : key);

async function findLeadByIdempotencyKey(db: PlatformDb | Trx, siteId: number, key: string, mock = false): Promise<InsertedLead | null> {
  const row = await db
    .selectFrom('leads')
    .select([...leadColumns, 'request_hash', 'token_salt'])
    .where('site_id', '=', siteId)
    .where('idempotency_key', '=', idempotencyColumn(key, mock))
    .executeTakeFirst();
  return row ? { lead: toLead(row), created: false, requestHash: row.request_hash, tokenSalt: row.token_salt } : null;
}

/** A lead with what its update token is checked against, or null. */
export async function findLeadForUpdate(db: PlatformDb, id: number): Promise<(StoredLead & { token_salt: string | null }) | null> {
  const row = await db
    .selectFrom('leads')
    .select([...leadColumns, 'token_salt'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? { ...toLead(row), token_salt: row.token_salt } : null;
}

export async function findLead(db: PlatformDb, id: number): Promise<StoredLead | null> {
  const row = await db.selectFrom('leads').select(leadColumns).where('id', '=', id).executeTakeFirst();
  return row ? toLead(row) : null;
}

/**
 * Saves an update of a lead. When it completes a lead that was partial, `completed_at` is set
 * (once: guarded in the WHERE, so two racing completions enqueue once) and its delivery jobs are
 * inserted in the same transaction, unless it is held as spam or mock.
 */
export async function saveLeadUpdate(
  db: PlatformDb,
  update: {
    id: number;
    siteId: number;
    category: string;
    leadStatus: string;
    payload: Record<string, unknown>;
    formCompleted: boolean;
    hasFiles: boolean;
  },
  targets: readonly LeadDeliveryTargetSetting[],
  now = Date.now(),
  within?: WithinLeadTransaction,
): Promise<StoredLead | null> {
  return db.transaction().execute(async (trx) => {
    const saved = await trx
      .updateTable('leads')
      .set({
        category: update.category,
        lead_status: update.leadStatus,
        payload: JSON.stringify(update.payload),
        updated_at: now,
        form_completed: update.formCompleted ? 1 : 0,
        has_files: update.hasFiles ? 1 : 0,
      })
      .where('id', '=', update.id)
      .where('site_id', '=', update.siteId)
      .returning(leadColumns)
      .executeTakeFirst();
    if (!saved) return null;
    if (within) await within(trx, update.id);
    if (!update.formCompleted || saved.completed_at != null) return toLead(saved);
    const completed = await trx
      .updateTable('leads')
      .set({ completed_at: now })
      .where('id', '=', update.id)
      .where('completed_at', 'is', null)
      .returning(leadColumns)
      .executeTakeFirst();
    if (!completed) return toLead(saved);
    if (!completed.spam_reason && completed.mock !== 1) await enqueueDeliveries(trx, update.id, update.siteId, targets, now);
    return toLead(completed);
  });
}

/**
 * Releases a lead held as suspected spam: it is no longer marked, and if it is complete its
 * deliveries are enqueued (in the same transaction). Null: no such lead on that site.
 */
export async function releaseLead(
  db: PlatformDb,
  id: number,
  targets: (siteId: number) => Promise<readonly LeadDeliveryTargetSetting[]>,
  now = Date.now(),
): Promise<{ lead: StoredLead; released: boolean; enqueued: number } | null> {
  const current = await findLead(db, id);
  if (!current) return null;
  if (!current.suspected_spam) return { lead: current, released: false, enqueued: 0 };
  const siteTargets = await targets(current.site_id);
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('leads')
      .set({ spam_reason: null, updated_at: now })
      .where('id', '=', id)
      .where('spam_reason', 'is not', null)
      .returning(leadColumns)
      .executeTakeFirst();
    if (!row) return { lead: current, released: false, enqueued: 0 };
    const lead = toLead(row);
    let enqueued = 0;
    if (lead.completed_at !== null && !lead.mock) enqueued = await enqueueDeliveries(trx, id, lead.site_id, siteTargets, now);
    return { lead, released: true, enqueued };
  });
}

export type LeadFilter = {
  since?: number;
  /** A lead status ('New', 'Incomplete'...), or 'suspected_spam' for the leads held as spam. */
  status?: string;
  /** Only mock leads (true), only real ones (false, the default), or both ('all'). */
  mock?: boolean | 'all';
};

export type StoredLeadFile = {
  id: number;
  lead_id: number;
  path: string;
  content_type: string;
  size: number;
  original_name: string;
  created_at: number;
};

export async function insertLeadFiles(
  trx: Trx,
  files: { leadId: number; siteId: number; path: string; contentType: string; size: number; originalName: string }[],
  now = Date.now(),
) {
  if (files.length === 0) return;
  await trx
    .insertInto('lead_files')
    .values(
      files.map((file) => ({
        lead_id: file.leadId,
        site_id: file.siteId,
        path: file.path,
        content_type: file.contentType,
        size: file.size,
        original_name: file.originalName,
        created_at: now,
      })),
    )
    .execute();
}

/** Bytes of the files a site's leads have stored since `sinceMs` (a day's uploads, held to a quota). */
export async function siteUploadBytesSince(db: PlatformDb, siteId: number, sinceMs: number): Promise<number> {
  const row = await db
    .selectFrom('lead_files')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('size'), eb.lit(0)).as('bytes'))
    .where('site_id', '=', siteId)
    .where('created_at', '>=', sinceMs)
    .executeTakeFirstOrThrow();
  return Number(row.bytes);
}

export async function listLeadFiles(db: PlatformDb, leadId: number): Promise<StoredLeadFile[]> {
  const rows = await db
    .selectFrom('lead_files')
    .select(['id', 'lead_id', 'path', 'content_type', 'size', 'original_name', 'created_at'])
    .where('lead_id', '=', leadId)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ ...row, id: Number(row.id), lead_id: Number(row.lead_id), created_at: Number(row.created_at) }));
}
