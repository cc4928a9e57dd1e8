/**
 * The admin listings a page at a time (see page-cursor.ts): a site's leads and events newest
 * first by (created_at, id), its diary soonest first by (starts_at, id). Every filter runs in the
 * database, so a page is full whenever more rows match.
 */
import type { PlatformDb } from './database';
import { leadColumns, toLead, type LeadFilter, type StoredLead } from './lead-store';
import { deliveryStateIs, type DeliveryState } from './lead-job-store';
import { pageOf, pastPosition, type Page, type PagePosition } from './page-cursor';

export type LeadListFilter = LeadFilter & { delivery?: DeliveryState };

export async function leadPage(
  db: PlatformDb,
  siteId: number,
  filter: LeadListFilter,
  page: Page,
): Promise<{ leads: StoredLead[]; next: PagePosition | null }> {
  let query = db.selectFrom('leads').select(leadColumns).where('site_id', '=', siteId);
  if (filter.since !== undefined) query = query.where('created_at', '>=', filter.since);
  if (filter.status === 'suspected_spam') query = query.where('spam_reason', 'is not', null);
  else if (filter.status) query = query.where('lead_status', '=', filter.status);
  const mock = filter.mock ?? false;
  if (mock !== 'all') query = query.where('mock', '=', mock ? 1 : 0);
  if (filter.delivery) query = query.where(deliveryStateIs(filter.delivery));
  const after = page.after;
  if (after) query = query.where(pastPosition('created_at', 'desc', after));
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const { rows: leads, next } = pageOf(rows.map(toLead), page.limit, (lead) => ({ key: lead.created_at, id: lead.id }));
  return { leads, next };
}

export type ListedEvent = { id: number; category: string; url: string | null; error_message: string | null; created_at: number };

export async function eventPage(
  db: PlatformDb,
  siteId: number,
  category: string | undefined,
  page: Page,
): Promise<{ events: ListedEvent[]; next: PagePosition | null }> {
  let query = db.selectFrom('events').select(['id', 'category', 'url', 'error_message', 'created_at']).where('site_id', '=', siteId);
  if (category) query = query.where('category', '=', category);
  const after = page.after;
  if (after) query = query.where(pastPosition('created_at', 'desc', after));
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const events = rows.map((row) => ({ ...row, id: Number(row.id), created_at: Number(row.created_at) }));
  const { rows: listed, next } = pageOf(events, page.limit, (event) => ({ key: event.created_at, id: event.id }));
  return { events: listed, next };
}

export type ListedBooking = {
  id: number;
  lead_id: number;
  location_id: number;
  kind: 'appointment' | 'service';
  starts_at: number;
  confirmed: boolean;
};

/** Confirmed bookings and live holds starting within [from, to]. */
export async function bookingPage(
  db: PlatformDb,
  siteId: number,
  where: { from: number; to: number; now: number },
  page: Page,
): Promise<{ bookings: ListedBooking[]; next: PagePosition | null }> {
  let query = db
    .selectFrom('bookings')
    .select(['id', 'lead_id', 'location_id', 'kind', 'starts_at', 'held_until'])
    .where('site_id', '=', siteId)
    .where('starts_at', '>=', where.from)
    .where('starts_at', '<=', where.to)
    .where((eb) => eb.or([eb('held_until', 'is', null), eb('held_until', '>', where.now)]));
  const after = page.after;
  if (after) query = query.where(pastPosition('starts_at', 'asc', after));
  const rows = await query
    .orderBy('starts_at')
    .orderBy('id')
    .limit(page.limit + 1)
    .execute();
  const { rows: listed, next } = pageOf(rows, page.limit, (row) => ({ key: Number(row.starts_at), id: Number(row.id) }));
  return {
    bookings: listed.map((row) => ({
      id: Number(row.id),
      lead_id: Number(row.lead_id),
      location_id: Number(row.location_id),
      kind: row.kind,
      starts_at: Number(row.starts_at),
      confirmed: row.held_until === null,
    })),
    next,
  };
}
