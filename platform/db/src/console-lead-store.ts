/**
 * The dealer console's view of leads (issue 23): the inbox's filtered pages, the dealer's workflow
 * on a lead (status, assignee, notes) and the audit log of every change made through the console.
 * Every read and write is scoped by the site: a lead of another site is never found.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DatabaseEngine } from './database-engine';
import type { PlatformDb } from './database';
import { leadColumns, toLead, type StoredLead } from './lead-store';
import { pageOf, pastPosition, type Page, type PagePosition } from './page-cursor';
import type { LeadDealerStatus, PlatformDatabase } from './schema';

type Db = Kysely<PlatformDatabase> | Transaction<PlatformDatabase>;

export type ConsoleLead = StoredLead & { dealer_status: LeadDealerStatus; assignee_id: number | null };

export type ConsoleLeadFilter = {
  /** The dealer's workflow status. */
  status?: LeadDealerStatus;
  /** The form (lead category: 'enquiry', 'test-drive', 'finance'...). */
  category?: string;
  /** A location's id as the lead names it (`location_id` or `booking_location_id`). */
  locationId?: number;
  from?: number;
  to?: number;
  /** Words anywhere in what the shopper sent (case-insensitive). */
  text?: string;
  assigneeId?: number;
};

/** Up to this many leads holding the searched words, PostgreSQL finds them all through the trigram index first. */
export const rareWordMatches = 2000;

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A page of a site's real leads (neither mock nor held as spam), newest first, filtered in the database. */
export async function consoleLeadPage(
  db: PlatformDb,
  engine: DatabaseEngine,
  siteId: number,
  filter: ConsoleLeadFilter,
  page: Page,
  /** Tests lower it to walk a common word's path with few leads. */
  fewMatches = rareWordMatches,
): Promise<{ leads: ConsoleLead[]; next: PagePosition | null }> {
  let query = db
    .selectFrom('leads')
    .select([...leadColumns, 'dealer_status', 'assignee_id'])
    .where('site_id', '=', siteId)
    .where('mock', '=', 0)
    .where('spam_reason', 'is', null);
  if (filter.status) query = query.where('dealer_status', '=', filter.status);
  if (filter.category) query = query.where('category', '=', filter.category);
  if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('created_at', '<=', filter.to);
  if (filter.assigneeId !== undefined) query = query.where('assignee_id', '=', filter.assigneeId);
  if (filter.locationId !== undefined) {
    const id = String(filter.locationId);
    query = query.where(
      engine === 'postgres'
        ? sql<boolean>`coalesce(payload::jsonb ->> 'location_id', payload::jsonb ->> 'booking_location_id') = ${id}`
        : sql<boolean>`cast(coalesce(json_extract(payload, '$.location_id'), json_extract(payload, '$.booking_location_id')) as text) = ${id}`,
    );
  }
  if (filter.text) {
    const pattern = likePattern(filter.text);
    const matching =
      engine === 'postgres' ? sql<boolean>`payload ilike ${pattern} escape '\\'` : sql<boolean>`payload like ${pattern} escape '\\'`;
    if (engine === 'postgres') {
      // PostgreSQL would walk the site's leads newest first and test each one, even with the trigram
      // index (migration 0017). A word few leads hold is found through that index at once; only a
      // common word keeps the walk, which then stops within a page.
      // Every other filter of the listing applies to the matches too.
      const few = await query
        .clearSelect()
        .select(['id', 'created_at'])
        .where(matching)
        .limit(fewMatches + 1)
        .execute();
      if (few.length <= fewMatches) {
        // The page is chosen here, newest first past the cursor: only its rows are read whole.
        const after = page.after;
        const ids = few
          .map((row) => ({ id: Number(row.id), at: Number(row.created_at) }))
          .filter((row) => !after || row.at < after.key || (row.at === after.key && row.id < after.id))
          .sort((a, b) => b.at - a.at || b.id - a.id)
          .slice(0, page.limit + 1)
          .map((row) => row.id);
        if (ids.length === 0) return { leads: [], next: null };
        query = query.where('id', 'in', ids);
      } else query = query.where(matching);
    } else query = query.where(matching);
  }
  if (page.after) query = query.where(pastPosition('created_at', 'desc', page.after));
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const leads = rows.map((row) => ({
    ...toLead(row),
    dealer_status: row.dealer_status,
    assignee_id: row.assignee_id === null ? null : Number(row.assignee_id),
  }));
  const { rows: listed, next } = pageOf(leads, page.limit, (lead) => ({ key: lead.created_at, id: lead.id }));
  return { leads: listed, next };
}

export async function consoleLead(db: Db, siteId: number, leadId: number): Promise<ConsoleLead | null> {
  const row = await db
    .selectFrom('leads')
    .select([...leadColumns, 'dealer_status', 'assignee_id'])
    .where('site_id', '=', siteId)
    .where('id', '=', leadId)
    .executeTakeFirst();
  return row
    ? { ...toLead(row), dealer_status: row.dealer_status, assignee_id: row.assignee_id === null ? null : Number(row.assignee_id) }
    : null;
}

export type LeadNote = { id: number; author: string; body: string; created_at: number };

export async function notesOfLead(db: Db, leadId: number): Promise<LeadNote[]> {
  const rows = await db
    .selectFrom('lead_notes')
    .select(['id', 'author', 'body', 'created_at'])
    .where('lead_id', '=', leadId)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ ...row, id: Number(row.id), created_at: Number(row.created_at) }));
}

export type WorkflowChange = { status?: LeadDealerStatus; assigneeId?: number | null; note?: string };

/**
 * Moves a lead on in the dealer's workflow (status, assignee) and adds a note, in one transaction
 * with its audit entry. Returns the values before and after, or null when the site has no such lead.
 */
export async function changeLeadWorkflow(
  db: PlatformDb,
  siteId: number,
  leadId: number,
  change: WorkflowChange,
  by: { userId: number; email: string },
  now: number,
) {
  return db.transaction().execute(async (trx) => {
    const lead = await consoleLead(trx, siteId, leadId);
    if (!lead) return null;
    const before = { status: lead.dealer_status, assignee_id: lead.assignee_id };
    const after = {
      status: change.status ?? before.status,
      assignee_id: change.assigneeId === undefined ? before.assignee_id : change.assigneeId,
    };
    if (after.status !== before.status || after.assignee_id !== before.assignee_id)
      await trx
        .updateTable('leads')
        .set({ dealer_status: after.status, assignee_id: after.assignee_id })
        .where('id', '=', leadId)
        .execute();
    if (change.note)
      await trx
        .insertInto('lead_notes')
        .values({ lead_id: leadId, user_id: by.userId, author: by.email, body: change.note, created_at: now })
        .execute();
    await insertAudit(
      trx,
      {
        siteId,
        userId: by.userId,
        userEmail: by.email,
        action: 'leads.update',
        target: `lead ${leadId}`,
        before,
        after: change.note ? { ...after, note: change.note } : after,
      },
      now,
    );
    return { before, after };
  });
}

/* ------------------------------------------------------------------ audit */

export type AuditEntry = {
  siteId: number | null;
  userId: number | null;
  userEmail: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
};

export async function insertAudit(db: Db, entry: AuditEntry, now: number) {
  await db
    .insertInto('console_audit')
    .values({
      site_id: entry.siteId,
      user_id: entry.userId,
      user_email: entry.userEmail,
      action: entry.action,
      target: entry.target,
      before: entry.before === undefined ? null : JSON.stringify(entry.before),
      after: entry.after === undefined ? null : JSON.stringify(entry.after),
      created_at: now,
    })
    .execute();
}

export type ListedAudit = {
  id: number;
  user_email: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
  created_at: number;
};

/** A page of a site's audit log, newest first. */
export async function auditPage(
  db: PlatformDb,
  siteId: number,
  page: Page,
): Promise<{ entries: ListedAudit[]; next: PagePosition | null }> {
  let query = db
    .selectFrom('console_audit')
    .select(['id', 'user_email', 'action', 'target', 'before', 'after', 'created_at'])
    .where('site_id', '=', siteId);
  if (page.after) query = query.where(pastPosition('created_at', 'desc', page.after));
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const entries = rows.map((row) => ({
    ...row,
    id: Number(row.id),
    created_at: Number(row.created_at),
    before: row.before === null ? null : (JSON.parse(row.before) as unknown),
    after: row.after === null ? null : (JSON.parse(row.after) as unknown),
  }));
  const { rows: listed, next } = pageOf(entries, page.limit, (entry) => ({ key: entry.created_at, id: entry.id }));
  return { entries: listed, next };
}

/** The forms (lead categories) a site's real leads came from, for the inbox's form filter: read from the (site_id, category) index. */
export async function leadFormsOfSite(db: PlatformDb, siteId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('leads')
    .select('category')
    .distinct()
    .where('site_id', '=', siteId)
    .orderBy('category')
    .limit(200)
    .execute();
  return rows.map((row) => row.category);
}
