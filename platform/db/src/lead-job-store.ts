/** The lead outbox's rows: one delivery job per lead and target, their attempts (the delivery log), and the dealer's view of them. */
import type { Expression, ExpressionBuilder, Selectable, SqlBool, Transaction } from 'kysely';
import type { LeadDeliveryTargetSetting } from '@dealer/contracts/site';
import type { PlatformDb } from './database';
import { claimDueRows, type Claim } from './due-rows';
import type { Attempt } from './outbox-attempt';
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

const jobColumns = [
  'id',
  'lead_id',
  'site_id',
  'target',
  'status',
  'attempts',
  'next_attempt_at',
  'last_error',
  'created_at',
  'updated_at',
  'delivered_at',
] as const;

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
export async function enqueueDeliveries(
  trx: Trx,
  leadId: number,
  siteId: number,
  targets: readonly LeadDeliveryTargetSetting[],
  now = Date.now(),
): Promise<number> {
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

/**
 * Claims up to `limit` due jobs for one worker, with its claim token and a lease (see
 * claimDueRows: one conditional UPDATE, safe with several workers on either engine).
 */
export async function claimDueJobs(db: PlatformDb, claim: Claim): Promise<DeliveryJob[]> {
  const rows = await claimDueRows(db, { table: 'lead_delivery_jobs', columns: jobColumns, ...claim });
  return rows.map(toJob);
}

/** A lead as its delivery jobs need it. */
export type LeadToDeliver = { id: number; site_id: number; payload: string; created_at: number };

/** The leads of a batch of claimed jobs, by id, read at once (a lead deleted meanwhile is absent). */
export async function leadsToDeliver(db: PlatformDb, leadIds: readonly number[]): Promise<Map<number, LeadToDeliver>> {
  if (leadIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('leads')
    .select(['id', 'site_id', 'payload', 'created_at'])
    .where('id', 'in', [...leadIds])
    .execute();
  return new Map(
    rows.map((row) => [Number(row.id), { ...row, id: Number(row.id), site_id: Number(row.site_id), created_at: Number(row.created_at) }]),
  );
}

/** A job's status after an attempt: the outbox's `sent` is a lead's `delivered`; a lead is never too old to deliver. */
const jobStatus = { sent: 'delivered', failed: 'failed', dead: 'dead', expired: 'dead' } as const;

/**
 * Records attempts as soon as they are over: each job's new state and its log row, all in one
 * transaction, each only if this worker still holds the job's claim. A worker whose lease lapsed
 * and whose job another worker claimed records nothing for it, so no attempt is recorded twice.
 */
export async function recordAttempts(db: PlatformDb, token: string, attempts: readonly Attempt<DeliveryJob>[], now: number): Promise<void> {
  if (attempts.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const attempt of attempts) {
      const { row: job, result } = attempt;
      const status = jobStatus[attempt.state];
      const updated = await trx
        .updateTable('lead_delivery_jobs')
        .set({
          status,
          attempts: attempt.attempts,
          next_attempt_at: attempt.nextAttemptAt ?? job.next_attempt_at,
          last_error: attempt.lastError,
          delivered_at: status === 'delivered' ? now : null,
          claim_token: null,
          claimed_until: null,
          updated_at: now,
        })
        .where('id', '=', job.id)
        .where('claim_token', '=', token)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) continue;
      await trx
        .insertInto('lead_delivery_log')
        .values({
          job_id: job.id,
          lead_id: job.lead_id,
          site_id: job.site_id,
          attempt: attempt.attempts,
          target_kind: job.target.kind,
          outcome: status,
          status: (result.status ?? result.outcome).slice(0, 200),
          detail: result.detail.slice(0, 4000),
          duration_ms: Math.round(attempt.durationMs),
          created_at: now,
        })
        .execute();
    }
  });
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
  return rows.map((row) => ({
    ...row,
    id: Number(row.id),
    job_id: Number(row.job_id),
    lead_id: Number(row.lead_id),
    created_at: Number(row.created_at),
  }));
}

/** Where a lead's delivery stands, in one word: the worst of its jobs, or why it has none. */
export type DeliveryState = 'delivered' | 'pending' | 'retrying' | 'dead' | 'held_as_spam' | 'incomplete' | 'mock' | 'not_configured';

export type DeliverySummary = {
  state: DeliveryState;
  targets: {
    kind: string;
    status: DeliveryJobStatus;
    attempts: number;
    last_error: string | null;
    next_attempt_at: number | null;
    delivered_at: number | null;
  }[];
};

/** The jobs of many leads of one site at once, for the dealer's list. */
export async function jobsOfLeads(db: PlatformDb, siteId: number, leadIds: readonly number[]): Promise<Map<number, DeliveryJob[]>> {
  const byLead = new Map<number, DeliveryJob[]>();
  // Chunked: an IN list of thousands of ids is slow on SQLite and capped on both engines.
  for (let start = 0; start < leadIds.length; start += 500) {
    const chunk = leadIds.slice(start, start + 500);
    const rows = await db
      .selectFrom('lead_delivery_jobs')
      .select(jobColumns)
      .where('site_id', '=', siteId)
      .where('lead_id', 'in', chunk)
      .orderBy('id')
      .execute();
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

/**
 * `summariseDelivery`'s state as a condition on a lead row, so a listing filtered by it pages in
 * the database. Keep the two in step (admin-pages.test.ts checks every state against it).
 */
export function deliveryStateIs(state: DeliveryState) {
  return (eb: ExpressionBuilder<PlatformDatabase, 'leads'>): Expression<SqlBool> => {
    const hasJobs = (status?: DeliveryJobStatus) => {
      let jobs = eb
        .selectFrom('lead_delivery_jobs')
        .select('lead_delivery_jobs.id')
        .whereRef('lead_delivery_jobs.lead_id', '=', 'leads.id');
      if (status) jobs = jobs.where('lead_delivery_jobs.status', '=', status);
      return eb.exists(jobs);
    };
    const real = eb('leads.mock', '=', 0);
    const genuine = eb('leads.spam_reason', 'is', null);
    const due = [real, genuine, eb('leads.completed_at', 'is not', null)];
    switch (state) {
      case 'mock':
        return eb('leads.mock', '=', 1);
      case 'held_as_spam':
        return eb.and([real, eb('leads.spam_reason', 'is not', null)]);
      case 'incomplete':
        return eb.and([real, genuine, eb('leads.completed_at', 'is', null)]);
      case 'not_configured':
        return eb.and([...due, eb.not(hasJobs())]);
      case 'dead':
        return eb.and([...due, hasJobs('dead')]);
      case 'retrying':
        return eb.and([...due, eb.not(hasJobs('dead')), hasJobs('failed')]);
      case 'pending':
        return eb.and([...due, eb.not(hasJobs('dead')), eb.not(hasJobs('failed')), hasJobs('pending')]);
      case 'delivered':
        return eb.and([...due, hasJobs(), eb.not(hasJobs('dead')), eb.not(hasJobs('failed')), eb.not(hasJobs('pending'))]);
    }
  };
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
