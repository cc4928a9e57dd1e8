/**
 * Applying a feed (issue 24), in the background: one import of a site at a time (a lease on the
 * site's feed settings, renewed while it runs), the rows a batch at a time. For each batch the
 * photos not fetched before are fetched (4 at a time for the whole server, each bounded by
 * feed-fetch), processed as an uploaded photo is and remembered; then its changed and removed cars
 * are saved in one transaction (each change made on the car as it is then, so a hold taken since
 * the plan stays), its new cars added, and all of them pushed to search at once, so search and
 * pages show them within the second.
 * A photo that fails is reported on its row and the car imported without it; a row that fails
 * is reported and the rest imported. Cars the feed no longer has become sold. At the end: the
 * stock summary refreshed once, the site's cached config dropped, one audit entry, and the
 * report kept on the import. The scheduled pull (`pullDue`, every minute from workers.ts) fetches
 * a site's feed URL and applies it with its saved mapping.
 */
import type { Car } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';
import { listSiteCars } from '@dealer/db/car-store';
import { insertAudit } from '@dealer/db/console-lead-store';
import type { DatabaseEngine } from '@dealer/db/database-engine';
import type { PlatformDb } from '@dealer/db/database';
import * as store from '@dealer/db/feed-store';
import { saveSiteImage } from '@dealer/db/site-image-store';
import { addCar, clashingCars, refreshStockSummary, saveCar, slugTaken } from '@dealer/db/stock-store';
import type { Log } from '@dealer/db/worker-log';
import { carPhotoUrl, processCarPhoto } from '../images/car-photos';
import { ImageRefused } from '../images/site-images';
import { carFromEdit, CarRefused } from './car-edit';
import { breathe, FeedFileRefused, readFeedCsv } from './feed-csv';
import { fetchFeedCsv, fetchPhoto, FetchFailed } from './feed-fetch';
import { guessMapping, mappingForColumns } from './feed-fields';
import { countsOf, feedPhotoUrls, planFeed, rowsForReport, type FeedAction, type FeedCounts, type PlannedRow } from './feed-plan';

export const importRunningMessage = 'An import of this site is running.';
export const mappingNeedsKey = 'Map the stock number or the VIN: each car is found by one of them.';

/** A second import of a site while one runs. */
export class ImportRunning extends Error {
  constructor() {
    super(importRunningMessage);
  }
}

/** Who started an import: a console user, or the schedule. */
export type ImportActor = { userId: number | null; email: string };

export type ReportRow = { row: number; action: FeedAction; stocknum: string; name: string; reason?: string; changes?: string[] };
export type ImportReport = {
  counts: FeedCounts;
  /** Rejected rows first, at most `reportRowsKept`. */
  rows: ReportRow[];
  rows_total: number;
  photos: { fetched: number; failed: number; reused: number };
  seconds: number;
};

export const reportRowsKept = 2_000;

/** A stock number or VIN another car took since the plan, in the dealer's words. */
const clashReason = (clash: { stocknum: boolean; vin: boolean }) =>
  clash.stocknum ? 'another car of the site has this stock number' : 'another car of the site has this VIN';

/** How often the schedule looks for feeds due to be pulled. */
export const feedScheduleMs = 60_000;
const batchRows = 50;
const progressEveryRows = 100;
const scheduleEveryMs = { hourly: 60 * 60 * 1000, daily: 24 * 60 * 60 * 1000 } as const;

/** At most `limit` jobs at once, the rest waiting their turn in order. */
class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await job();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

export type FeedImportDeps = {
  db: PlatformDb;
  dialect: DatabaseEngine;
  indexer: { indexCars(siteId: number, cars: Car[]): Promise<void> };
  sites: { forId(siteId: number): Promise<SiteConfig | null>; clear(): void };
  allowPrivateAddresses: boolean;
  log: Log;
  /** How long a running import's lease lasts unrenewed (renewed every quarter of it). */
  leaseMs?: number;
};

export class FeedImports {
  private readonly running = new Map<number, Promise<void>>();
  private readonly photos = new Limiter(4);
  private stopping = false;
  private readonly leaseMs: number;

  constructor(private readonly deps: FeedImportDeps) {
    this.leaseMs = deps.leaseMs ?? 120_000;
  }

  /** Whether this server is running the import now. */
  isRunning(importId: number) {
    return this.running.has(importId);
  }

  /** The run of an import started here, to wait for (tests, the schedule). */
  settled(importId: number): Promise<void> {
    return this.running.get(importId) ?? Promise.resolve();
  }

  /**
   * Takes the site's lease and starts applying the import in the background with `mapping`.
   * Refuses with ImportRunning while another import of the site runs.
   */
  async start(siteId: number, importId: number, mapping: Record<string, string>, actor: ImportActor): Promise<void> {
    if (!(await store.claimSiteImport(this.deps.db, siteId, importId, Date.now(), this.leaseMs))) throw new ImportRunning();
    const run = this.run(siteId, importId, mapping, actor).finally(() => this.running.delete(importId));
    this.running.set(importId, run);
  }

  /** Stops between batches (the import is marked failed, to be applied again) and waits for the runs. */
  async stop() {
    this.stopping = true;
    await Promise.allSettled([...this.running.values()]);
  }

  private async run(siteId: number, importId: number, mapping: Record<string, string>, actor: ImportActor): Promise<void> {
    const { db, log } = this.deps;
    const started = Date.now();
    const renew = setInterval(() => {
      store
        .renewSiteImport(db, siteId, importId, Date.now() + this.leaseMs)
        .catch((error: unknown) => log.error({ err: error }, 'feed lease'));
    }, this.leaseMs / 4);
    renew.unref();
    try {
      const report = await this.apply(siteId, importId, mapping, started);
      await insertAudit(
        db,
        {
          siteId,
          userId: actor.userId,
          userEmail: actor.email,
          action: 'stock.import',
          target: `feed import ${importId}`,
          before: null,
          after: { counts: report.counts, photos: report.photos },
        },
        Date.now(),
      );
      await store.finishFeedImport(db, siteId, importId, { status: 'done', report, error: null }, Date.now());
    } catch (error) {
      const message = error instanceof FeedFileRefused || error instanceof FetchFailed ? error.message : null;
      if (!message && !this.stopping) log.error({ err: error, siteId, importId }, 'feed import failed');
      const shown = this.stopping ? store.feedImportStopped : (message ?? 'The import stopped on an error of ours; apply it again.');
      await store.finishFeedImport(db, siteId, importId, { status: 'failed', report: null, error: shown }, Date.now()).catch(() => {});
    } finally {
      clearInterval(renew);
    }
  }

  private async apply(siteId: number, importId: number, mapping: Record<string, string>, started: number): Promise<ImportReport> {
    const { db, dialect, log } = this.deps;
    const site = await this.deps.sites.forId(siteId);
    if (!site) throw new Error(`feed import of a site with no config (${siteId})`);
    const feed = await readFeedCsv((await store.feedImportCsv(db, siteId, importId)) ?? Buffer.alloc(0));
    const known = new Map<string, string>();
    const urls = feedPhotoUrls(feed, mapping);
    for (const [url, hash] of await store.knownFeedPhotos(db, siteId, urls)) known.set(url, carPhotoUrl(hash));
    const reused = known.size;
    const plan = await planFeed(site, await listSiteCars(db, siteId), feed, mapping, { knownPhotos: known });
    const outcomes: ReportRow[] = [];
    const photoCounts = { fetched: 0, failed: 0, reused };
    const failedPhotos = new Map<string, string>();
    const total = plan.rows.length;
    await store.setFeedImportProgress(db, importId, { done: 0, total });
    let lastProgress = 0;
    for (let start = 0; start < total; start += batchRows) {
      if (this.stopping) throw new Error('stopping');
      const batch = plan.rows.slice(start, start + batchRows);
      const wanted = [...new Set(batch.flatMap((row) => (row.action === 'rejected' ? [] : (row.photoUrls ?? []))))].filter(
        (url) => !known.has(url) && !failedPhotos.has(url),
      );
      await Promise.all(
        wanted.map((url) =>
          this.photos.run(async () => {
            try {
              const hash = await this.fetchPhoto(siteId, url);
              known.set(url, carPhotoUrl(hash));
              photoCounts.fetched++;
            } catch (error) {
              if (!(error instanceof FetchFailed || error instanceof ImageRefused)) log.error({ err: error, url }, 'feed photo');
              failedPhotos.set(
                url,
                error instanceof FetchFailed
                  ? error.message
                  : error instanceof ImageRefused
                    ? `The photo at ${url} cannot be used: ${error.message}`
                    : `The photo at ${url} could not be kept; it is tried again at the next import.`,
              );
              photoCounts.failed++;
            }
          }),
        ),
      );
      const saved = await this.saveBatch(site, batch, known, failedPhotos, outcomes);
      try {
        await this.deps.indexer.indexCars(siteId, saved);
      } catch (error) {
        // The store has them; search catches up at the next full indexing.
        log.error({ err: error, siteId, importId }, 'feed cars saved but not pushed to search');
      }
      const done = Math.min(total, start + batchRows);
      if (done - lastProgress >= progressEveryRows || done === total) {
        lastProgress = done;
        await store.setFeedImportProgress(db, importId, { done, total });
      }
      await breathe();
    }
    await refreshStockSummary(db, dialect, siteId, Date.now());
    this.deps.sites.clear();
    return {
      counts: countsOf(outcomes),
      rows: rowsForReport(outcomes, reportRowsKept),
      rows_total: outcomes.length,
      photos: photoCounts,
      seconds: Math.round((Date.now() - started) / 100) / 10,
    };
  }

  /** Fetches, processes and keeps one photo; its stored hash. */
  private async fetchPhoto(siteId: number, url: string): Promise<string> {
    const { bytes } = await fetchPhoto(url, { allowPrivate: this.deps.allowPrivateAddresses });
    const photo = await processCarPhoto(bytes, siteId, Date.now());
    await saveSiteImage(this.deps.db, photo);
    await store.recordFeedPhoto(this.deps.db, siteId, url, photo.hash, Date.now());
    return photo.hash;
  }

  /**
   * Saves a batch: the changed and removed cars in one transaction, each change made on the car as
   * it is now (held, on PostgreSQL), so a hold or sale written since the plan is not undone; then
   * each new car, added under a fresh id. Each row's outcome is added to `outcomes`.
   */
  private async saveBatch(
    site: SiteConfig,
    batch: PlannedRow[],
    known: Map<string, string>,
    failedPhotos: Map<string, string>,
    outcomes: ReportRow[],
  ): Promise<Car[]> {
    const { db, dialect } = this.deps;
    const saved: Car[] = [];
    const now = Date.now();
    const nowSeconds = Math.floor(now / 1000);
    /** What a row sets, its photos resolved, and its outcome so far. */
    const prepared = batch.map((row, index) => {
      const { before, edit, photoUrls, ...shown } = row;
      const outcome: ReportRow = { row: shown.row, action: shown.action, stocknum: shown.stocknum, name: shown.name };
      if (shown.changes) outcome.changes = shown.changes;
      const notes = shown.reason ? [shown.reason] : [];
      const failed = (photoUrls ?? []).filter((url) => failedPhotos.has(url));
      notes.push(...failed.map((url) => failedPhotos.get(url)!));
      const served = [...new Set((photoUrls ?? []).flatMap((url) => (known.has(url) ? [known.get(url)!] : [])))];
      // None of the listed photos could be had: the car keeps the ones it has.
      const change = edit && { ...edit, ...(photoUrls && served.length > 0 ? { photos: served } : {}) };
      return { index, row, before, change, outcome, notes };
    });
    /** Each row's outcome, in the batch's order. */
    const results: ReportRow[] = [];
    const done = (entry: (typeof prepared)[number], car: Car | null, refusal?: string) => {
      if (car) saved.push(car);
      const reason = refusal ? `Row ${entry.row.row}: ${refusal}` : entry.notes.join(' ');
      results[entry.index] = { ...entry.outcome, ...(refusal ? { action: 'rejected' as const } : {}), ...(reason ? { reason } : {}) };
    };
    const changing = prepared.filter(
      (entry) => entry.before && entry.change && (entry.row.action === 'changed' || entry.row.action === 'removed'),
    );
    await db.transaction().execute(async (trx) => {
      const ids = changing.map((entry) => entry.before!.id);
      let query = trx
        .selectFrom('cars')
        .select(['id', 'data'])
        .where('site_id', '=', site.id)
        .where('id', 'in', ids.length ? ids : [0]);
      if (dialect === 'postgres') query = query.forUpdate();
      const current = new Map((await query.execute()).map((one) => [Number(one.id), JSON.parse(one.data) as Car]));
      for (const entry of changing) {
        const car = current.get(entry.before!.id);
        if (!car) {
          done(entry, null, 'the car was deleted during the import');
          continue;
        }
        try {
          const after = carFromEdit(site, car, entry.change!, car.id, nowSeconds);
          const clash = await clashingCars(trx, site.id, after);
          if (clash.stocknum || clash.vin) throw new CarRefused({ [clash.stocknum ? 'stocknum' : 'vin']: clashReason(clash) });
          await saveCar(trx, site.id, after, now);
          done(entry, after);
        } catch (error) {
          if (!(error instanceof CarRefused)) throw error;
          done(entry, null, error.message);
        }
      }
    });
    for (const entry of prepared) {
      if (entry.row.action === 'new' && entry.change) {
        try {
          const draft = carFromEdit(site, null, entry.change, 0, nowSeconds);
          const clash = await clashingCars(db, site.id, draft);
          if (clash.stocknum || clash.vin) throw new CarRefused({ stocknum: clashReason(clash) });
          const slugFree = !(await slugTaken(db, site.id, draft.slug, null));
          const car = await addCar(db, site.id, (id) => ({ ...draft, id, slug: slugFree ? draft.slug : `${draft.slug}-${id}` }), now);
          done(entry, car);
        } catch (error) {
          if (!(error instanceof CarRefused)) throw error;
          done(entry, null, error.message);
        }
      } else if (!changing.includes(entry)) done(entry, null);
    }
    outcomes.push(...results);
    return saved;
  }

  /** Pulls the feeds whose scheduled time has come, one after another (workers.ts, every minute). */
  async pullDue(now = Date.now()): Promise<number> {
    let pulled = 0;
    for (const due of await store.dueFeedPulls(this.deps.db, now)) {
      const settings = await store.feedSettingsOf(this.deps.db, due.siteId);
      if (!settings?.url || settings.schedule === 'off') continue;
      if (!(await store.takeFeedPull(this.deps.db, due.siteId, due.nextPullAt, now + scheduleEveryMs[settings.schedule]))) continue;
      await this.pull(due.siteId, settings.url, settings.mapping);
      pulled++;
    }
    return pulled;
  }

  /** One scheduled pull: fetched, read, mapped with the saved mapping and applied; what fails is kept as a failed import. */
  async pull(siteId: number, url: string, saved: Record<string, string> | null): Promise<number> {
    const { db } = this.deps;
    let csv: Buffer;
    try {
      csv = (await fetchFeedCsv(url, { allowPrivate: this.deps.allowPrivateAddresses })).bytes;
    } catch (error) {
      if (!(error instanceof FetchFailed)) throw error;
      return store.createFeedImport(
        db,
        { siteId, source: 'url', csv: Buffer.alloc(0), status: 'failed', error: error.message },
        Date.now(),
      );
    }
    const id = await store.createFeedImport(db, { siteId, source: 'url', csv }, Date.now());
    const fail = (error: string) => store.finishFeedImport(db, siteId, id, { status: 'failed', report: null, error }, Date.now());
    try {
      const { columns } = await readFeedCsv(csv);
      const mapping = mappingForColumns(saved, columns) ?? mappingForColumns(guessMapping(columns), columns);
      if (!mapping) {
        await fail(mappingNeedsKey);
        return id;
      }
      await store.setFeedImportMapping(db, id, mapping);
      await this.start(siteId, id, mapping, { userId: null, email: 'scheduled feed pull' });
      await this.settled(id);
    } catch (error) {
      if (error instanceof FeedFileRefused || error instanceof ImportRunning) await fail(error.message);
      else throw error;
    }
    return id;
  }
}
