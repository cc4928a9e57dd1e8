/**
 * How long the event logs keep what they are sent (issue 6). `/api/events` writes a row per page
 * view and conversion, and `/api/fb-events` a row (and, for a site without a Conversions API token,
 * a file) per ad event: kept for ever they grow by gigabytes a day. This sweep, hourly in the
 * process that runs the outboxes, deletes
 *
 * - events older than EVENTS_RETENTION_DAYS (400), after adding them to their site's daily counts
 *   per kind (`event_daily_counts`, kept for good, a few dozen rows a site a day), so a dealer's
 *   long-term figures survive;
 * - ad events sent or given up more than AD_EVENTS_RETENTION_DAYS (30) ago, and the files in
 *   DATA_DIR/outbox/ad-events/<site>/ last written before then.
 *
 * Rows go a batch at a time, each batch its own short transaction with a turn of the event loop
 * between, so the sweep never holds the store or the server for long however far behind it is.
 * Two servers sweeping at once delete each row once and count it once (rollUpEventsBefore).
 */
import { lstat, opendir, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { PlatformDb } from '@dealer/db/database';
import { rollUpEventsBefore } from '@dealer/db/event-store';
import { PollLoop } from '@dealer/db/poll-loop';
import { silentLog, type Log as WorkerLog } from '@dealer/db/worker-log';
import { deleteFinishedAdEventsBefore } from '@dealer/db/ad-event-store';
import { adEventsOutboxDir } from '../ads/conversions-api';

const dayMs = 24 * 60 * 60 * 1000;

/** The retentions are counted in days: an hour late is nothing, and most runs find little. */
const sweepEveryMs = 60 * 60 * 1000;

type Log = Pick<WorkerLog, 'info' | 'error'>;

export type EventRetentionOptions = {
  db: PlatformDb;
  dataDir: string;
  eventsRetentionDays: number;
  adEventsRetentionDays: number;
  /** Rows deleted in one transaction. */
  batchSize?: number;
  log?: Log;
  now?: () => number;
};

export type RetentionSweepResult = { events: number; adEvents: number; adEventFiles: number };

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

export class EventRetention {
  private readonly loop: PollLoop;
  private readonly log: Log;
  private readonly now: () => number;
  private stopping = false;

  constructor(private readonly opts: EventRetentionOptions) {
    this.log = opts.log ?? silentLog;
    this.now = opts.now ?? Date.now;
    this.loop = new PollLoop({
      runOnce: async () => {
        await this.runOnce();
        // Never "a full batch": the next sweep waits its hour.
        return 0;
      },
      batchSize: 1,
      pollMs: sweepEveryMs,
      onError: (error) => this.log.error({ err: error }, 'event retention: a sweep failed; trying again in an hour'),
    });
  }

  /** Sweeps now, then every hour. */
  start() {
    this.stopping = false;
    this.loop.start();
  }

  /** Stops sweeping; a sweep under way ends after its current batch. */
  async stop() {
    this.stopping = true;
    await this.loop.stop();
  }

  /** One sweep; returns what it deleted. */
  async runOnce(now = this.now()): Promise<RetentionSweepResult> {
    const { db, dataDir } = this.opts;
    const eventsBefore = now - this.opts.eventsRetentionDays * dayMs;
    const adEventsBefore = now - this.opts.adEventsRetentionDays * dayMs;
    const result = {
      events: await this.inBatches((limit) => rollUpEventsBefore(db, eventsBefore, limit)),
      adEvents: await this.inBatches((limit) => deleteFinishedAdEventsBefore(db, adEventsBefore, limit)),
      adEventFiles: await this.deleteFilesBefore(adEventsOutboxDir(dataDir), adEventsBefore),
    };
    if (result.events + result.adEvents + result.adEventFiles > 0)
      this.log.info(result, 'event retention: old events deleted (their daily counts kept)');
    return result;
  }

  /** Runs `batch` until it deletes fewer than a batch, letting the server's requests run between batches. */
  private async inBatches(batch: (limit: number) => Promise<number>): Promise<number> {
    const limit = this.opts.batchSize ?? 1000;
    let total = 0;
    for (;;) {
      const deleted = await batch(limit);
      total += deleted;
      if (deleted < limit || this.stopping) return total;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Deletes the files in each site's folder under `root` last written before `before`. Returns how many. */
  private async deleteFilesBefore(root: string, before: number): Promise<number> {
    let deleted = 0;
    const sites = await opendir(root).catch((error: unknown) => {
      if (isMissing(error)) return null;
      throw error;
    });
    if (!sites) return 0;
    for await (const site of sites) {
      if (!site.isDirectory()) continue;
      const folder = path.join(root, site.name);
      const files = await opendir(folder).catch((error: unknown) => {
        if (isMissing(error)) return null;
        throw error;
      });
      if (!files) continue;
      for await (const entry of files) {
        if (this.stopping) return deleted;
        if (!entry.isFile()) continue;
        const file = path.join(folder, entry.name);
        const stats = await lstat(file).catch(() => null);
        if (!stats || stats.mtimeMs >= before) continue;
        // Another server sharing DATA_DIR may have deleted it first.
        await unlink(file).then(
          () => (deleted += 1),
          (error: unknown) => {
            if (!isMissing(error)) throw error;
          },
        );
      }
    }
    return deleted;
  }
}
