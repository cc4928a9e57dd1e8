import type { PlatformDb } from '../db/database';
import { listLeads, type LeadFilter, type StoredLead } from '../db/lead-store';
import { jobsOfLeads, summariseDelivery, type DeliveryState, type DeliverySummary } from '../db/outbox-store';

export type ListedLead = StoredLead & { delivery: DeliverySummary };

/** A site's leads with where each one's delivery stands (the dealer's list, the CSV and the CLI). */
export async function listLeadsWithDelivery(db: PlatformDb, siteId: number, filter: LeadFilter & { delivery?: DeliveryState } = {}): Promise<ListedLead[]> {
  const leads = await listLeads(db, siteId, filter);
  const jobs = await jobsOfLeads(
    db,
    siteId,
    leads.map((lead) => lead.id),
  );
  const listed = leads.map((lead) => ({ ...lead, delivery: summariseDelivery(lead, jobs.get(lead.id) ?? []) }));
  return filter.delivery ? listed.filter((lead) => lead.delivery.state === filter.delivery) : listed;
}
