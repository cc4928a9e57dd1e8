/**
 * Inventory feeds (migration 0022): a site's feed settings, its imports and the feed photos already
 * fetched. One import of a site runs at a time: the running one holds a lease on the site's
 * settings row, renewed while it runs, so a server that stopped mid-import does not block the
 * site for good.
 */
import type { PlatformDb } from './database';
import type { FeedImportSource, FeedImportStatus, FeedSchedule } from './schema';

export type FeedMapping = Record<string, string>;

export type FeedSettings = { mapping: FeedMapping | null; url: string | null; schedule: FeedSchedule; nextPullAt: number | null };

export type FeedImportProgress = { done: number; total: number };

/** An import as listed and polled: everything but its CSV. */
export type FeedImport = {
  id: number;
  siteId: number;
  source: FeedImportSource;
  status: FeedImportStatus;
  mapping: FeedMapping | null;
  report: unknown;
  progress: FeedImportProgress | null;
  error: string | null;
  createdAt: number;
  finishedAt: number | null;
};

/** Imports kept per site (their reports shown); older ones are deleted as new ones come. */
export const feedImportsKept = 20;

const parsed = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

export async function feedSettingsOf(db: PlatformDb, siteId: number): Promise<FeedSettings | null> {
  const row = await db.selectFrom('feed_settings').selectAll().where('site_id', '=', siteId).executeTakeFirst();
  if (!row) return null;
  return {
    mapping: parsed<FeedMapping>(row.mapping),
    url: row.url,
    schedule: row.schedule,
    nextPullAt: row.next_pull_at === null ? null : Number(row.next_pull_at),
  };
}

/** Makes the site's settings row if it has none yet (all off). */
async function ensureSettingsRow(db: PlatformDb, siteId: number, now: number) {
  await db
    .insertInto('feed_settings')
    .values({
      site_id: siteId,
      mapping: null,
      url: null,
      schedule: 'off',
      next_pull_at: null,
      import_id: null,
      import_until: null,
      updated_at: now,
    })
    .onConflict((conflict) => conflict.column('site_id').doNothing())
    .execute();
}

/** Changes what is given of the site's feed settings. */
export async function saveFeedSettings(db: PlatformDb, siteId: number, change: Partial<FeedSettings>, now: number): Promise<void> {
  await ensureSettingsRow(db, siteId, now);
  await db
    .updateTable('feed_settings')
    .set({
      ...(change.mapping !== undefined ? { mapping: change.mapping === null ? null : JSON.stringify(change.mapping) } : {}),
      ...(change.url !== undefined ? { url: change.url } : {}),
      ...(change.schedule !== undefined ? { schedule: change.schedule } : {}),
      ...(change.nextPullAt !== undefined ? { next_pull_at: change.nextPullAt } : {}),
      updated_at: now,
    })
    .where('site_id', '=', siteId)
    .execute();
}

const importColumns = ['id', 'site_id', 'source', 'status', 'mapping', 'report', 'progress', 'error', 'created_at', 'finished_at'] as const;

type ImportRow = {
  id: number;
  site_id: number;
  source: FeedImportSource;
  status: FeedImportStatus;
  mapping: string | null;
  report: string | null;
  progress: string | null;
  error: string | null;
  created_at: number;
  finished_at: number | null;
};

const importOf = (row: ImportRow): FeedImport => ({
  id: Number(row.id),
  siteId: Number(row.site_id),
  source: row.source,
  status: row.status,
  mapping: parsed<FeedMapping>(row.mapping),
  report: parsed<unknown>(row.report),
  progress: parsed<FeedImportProgress>(row.progress),
  error: row.error,
  createdAt: Number(row.created_at),
  finishedAt: row.finished_at === null ? null : Number(row.finished_at),
});

/** Keeps a feed as it came, to be checked (dry run) and applied; the site's oldest imports beyond `feedImportsKept` go. */
export async function createFeedImport(
  db: PlatformDb,
  entry: { siteId: number; source: FeedImportSource; csv: Buffer; status?: FeedImportStatus; error?: string | null },
  now: number,
): Promise<number> {
  const failed = entry.status === 'failed';
  const row = await db
    .insertInto('feed_imports')
    .values({
      site_id: entry.siteId,
      source: entry.source,
      status: entry.status ?? 'previewed',
      csv: entry.csv,
      mapping: null,
      report: null,
      progress: null,
      error: entry.error ?? null,
      created_at: now,
      finished_at: failed ? now : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const old = await db
    .selectFrom('feed_imports')
    .select('id')
    .where('site_id', '=', entry.siteId)
    .orderBy('id', 'desc')
    .limit(1000)
    .offset(feedImportsKept)
    .execute();
  if (old.length > 0)
    await db
      .deleteFrom('feed_imports')
      .where(
        'id',
        'in',
        old.map((one) => one.id),
      )
      .where('status', '!=', 'running')
      .execute();
  return Number(row.id);
}

export async function feedImportOf(db: PlatformDb, siteId: number, id: number): Promise<FeedImport | null> {
  const row = await db
    .selectFrom('feed_imports')
    .select(importColumns)
    .where('id', '=', id)
    .where('site_id', '=', siteId)
    .executeTakeFirst();
  return row ? importOf(row) : null;
}

/** The CSV of an import (empty once it was applied). */
export async function feedImportCsv(db: PlatformDb, siteId: number, id: number): Promise<Buffer | null> {
  const row = await db.selectFrom('feed_imports').select('csv').where('id', '=', id).where('site_id', '=', siteId).executeTakeFirst();
  return row ? Buffer.from(row.csv) : null;
}

/** The site's imports, newest first. */
export async function listFeedImports(db: PlatformDb, siteId: number, limit = feedImportsKept): Promise<FeedImport[]> {
  const rows = await db
    .selectFrom('feed_imports')
    .select(importColumns)
    .where('site_id', '=', siteId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(importOf);
}

export async function setFeedImportMapping(db: PlatformDb, id: number, mapping: FeedMapping): Promise<void> {
  await db
    .updateTable('feed_imports')
    .set({ mapping: JSON.stringify(mapping) })
    .where('id', '=', id)
    .execute();
}

/**
 * Takes the site's import lease for `importId` unless another import holds it unexpired, and marks
 * the import running. Imports left running by a server that stopped are marked failed.
 */
export async function claimSiteImport(db: PlatformDb, siteId: number, importId: number, now: number, leaseMs: number): Promise<boolean> {
  await ensureSettingsRow(db, siteId, now);
  const taken = await db
    .updateTable('feed_settings')
    .set({ import_id: importId, import_until: now + leaseMs })
    .where('site_id', '=', siteId)
    .where((eb) => eb.or([eb('import_until', 'is', null), eb('import_until', '<', now)]))
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) === 0) return false;
  await db
    .updateTable('feed_imports')
    .set({ status: 'failed', error: feedImportStopped, finished_at: now })
    .where('site_id', '=', siteId)
    .where('status', '=', 'running')
    .where('id', '!=', importId)
    .execute();
  await db
    .updateTable('feed_imports')
    .set({ status: 'running', progress: null, error: null, report: null, finished_at: null })
    .where('id', '=', importId)
    .execute();
  return true;
}

/** What an import left running by a stopped server says. */
export const feedImportStopped = 'The server stopped during this import; apply it again.';

/** Holds the lease a while longer (the import is still running). */
export async function renewSiteImport(db: PlatformDb, siteId: number, importId: number, until: number): Promise<void> {
  await db
    .updateTable('feed_settings')
    .set({ import_until: until })
    .where('site_id', '=', siteId)
    .where('import_id', '=', importId)
    .execute();
}

/** Whether the import still holds its site's lease now (a running import whose lease ran out was left by a stopped server). */
export async function holdsSiteImport(db: PlatformDb, siteId: number, importId: number, now: number): Promise<boolean> {
  const row = await db
    .selectFrom('feed_settings')
    .select('import_until')
    .where('site_id', '=', siteId)
    .where('import_id', '=', importId)
    .executeTakeFirst();
  return row !== undefined && row.import_until !== null && Number(row.import_until) >= now;
}

export async function setFeedImportProgress(db: PlatformDb, id: number, progress: FeedImportProgress): Promise<void> {
  await db
    .updateTable('feed_imports')
    .set({ progress: JSON.stringify(progress) })
    .where('id', '=', id)
    .execute();
}

/** Ends an import (done or failed) with its report or error and lets go of the site's lease; a done import's CSV is emptied. */
export async function finishFeedImport(
  db: PlatformDb,
  siteId: number,
  id: number,
  end: { status: 'done' | 'failed'; report: unknown; error: string | null },
  now: number,
): Promise<void> {
  await db
    .updateTable('feed_imports')
    .set({
      status: end.status,
      report: end.report === null ? null : JSON.stringify(end.report),
      error: end.error,
      finished_at: now,
      // An applied feed's CSV is no longer needed; a failed one's is kept, to be applied again.
      ...(end.status === 'done' ? { csv: Buffer.alloc(0) } : {}),
    })
    .where('id', '=', id)
    .execute();
  await db
    .updateTable('feed_settings')
    .set({ import_id: null, import_until: null })
    .where('site_id', '=', siteId)
    .where('import_id', '=', id)
    .execute();
}

/** The stored photo hash of each feed photo address of the site already fetched. */
export async function knownFeedPhotos(db: PlatformDb, siteId: number, urls: string[]): Promise<Map<string, string>> {
  const known = new Map<string, string>();
  const unique = [...new Set(urls)];
  for (let start = 0; start < unique.length; start += 500) {
    const rows = await db
      .selectFrom('feed_photos')
      .select(['url', 'hash'])
      .where('site_id', '=', siteId)
      .where('url', 'in', unique.slice(start, start + 500))
      .execute();
    for (const row of rows) known.set(row.url, row.hash);
  }
  return known;
}

export async function recordFeedPhoto(db: PlatformDb, siteId: number, url: string, hash: string, now: number): Promise<void> {
  await db
    .insertInto('feed_photos')
    .values({ site_id: siteId, url, hash, fetched_at: now })
    .onConflict((conflict) => conflict.columns(['site_id', 'url']).doUpdateSet({ hash, fetched_at: now }))
    .execute();
}

/** Sites whose scheduled pull is due. */
export async function dueFeedPulls(db: PlatformDb, now: number, limit = 20): Promise<{ siteId: number; nextPullAt: number }[]> {
  const rows = await db
    .selectFrom('feed_settings')
    .select(['site_id', 'next_pull_at'])
    .where('schedule', 'in', ['hourly', 'daily'])
    .where('url', 'is not', null)
    .where('next_pull_at', '<=', now)
    .orderBy('next_pull_at')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ siteId: Number(row.site_id), nextPullAt: Number(row.next_pull_at) }));
}

/** Moves a due pull to its next time, unless another server did first: true if this one takes the pull. */
export async function takeFeedPull(db: PlatformDb, siteId: number, wasDueAt: number, nextPullAt: number): Promise<boolean> {
  const moved = await db
    .updateTable('feed_settings')
    .set({ next_pull_at: nextPullAt })
    .where('site_id', '=', siteId)
    .where('next_pull_at', '=', wasDueAt)
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) > 0;
}
