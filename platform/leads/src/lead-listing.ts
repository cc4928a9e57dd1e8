import { leadPage, type LeadListFilter } from '@dealer/db/admin-pages';
import type { PlatformDb } from '@dealer/db/database';
import type { StoredLead } from '@dealer/db/lead-store';
import { jobsOfLeads, summariseDelivery, type DeliverySummary } from '@dealer/db/lead-job-store';
import { pageSizes, type Page, type PagePosition } from '@dealer/db/page-cursor';

export type ListedLead = StoredLead & { delivery: DeliverySummary };

/** One page of a site's leads, newest first, each with where its delivery stands (the dealer's list). */
export async function listLeadPage(
  db: PlatformDb,
  siteId: number,
  filter: LeadListFilter,
  page: Page,
): Promise<{ leads: ListedLead[]; next: PagePosition | null }> {
  const { leads, next } = await leadPage(db, siteId, filter, page);
  const jobs = await jobsOfLeads(
    db,
    siteId,
    leads.map((lead) => lead.id),
  );
  return { leads: leads.map((lead) => ({ ...lead, delivery: summariseDelivery(lead, jobs.get(lead.id) ?? []) })), next };
}

/** All of a site's leads, a page at a time (the CSV and the CLI): never more than one page in memory. */
export async function* eachLeadPage(
  db: PlatformDb,
  siteId: number,
  filter: LeadListFilter = {},
  limit: number = pageSizes.max,
): AsyncGenerator<ListedLead[]> {
  let after: PagePosition | null = null;
  do {
    const page = await listLeadPage(db, siteId, filter, { after, limit });
    if (page.leads.length > 0) yield page.leads;
    after = page.next;
  } while (after);
}
