import { randomBytes } from 'node:crypto';
import type { Car } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';
import { findCarById } from '@dealer/db/car-store';
import type { PlatformDb } from '@dealer/db/database';
import type { StoredLeadFile } from '@dealer/db/lead-store';
import { backoffDelay } from '@dealer/db/outbox-attempt';
import { PollLoop } from '@dealer/db/poll-loop';
import { holdingLeases } from '@dealer/db/outbox-lease';
import { claimDueJobs, recordAttempts, type AttemptResult, type DeliveryJob } from '@dealer/db/outbox-store';
import type { LeadsConfig } from './lead-settings';
import { resolveDeliveryTarget } from './delivery-config';
import { deliverLead as defaultDeliver, type DeliverableFile, type DeliverableLead, type DeliveryTarget } from './delivery-targets';
import { LEAD_FILE_LINK_TTL_SECONDS, signedLeadFileUrl } from './lead-file-links';
import { listFilesOfLeads, storedFilePath } from './lead-file-store';

export type Deliver = (target: DeliveryTarget, lead: DeliverableLead) => Promise<{ ok: boolean; status: string; detail: string }>;

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
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  now?: () => number;
};

const silent = { info() {}, warn() {}, error() {} };

/** Deliveries of one batch in flight at once. */
const deliveryLanes = 8;

/** How long a nudge waits for more leads to deliver with it. */
const nudgeDelayMs = 20;

/**
 * The outbox worker: polls for due delivery jobs, claims a batch with its own token and a lease
 * (so two workers, in one process or two, never deliver the same job at once), delivers each
 * through `deliverLead`, and records every attempt in the log as soon as it is over. The leases
 * of the jobs it still holds are renewed every third of a lease (holdingLeases, as the mail and
 * ad-event outboxes do), so a batch may take longer than one lease. A failure is retried after
 * the backoff; after `maxAttempts` the job is dead (a dead letter the dealer sees). Its polling is a PollLoop, as the mail and ad-event outboxes' are, with
 * nudges gathered for a few ms. Stopping waits for the batch in hand; a worker killed mid-batch
 * stops renewing, its leases run out, and the jobs it had not recorded are retried.
 */
export class OutboxWorker {
  private readonly loop: PollLoop;
  private readonly deliver: Deliver;
  private log: NonNullable<OutboxWorkerOptions['log']>;
  private readonly now: () => number;

  constructor(private readonly opts: OutboxWorkerOptions) {
    this.deliver = opts.deliver ?? defaultDeliver;
    this.log = opts.log ?? silent;
    this.now = opts.now ?? Date.now;
    this.loop = new PollLoop({
      runOnce: () => this.runOnce(),
      batchSize: opts.batchSize ?? 50,
      pollMs: opts.delivery.pollMs,
      nudgeDelayMs,
      onError: (error) => this.log.error({ err: error }, 'lead outbox: a poll failed; trying again at the next one'),
    });
  }

  /** Logs to the server's logger once it exists. */
  setLog(log: NonNullable<OutboxWorkerOptions['log']>) {
    this.log = log;
  }

  get isRunning(): boolean {
    return this.loop.isRunning;
  }

  start() {
    this.loop.start();
  }

  /** Stops polling and waits for the batch in hand to be recorded. */
  stop() {
    return this.loop.stop();
  }

  /**
   * New jobs were enqueued: look soon rather than at the next poll. Nudges within a few ms are
   * gathered into one run, so a busy server claims its leads in batches (one claim and one
   * lead read per batch) rather than one run per lead.
   */
  nudge() {
    this.loop.nudge();
  }

  /** Claims and delivers one batch of due jobs, holding their lease until each is recorded; returns how many were claimed. */
  async runOnce(): Promise<number> {
    const token = randomBytes(12).toString('base64url');
    const { leaseMs } = this.opts.delivery;
    const jobs = await claimDueJobs(this.opts.db, { token, now: this.now(), leaseMs, limit: this.opts.batchSize ?? 50 });
    if (jobs.length === 0) return 0;
    const onRenewalError = (error: unknown) => this.log.warn({ err: error }, 'lead outbox: could not renew the lease of a batch; trying again shortly');
    const lease = { db: this.opts.db, table: 'lead_delivery_jobs', token, leaseMs, now: this.now, onRenewalError } as const;
    await holdingLeases(lease, jobs.map((job) => job.id), (held) => this.attemptAll(jobs, token, held));
    return jobs.length;
  }

  /**
   * Delivers the jobs a few side by side, recording each as it finishes; throws the first
   * recording error after all are done. Results that finish while a recording commits go into the
   * next commit together (a group commit), so a busy worker writes once per handful of deliveries
   * rather than once per delivery, and no lane waits on the database to start its next job.
   */
  private async attemptAll(jobs: DeliveryJob[], token: string, held: Set<number>): Promise<void> {
    const leadIds = [...new Set(jobs.map((job) => job.lead_id))];
    const [rows, files] = await Promise.all([
      this.opts.db.selectFrom('leads').select(['id', 'site_id', 'payload', 'created_at']).where('id', 'in', leadIds).execute(),
      listFilesOfLeads(this.opts.db, leadIds),
    ]);
    const leads = new Map(rows.map((row) => [Number(row.id), row]));
    const failures: unknown[] = [];
    const waiting: AttemptResult[] = [];
    let committing: Promise<void> | null = null;
    const commit = (): Promise<void> => {
      const results = waiting.splice(0);
      return recordAttempts(this.opts.db, token, results, this.now())
        .then(
          // Recorded, or taken by another worker after a lapsed lease: either way no longer this worker's.
          () => results.forEach((result) => held.delete(result.job.id)),
          (error: unknown) => void failures.push(error),
        )
        .then(() => {
          committing = waiting.length > 0 ? commit() : null;
          return committing ?? undefined;
        });
    };
    const record = (result: AttemptResult) => {
      waiting.push(result);
      committing ??= commit();
    };
    // A few deliveries side by side, not the whole batch: each one's rendering then runs between
    // the server's other work instead of a whole batch of renders back to back holding up the creates.
    let next = 0;
    const lane = async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        if (!held.has(job.id)) continue;
        record(await this.attempt(job, leads.get(job.lead_id), files.get(job.lead_id) ?? []));
      }
    };
    await Promise.all(Array.from({ length: Math.min(deliveryLanes, jobs.length) }, lane));
    while (committing) await committing;
    if (failures.length > 0) throw failures[0];
  }

  private async attempt(
    job: DeliveryJob,
    row: { id: number; site_id: number; payload: string; created_at: number } | undefined,
    storedFiles: StoredLeadFile[],
  ): Promise<AttemptResult> {
    const started = performance.now();
    const finish = (ok: boolean, status: string, detail: string): AttemptResult => {
      const failures = job.attempts + 1;
      // 'rejected' is deliverLead's word for a refusal that a retry cannot change (a 4xx, a bad target).
      const permanent = status === 'rejected';
      const outcome = ok ? 'delivered' : permanent || failures >= this.opts.delivery.maxAttempts ? 'dead' : 'failed';
      const nextAttemptAt = outcome === 'failed' ? this.now() + backoffDelay(this.opts.delivery.backoffMs, failures) : null;
      const durationMs = performance.now() - started;
      if (outcome === 'dead') this.log.warn({ jobId: job.id, leadId: job.lead_id, target: job.target.kind, status, detail }, 'lead delivery dead after its last attempt');
      else if (outcome === 'failed') this.log.info({ jobId: job.id, leadId: job.lead_id, target: job.target.kind, status, detail, nextAttemptAt }, 'lead delivery failed; will retry');
      return { job, outcome, status, detail, durationMs, nextAttemptAt };
    };
    try {
      // One turn of the event loop per delivery: a batch's document rendering must not hold up
      // the creates being answered meanwhile.
      await new Promise((resolve) => setImmediate(resolve));
      if (!row) return finish(false, 'no-lead', `lead ${job.lead_id} no longer exists`);
      const site = await this.opts.siteOf(job.site_id);
      if (!site) return finish(false, 'no-site', `site ${job.site_id} no longer exists`);
      const resolved = resolveDeliveryTarget(job.target, site, { dataDir: this.opts.dataDir, smtpUrl: this.opts.delivery.smtpUrl, emailFrom: this.opts.delivery.emailFrom });
      if (!resolved.ok) return finish(false, 'not-configured', resolved.detail);
      const payload = JSON.parse(row.payload) as Record<string, unknown>;
      const lead: DeliverableLead = {
        id: Number(row.id),
        site,
        payload,
        car: await this.carOf(site, payload),
        createdAt: Number(row.created_at),
        files: this.deliverableFiles(job, site, storedFiles),
      };
      const result = await this.withTimeout(this.deliver(resolved.target, lead));
      return finish(result.ok, result.status, result.detail);
    } catch (error) {
      return finish(false, 'error', error instanceof Error ? error.message : String(error));
    }
  }

  /** The lead's files with fresh links (every attempt signs anew, so a retried delivery's links last as long). */
  private deliverableFiles(job: DeliveryJob, site: SiteConfig, stored: StoredLeadFile[]): DeliverableFile[] {
    const secret = this.opts.fileLinkSecret;
    const expires = Math.floor(this.now() / 1000) + LEAD_FILE_LINK_TTL_SECONDS;
    return stored.flatMap((file) => {
      const absolutePath = storedFilePath(this.opts.dataDir, file.path);
      if (!absolutePath) {
        this.log.warn({ jobId: job.id, leadId: job.lead_id, fileId: file.id }, 'lead file left out: its stored path leads outside the uploads folder');
        return [];
      }
      const url = secret ? signedLeadFileUrl({ siteUrl: site.url, fileId: file.id, expires, secret }) : null;
      return [{ id: file.id, name: file.original_name, contentType: file.content_type, size: file.size, absolutePath, url }];
    });
  }

  private async carOf(site: SiteConfig, payload: Record<string, unknown>): Promise<Car | null> {
    const carId = typeof payload.car_id === 'number' ? payload.car_id : typeof payload.car_id === 'string' ? Number(payload.car_id) : NaN;
    if (!Number.isSafeInteger(carId) || carId <= 0) return null;
    const found = await findCarById(this.opts.db, carId);
    // Only the site's own car: a lead naming another dealer's car id gets no vehicle from it.
    return found && found.siteId === site.id ? found.car : null;
  }

  private withTimeout<T>(promise: Promise<T>): Promise<T> {
    const ms = this.opts.attemptTimeoutMs ?? 30_000;
    let timer: NodeJS.Timeout;
    return Promise.race([
      promise,
      new Promise<T>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      }),
    ]).finally(() => clearTimeout(timer));
  }
}
