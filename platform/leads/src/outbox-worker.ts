import type { Car } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';
import { findCarById } from '@dealer/db/car-store';
import type { PlatformDb } from '@dealer/db/database';
import type { StoredLeadFile } from '@dealer/db/lead-store';
import type { SendResult } from '@dealer/db/outbox-attempt';
import { claimDueJobs, leadsToDeliver, recordAttempts, type DeliveryJob, type LeadToDeliver } from '@dealer/db/lead-job-store';
import { Outbox } from '@dealer/db/outbox-worker';
import type { Log } from '@dealer/db/worker-log';
import type { LeadsConfig } from './lead-settings';
import { resolveDeliveryTarget } from './delivery-config';
import type { DeliverableFile, DeliverableLead } from './deliverable-lead';
import { deliverLead as defaultDeliver, deliveryStatus, type DeliveryResult, type DeliveryTarget } from './delivery-targets';
import { LEAD_FILE_LINK_TTL_SECONDS, signedLeadFileUrl } from './lead-file-links';
import { listFilesOfLeads, storedFilePath } from './lead-file-store';

export type Deliver = (target: DeliveryTarget, lead: DeliverableLead) => Promise<DeliveryResult>;

export type OutboxWorkerOptions = {
  db: PlatformDb;
  dataDir: string;
  delivery: LeadsConfig['delivery'];
  /** The site of a job (cached by the caller). */
  siteOf: (siteId: number) => Promise<SiteConfig | null>;
  /** Signs the download links of a lead's files (the leads token secret, which the route checks them with); without it files go without links. */
  fileLinkSecret?: string;
  deliver?: Deliver;
  /** Jobs claimed at once, delivered side by side. */
  batchSize?: number;
  /** One attempt may take this long before it counts as failed. */
  attemptTimeoutMs?: number;
  log?: Log;
  now?: () => number;
};

/** Deliveries of one batch in flight at once. */
const deliveryLanes = 8;

/** How long a nudge waits for more leads to deliver with it. */
const nudgeDelayMs = 20;

/** What a batch's deliveries read at once: one query for its leads, one for their files. */
type LeadBatch = { leads: Map<number, LeadToDeliver>; files: Map<number, StoredLeadFile[]> };

/**
 * The lead outbox: the one outbox worker (@dealer/db/outbox-worker) delivering each lead to
 * each of its site's targets through `deliverLead`, eight side by side, every attempt in the
 * dealer's delivery log. A busy server's new leads are gathered for a few ms (nudges) and claimed
 * together, so it claims and reads its leads in batches rather than one run per lead.
 */
export class OutboxWorker extends Outbox<DeliveryJob, LeadBatch> {
  constructor(opts: OutboxWorkerOptions) {
    const { db, delivery } = opts;
    super(
      {
        name: 'lead outbox',
        rowName: 'lead delivery',
        table: 'lead_delivery_jobs',
        // A few deliveries side by side, not the whole batch: each one's rendering then runs between
        // the server's other work instead of a whole batch of renders back to back holding up the creates.
        lanes: deliveryLanes,
        claim: (claim) => claimDueJobs(db, claim),
        async prepare(jobs) {
          const leadIds = [...new Set(jobs.map((job) => job.lead_id))];
          const [leads, files] = await Promise.all([leadsToDeliver(db, leadIds), listFilesOfLeads(db, leadIds)]);
          return { leads, files };
        },
        send: (job, batch, at) => deliverJob(opts, job, batch, at),
        record: (token, attempts, now) => recordAttempts(db, token, attempts, now),
        about: (job) => ({ jobId: job.id, leadId: job.lead_id, target: job.target.kind }),
      },
      {
        db,
        backoffMs: delivery.backoffMs,
        maxAttempts: delivery.maxAttempts,
        leaseMs: delivery.leaseMs,
        pollMs: delivery.pollMs,
        batchSize: opts.batchSize ?? 50,
        nudgeDelayMs,
        attemptTimeoutMs: opts.attemptTimeoutMs ?? 30_000,
        log: opts.log,
        now: opts.now,
      },
    );
  }
}

/** `deliverLead`'s answer as the outbox's: `rejected` is its word for a refusal no retry can change (a 4xx, a bad target). */
const sendResultOf = ({ ok, status, detail }: DeliveryResult): SendResult => ({
  outcome: ok ? 'sent' : status === deliveryStatus.rejected ? 'rejected' : 'retry',
  status,
  detail,
});

/** Not delivered this time, though no target refused it: retried as any failure is, until the attempts run out. */
const notYet = (status: string, detail: string): SendResult => ({ outcome: 'retry', status, detail });

async function deliverJob(
  opts: OutboxWorkerOptions,
  job: DeliveryJob,
  batch: LeadBatch,
  at: { now: number; log: Log },
): Promise<SendResult> {
  const row = batch.leads.get(job.lead_id);
  if (!row) return notYet('no-lead', `lead ${job.lead_id} no longer exists`);
  const site = await opts.siteOf(job.site_id);
  if (!site) return notYet('no-site', `site ${job.site_id} no longer exists`);
  const resolved = resolveDeliveryTarget(job.target, site, {
    dataDir: opts.dataDir,
    smtpUrl: opts.delivery.smtpUrl,
    emailFrom: opts.delivery.emailFrom,
  });
  if (!resolved.ok) return notYet('not-configured', resolved.detail);
  const payload = JSON.parse(row.payload) as Record<string, unknown>;
  const lead: DeliverableLead = {
    id: row.id,
    site,
    payload,
    car: await carOf(opts.db, site, payload),
    createdAt: row.created_at,
    files: deliverableFiles(opts, job, site, batch.files.get(job.lead_id) ?? [], at),
  };
  return sendResultOf(await (opts.deliver ?? defaultDeliver)(resolved.target, lead));
}

/** The lead's files with fresh links (every attempt signs anew, so a retried delivery's links last as long). */
function deliverableFiles(
  opts: OutboxWorkerOptions,
  job: DeliveryJob,
  site: SiteConfig,
  stored: StoredLeadFile[],
  at: { now: number; log: Log },
): DeliverableFile[] {
  const secret = opts.fileLinkSecret;
  const expires = Math.floor(at.now / 1000) + LEAD_FILE_LINK_TTL_SECONDS;
  return stored.flatMap((file) => {
    const absolutePath = storedFilePath(opts.dataDir, file.path);
    if (!absolutePath) {
      at.log.warn(
        { jobId: job.id, leadId: job.lead_id, fileId: file.id },
        'lead file left out: its stored path leads outside the uploads folder',
      );
      return [];
    }
    const url = secret ? signedLeadFileUrl({ siteUrl: site.url, fileId: file.id, expires, secret }) : null;
    return [{ id: file.id, name: file.original_name, contentType: file.content_type, size: file.size, absolutePath, url }];
  });
}

async function carOf(db: PlatformDb, site: SiteConfig, payload: Record<string, unknown>): Promise<Car | null> {
  const carId = typeof payload.car_id === 'number' ? payload.car_id : typeof payload.car_id === 'string' ? Number(payload.car_id) : NaN;
  if (!Number.isSafeInteger(carId) || carId <= 0) return null;
  const found = await findCarById(db, carId);
  // Only the site's own car: a lead naming another dealer's car id gets no vehicle from it.
  return found && found.siteId === site.id ? found.car : null;
}
