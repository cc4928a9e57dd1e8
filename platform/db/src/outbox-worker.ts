import { randomBytes } from 'node:crypto';
import type { PlatformDb } from './database';
import type { Claim, OutboxTable } from './due-rows';
import { settleAttempt, type Attempt, type RetryPolicy, type SendResult } from './outbox-attempt';
import { holdingLeases } from './outbox-lease';
import { PollLoop } from './poll-loop';
import { silentLog, type Log } from './worker-log';

/** A row as its outbox's worker holds it: its id and how often it was tried before. */
export type OutboxRow = { id: number; attempts: number };

/**
 * What makes one outbox (lead deliveries, shopper mail, ad events): its table, how its rows are
 * claimed and recorded (its store's SQL), and how one is sent. The rest is the same for all.
 */
export type OutboxSpec<Row extends OutboxRow, Batch> = {
  /** The outbox in logs ("lead outbox"). */
  name: string;
  /** One of its rows in logs ("lead delivery"). */
  rowName: string;
  table: OutboxTable;
  /** Sends of one batch under way at once: 1 sends them one after the other. */
  lanes: number;
  /** Takes up to `limit` due rows with this worker's token and lease. */
  claim(claim: Claim): Promise<Row[]>;
  /** Reads at once what the batch's sends need (the lead outbox's leads and files). */
  prepare?(rows: readonly Row[]): Promise<Batch>;
  /** One send. Never expected to throw: a throw counts as a send to retry. */
  send(row: Row, batch: Batch, at: { now: number; log: Log }): Promise<SendResult>;
  /** Records finished attempts, each only while this worker still holds the row's claim. */
  record(token: string, attempts: readonly Attempt<Row>[], now: number): Promise<void>;
  /** The row in a log line (its ids, never what it carries). */
  about(row: Row): object;
};

export type OutboxSettings = RetryPolicy & {
  db: PlatformDb;
  leaseMs: number;
  /** How often the worker looks for due rows besides being nudged. */
  pollMs: number;
  /** Rows claimed at once. */
  batchSize: number;
  /** How long a nudge waits for more rows to send with it (0: at once). */
  nudgeDelayMs?: number;
  /** One send may take this long before it counts as one to retry; no limit by default (the transports time out on their own). */
  attemptTimeoutMs?: number;
  log?: Log;
  now?: () => number;
};

/**
 * The one outbox worker: polls (PollLoop) for due rows, claims a batch with its own token and a
 * lease (claimDueRows: two workers, in one process or two, never send one row at once), holds the
 * lease while it sends (holdingLeases renews it every third of a lease, so a batch may outlast
 * one), sends a few side by side, and records each result as soon as it is over. A failure is
 * retried after the backoff; a refusal, or the last attempt, gives the row up (a dead letter).
 * Stopping waits for the batch in hand; a worker killed mid-batch stops renewing, its leases run
 * out, and the rows it had not recorded are sent again.
 */
export class Outbox<Row extends OutboxRow, Batch = undefined> {
  private readonly loop: PollLoop;
  private log: Log;
  private readonly now: () => number;

  constructor(
    private readonly spec: OutboxSpec<Row, Batch>,
    private readonly settings: OutboxSettings,
  ) {
    this.log = settings.log ?? silentLog;
    this.now = settings.now ?? Date.now;
    this.loop = new PollLoop({
      runOnce: () => this.runOnce(),
      batchSize: settings.batchSize,
      pollMs: settings.pollMs,
      nudgeDelayMs: settings.nudgeDelayMs,
      onError: (error) => this.log.error({ err: error }, `${spec.name}: a poll failed; trying again at the next one`),
    });
  }

  /** Logs to the server's logger once it exists. */
  setLog(log: Log) {
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

  /** Rows were stored: look soon rather than at the next poll. */
  nudge() {
    this.loop.nudge();
  }

  /** Claims and sends one batch of due rows, holding their lease until each is recorded; returns how many were claimed. */
  async runOnce(): Promise<number> {
    const token = randomBytes(12).toString('base64url');
    const { db, leaseMs, batchSize } = this.settings;
    const rows = await this.spec.claim({ token, now: this.now(), leaseMs, limit: batchSize });
    if (rows.length === 0) return 0;
    const onRenewalError = (error: unknown) =>
      this.log.warn({ err: error }, `${this.spec.name}: could not renew the lease of a batch; trying again shortly`);
    const lease = { db, table: this.spec.table, token, leaseMs, now: this.now, onRenewalError };
    await holdingLeases(
      lease,
      rows.map((row) => row.id),
      (held) => this.sendAll(rows, token, held),
    );
    return rows.length;
  }

  /**
   * Sends the rows `lanes` at a time, recording each as it finishes; throws the first recording
   * error after all are done. Results that finish while a recording commits go into the next
   * commit together (a group commit), so a busy worker writes once per handful of sends rather
   * than once per send, and no lane waits on the database to start its next row.
   */
  private async sendAll(rows: readonly Row[], token: string, held: Set<number>): Promise<void> {
    const batch = this.spec.prepare ? await this.spec.prepare(rows) : (undefined as Batch);
    const failures: unknown[] = [];
    const waiting: Attempt<Row>[] = [];
    let committing: Promise<void> | null = null;
    const commit = (): Promise<void> => {
      const attempts = waiting.splice(0);
      return this.spec
        .record(token, attempts, this.now())
        .then(
          // Recorded, or taken by another worker after a lapsed lease: either way no longer this worker's.
          () => attempts.forEach(({ row }) => held.delete(row.id)),
          (error: unknown) => void failures.push(error),
        )
        .then(() => {
          committing = waiting.length > 0 ? commit() : null;
          return committing ?? undefined;
        });
    };
    let next = 0;
    const lane = async () => {
      while (next < rows.length) {
        const row = rows[next++]!;
        // Taken by another worker after this one's lease lapsed: not started here.
        if (!held.has(row.id)) continue;
        waiting.push(await this.attempt(row, batch));
        committing ??= commit();
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.spec.lanes, rows.length) }, lane));
    while (committing) await committing;
    if (failures.length > 0) throw failures[0];
  }

  private async attempt(row: Row, batch: Batch): Promise<Attempt<Row>> {
    const started = performance.now();
    let result: SendResult;
    try {
      // One turn of the event loop per send: a batch's rendering must not hold up the requests being answered meanwhile.
      await new Promise((resolve) => setImmediate(resolve));
      result = await this.withTimeout(this.spec.send(row, batch, { now: this.now(), log: this.log }));
    } catch (error) {
      result = { outcome: 'retry', status: 'error', detail: error instanceof Error ? error.message : String(error) };
    }
    const attempt = settleAttempt(row, result, row.attempts, this.settings, this.now(), performance.now() - started);
    this.logAttempt(attempt);
    return attempt;
  }

  private logAttempt({ row, result, state, attempts, nextAttemptAt }: Attempt<Row>) {
    const about = { ...this.spec.about(row), attempts, status: result.status ?? result.outcome, detail: result.detail };
    const { rowName } = this.spec;
    if (state === 'dead')
      this.log.warn(
        about,
        result.outcome === 'rejected' ? `${rowName} refused; not retried` : `${rowName} given up after its last attempt`,
      );
    else if (state === 'expired') this.log.warn(about, `${rowName} given up unsent: too old to send`);
    else if (state === 'failed') this.log.info({ ...about, nextAttemptAt }, `${rowName} not sent; will retry`);
  }

  private withTimeout<T>(promise: Promise<T>): Promise<T> {
    const ms = this.settings.attemptTimeoutMs;
    if (ms === undefined) return promise;
    let timer: NodeJS.Timeout;
    return Promise.race([
      promise,
      new Promise<T>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      }),
    ]).finally(() => clearTimeout(timer));
  }
}
