import type { Selectable, Transaction } from 'kysely';
import type { LeadDeliveryTargetSetting } from '@dealer/contracts/site';
import type { PlatformDb } from './database';
import type { DeliveryJobStatus, LeadDeliveryLogTable, PlatformDatabase } from './schema';

type Trx = Transaction<PlatformDatabase>;

/** A delivery job as the worker and the dealer see it. */
export type DeliveryJob = {
  id: number;
  lead_id: number;
  site_id: number;
  target: LeadDeliveryTargetSetting;
  status: DeliveryJobStatus;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
};

export type DeliveryLogEntry = Omit<Selectable<LeadDeliveryLogTable>, 'site_id'>;

/** A job row as stored: the target is JSON text. */
type JobRow = Omit<DeliveryJob, 'target'> & { target: string };

const jobColumns = ['id', 'lead_id', 'site_id', 'target', 'status', 'attempts', 'next_attempt_at', 'last_error', 'created_at', 'updated_at', 'delivered_at'] as const;

const toJob = (row: JobRow): DeliveryJob => ({
  ...row,
  id: Number(row.id),
  lead_id: Number(row.lead_id),
  target: JSON.parse(row.target) as LeadDeliveryTargetSetting,
  next_attempt_at: Number(row.next_attempt_at),
  created_at: Number(row.created_at),
  updated_at: Number(row.updated_at),
  delivered_at: row.delivered_at == null ? null : Number(row.delivered_at),
});

/** One pending job per target, due now. Called inside the transaction that saves (or completes, or releases) the lead. */
export async function enqueueDeliveries(trx: Trx, leadId: number, siteId: number, targets: readonly LeadDeliveryTargetSetting[], now = Date.now()): Promise<number> {
  if (targets.length === 0) return 0;
  await trx
    .insertInto('lead_delivery_jobs')
    .values(
      targets.map((target) => ({
        lead_id: leadId,
        site_id: siteId,
        target: JSON.stringify(target),
        status: 'pending' as const,
        attempts: 0,
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  return targets.length;
}

const claimable = ['pending', 'failed'] as const;

/**
 * Claims up to `limit` due jobs for one worker: a single UPDATE that sets this worker's claim
 * token and a lease, only on rows still claimable (pending or failed, due, no live lease). On
 * PostgreSQL a concurrent claimer blocks on the row lock and then re-checks that WHERE against
 * the new row, so it skips what another took; SQLite runs one writer at a time. A worker that
 * dies leaves its lease to run out, and the job is claimed again after it.
 */
export async function claimDueJobs(db: PlatformDb, opts: { token: string; now: number; leaseMs: number; limit: number }): Promise<DeliveryJob[]> {
  const { token, now, leaseMs, limit } = opts;
  const due = db
    .selectFrom('lead_delivery_jobs')
    .select('id')
    .where('status', 'in', claimable)
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit);
  const rows = await db
    .updateTable('lead_delivery_jobs')
    .set({ claim_token: token, claimed_until: now + leaseMs })
    .where('id', 'in', due)
    .where('status', 'in', claimable)
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .returning(jobColumns)
    .execute();
  return rows.map(toJob).sort((a, b) => a.id - b.id);
}

export type AttemptResult = {
  job: DeliveryJob;
  outcome: 'delivered' | 'failed' | 'dead';
  status: string;
  detail: string;
  durationMs: number;
  /** When a failed job is tried again. */
  nextAttemptAt: number | null;
};

/**
 * Records the attempts of one claimed batch in one transaction: each job's new state (only if
 * this worker still holds its claim) and one log row per attempt. Returns how many were recorded.
 */
export async function recordAttempts(db: PlatformDb, token: string, results: readonly AttemptResult[], now = Date.now()): Promise<number> {
  if (results.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    const kept = new Set<number>();
    // Deliveries, the common case, in one statement; failures each with their own next attempt.
    const delivered = results.filter((result) => result.outcome === 'delivered');
    for (let start = 0; start < delivered.length; start += 500) {
      const rows = await trx
        .updateTable('lead_delivery_jobs')
        .set((eb) => ({
          status: 'delivered' as const,
          attempts: eb('attempts', '+', 1),
          last_error: null,
          delivered_at: now,
          claim_token: null,
          claimed_until: null,
          updated_at: now,
        }))
        .where(
          'id',
          'in',
          delivered.slice(start, start + 500).map((result) => result.job.id),
        )
        .where('claim_token', '=', token)
        .returning('id')
        .execute();
      for (const row of rows) kept.add(Number(row.id));
    }
    for (const result of results) {
      if (result.outcome === 'delivered') continue;
      const updated = await trx
        .updateTable('lead_delivery_jobs')
        .set({
          status: result.outcome,
          attempts: result.job.attempts + 1,
          next_attempt_at: result.nextAttemptAt ?? result.job.next_attempt_at,
          last_error: `${result.status}: ${result.detail}`.slice(0, 2000),
          claim_token: null,
          claimed_until: null,
          updated_at: now,
        })
        .where('id', '=', result.job.id)
        .where('claim_token', '=', token)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 1) kept.add(result.job.id);
    }
    // Only attempts whose job this worker still held are logged (a lapsed lease may have passed it on).
    const logged = results.filter((result) => kept.has(result.job.id));
    for (let start = 0; start < logged.length; start += 200) {
      await trx
        .insertInto('lead_delivery_log')
        .values(
          logged.slice(start, start + 200).map((result) => ({
            job_id: result.job.id,
            lead_id: result.job.lead_id,
            site_id: result.job.site_id,
            attempt: result.job.attempts + 1,
            target_kind: result.job.target.kind,
            outcome: result.outcome,
            status: result.status.slice(0, 200),
            detail: result.detail.slice(0, 4000),
            duration_ms: Math.round(result.durationMs),
            created_at: now,
          })),
        )
        .execute();
    }
    return logged.length;
  });
}

/** Gives claimed jobs back untried (a worker stopping mid-batch), so another can take them at once. */
export async function releaseClaims(db: PlatformDb, token: string, jobIds: readonly number[]): Promise<void> {
  if (jobIds.length === 0) return;
  await db.updateTable('lead_delivery_jobs').set({ claim_token: null, claimed_until: null }).where('id', 'in', [...jobIds]).where('claim_token', '=', token).execute();
}

export async function listJobs(db: PlatformDb, leadId: number): Promise<DeliveryJob[]> {
  const rows = await db.selectFrom('lead_delivery_jobs').select(jobColumns).where('lead_id', '=', leadId).orderBy('id').execute();
  return rows.map(toJob);
}

export async function listDeliveryLog(db: PlatformDb, leadId: number): Promise<DeliveryLogEntry[]> {
  const rows = await db
    .selectFrom('lead_delivery_log')
    .select(['id', 'job_id', 'lead_id', 'attempt', 'target_kind', 'outcome', 'status', 'detail', 'duration_ms', 'created_at'])
    .where('lead_id', '=', leadId)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ ...row, id: Number(row.id), job_id: Number(row.job_id), lead_id: Number(row.lead_id), created_at: Number(row.created_at) }));
}

/** Where a lead's delivery stands, in one word: the worst of its jobs, or why it has none. */
export type DeliveryState = 'delivered' | 'pending' | 'retrying' | 'dead' | 'held_as_spam' | 'incomplete' | 'mock' | 'not_configured';

export type DeliverySummary = {
  state: DeliveryState;
  targets: { kind: string; status: DeliveryJobStatus; attempts: number; last_error: string | null; next_attempt_at: number | null; delivered_at: number | null }[];
};

/** The jobs of many leads of one site at once, for the dealer's list. */
export async function jobsOfLeads(db: PlatformDb, siteId: number, leadIds: readonly number[]): Promise<Map<number, DeliveryJob[]>> {
  const byLead = new Map<number, DeliveryJob[]>();
  // Chunked: an IN list of thousands of ids is slow on SQLite and capped on both engines.
  for (let start = 0; start < leadIds.length; start += 500) {
    const chunk = leadIds.slice(start, start + 500);
    const rows = await db.selectFrom('lead_delivery_jobs').select(jobColumns).where('site_id', '=', siteId).where('lead_id', 'in', chunk).orderBy('id').execute();
    for (const row of rows) {
      const job = toJob(row);
      byLead.set(job.lead_id, [...(byLead.get(job.lead_id) ?? []), job]);
    }
  }
  return byLead;
}

export function summariseDelivery(
  lead: { suspected_spam: boolean; mock: boolean; completed_at: number | null },
  jobs: readonly DeliveryJob[],
): DeliverySummary {
  const targets = jobs.map((job) => ({
    kind: job.target.kind,
    status: job.status,
    attempts: job.attempts,
    last_error: job.last_error,
    next_attempt_at: job.status === 'pending' || job.status === 'failed' ? job.next_attempt_at : null,
    delivered_at: job.delivered_at,
  }));
  let state: DeliveryState;
  if (lead.mock) state = 'mock';
  else if (lead.suspected_spam) state = 'held_as_spam';
  else if (lead.completed_at === null) state = 'incomplete';
  else if (jobs.length === 0) state = 'not_configured';
  else if (jobs.some((job) => job.status === 'dead')) state = 'dead';
  else if (jobs.some((job) => job.status === 'failed')) state = 'retrying';
  else if (jobs.some((job) => job.status === 'pending')) state = 'pending';
  else state = 'delivered';
  return { state, targets };
}

/** Dead letters of a site: jobs that ran out of attempts, newest first. */
export async function listDeadJobs(db: PlatformDb, siteId: number): Promise<DeliveryJob[]> {
  const rows = await db.selectFrom('lead_delivery_jobs').select(jobColumns).where('site_id', '=', siteId).where('status', '=', 'dead').orderBy('id', 'desc').execute();
  return rows.map(toJob);
}

/** Gives a dead job another round of attempts (a dealer fixed the target). */
export async function retryDeadJobs(db: PlatformDb, leadId: number, now = Date.now()): Promise<number> {
  const result = await db
    .updateTable('lead_delivery_jobs')
    .set({ status: 'pending', attempts: 0, next_attempt_at: now, updated_at: now, claim_token: null, claimed_until: null })
    .where('lead_id', '=', leadId)
    .where('status', '=', 'dead')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
