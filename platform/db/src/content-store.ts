/**
 * A site's own content (issue 24 part 3): the pages, news posts, special offers and jobs the dealer
 * writes in the console. Each row holds the version on the site (`published`) and the one being
 * edited (`draft`), both JSON of the kind's contract, checked by the server before they come here.
 *
 * Whatever changes what shoppers see (publish, unpublish, delete, seed, a published row's new
 * address) moves the site's content stamp in the same transaction, so every server's page cache
 * renders afresh; a draft save does not, as drafts are never served from the cache.
 */
import { sql } from 'kysely';
import type { ContentKind } from '@dealer/contracts/content';
import type { PlatformDb } from './database';
import type { DatabaseEngine } from './database-engine';

/** One piece of content as the site shows it (or as its preview does, draft first). */
export interface ContentItem {
  id: number;
  kind: ContentKind;
  slug: string;
  version: unknown;
  published_at: number | null;
  updated_at: number;
}

/** 'changed': on the site, with changes not yet published. */
export type ContentState = 'draft' | 'published' | 'changed';

/** A row of the console's content list. */
export interface ContentListing {
  id: number;
  kind: ContentKind;
  slug: string;
  title: string;
  state: ContentState;
  published_at: number | null;
  expires_at: number | null;
  updated_at: number;
}

/** Both versions of one piece of content, for the console's editor. */
export interface ContentRecord {
  id: number;
  kind: ContentKind;
  slug: string;
  draft: unknown;
  published: unknown;
  published_at: number | null;
  expires_at: number | null;
  updated_at: number;
  updated_by: number | null;
}

/** Content written by the platform rather than a dealer (the demo sites'), on the site from the start. */
export interface SeedContent {
  kind: ContentKind;
  slug: string;
  version: unknown;
  published_at: number;
  expires_at?: number | null;
}

/** Rows per insert when seeding: well under either engine's limit of bound values in one statement. */
const seedChunk = 200;

/**
 * Moves the site's content stamp on to `now`, or one past where it is when the clock says otherwise
 * (two changes in one millisecond, or a server whose clock is behind), so it always moves.
 */
export async function touchSiteContent(trx: PlatformDb, siteId: number, now: number): Promise<void> {
  await trx
    .updateTable('sites')
    .set({
      content_updated_at: sql<number>`case when cast(${now} as bigint) > content_updated_at then cast(${now} as bigint) else content_updated_at + 1 end`,
    })
    .where('id', '=', siteId)
    .execute();
}

/** A new draft, on no page of the site yet; a clash when the site has that kind at that address already. */
export async function createContent(
  db: PlatformDb,
  input: { siteId: number; kind: ContentKind; slug: string; draft: unknown; userId: number | null; now: number },
): Promise<{ id: number } | { clash: true }> {
  const row = await db
    .insertInto('site_content')
    .values({
      site_id: input.siteId,
      kind: input.kind,
      slug: input.slug,
      draft: JSON.stringify(input.draft),
      published: null,
      published_at: null,
      expires_at: null,
      updated_at: input.now,
      updated_by: input.userId,
    })
    .onConflict((oc) => oc.columns(['site_id', 'kind', 'slug']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row ? { id: Number(row.id) } : { clash: true };
}

/** Saves the dealer's changes as the draft (and the new address, if given); the site shows them once published. */
export async function changeContentDraft(
  db: PlatformDb,
  input: { siteId: number; id: number; draft: unknown; slug?: string; userId: number | null; now: number },
): Promise<'ok' | 'missing' | 'clash'> {
  try {
    return await db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('site_content')
        .select('slug')
        .where('site_id', '=', input.siteId)
        .where('id', '=', input.id)
        .executeTakeFirst();
      if (!before) return 'missing';
      // Whether it is on the site is read from the row as written, under the row's lock (PostgreSQL), not from before.
      const after = await trx
        .updateTable('site_content')
        .set({
          draft: JSON.stringify(input.draft),
          ...(input.slug === undefined ? {} : { slug: input.slug }),
          updated_at: input.now,
          updated_by: input.userId,
        })
        .where('site_id', '=', input.siteId)
        .where('id', '=', input.id)
        .returning(sql<number>`case when published is null then 0 else 1 end`.as('live'))
        .executeTakeFirst();
      if (!after) return 'missing';
      // A published page at a new address: the old address no longer shows it.
      if (input.slug !== undefined && input.slug !== before.slug && Number(after.live) === 1)
        await touchSiteContent(trx, input.siteId, input.now);
      return 'ok';
    });
  } catch (error) {
    if (isUniqueViolation(error)) return 'clash';
    throw error;
  }
}

/**
 * Puts the draft on the site (or the published version again when there is no draft): read and
 * written in one transaction holding the row (PostgreSQL; SQLite runs one writer at a time), so a
 * draft saved meanwhile is either the one published or kept as the draft, never lost.
 */
export async function publishContent(
  db: PlatformDb,
  input: { engine: DatabaseEngine; siteId: number; id: number; userId: number | null; now: number },
): Promise<'ok' | 'missing' | 'nothing'> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('site_content')
      .select(['draft', 'published'])
      .where('site_id', '=', input.siteId)
      .where('id', '=', input.id)
      .$if(input.engine === 'postgres', (query) => query.forUpdate())
      .executeTakeFirst();
    if (!row) return 'missing';
    const version = row.draft ?? row.published;
    if (version === null) return 'nothing';
    await trx
      .updateTable('site_content')
      .set((eb) => ({
        published: version,
        draft: null,
        // The first publish dates a post; publishing changes later does not move it.
        published_at: eb.fn.coalesce('published_at', sql<number>`cast(${input.now} as bigint)`),
        expires_at: expiryOf(JSON.parse(version) as unknown),
        updated_at: input.now,
        updated_by: input.userId,
      }))
      .where('site_id', '=', input.siteId)
      .where('id', '=', input.id)
      .execute();
    await touchSiteContent(trx, input.siteId, input.now);
    return 'ok';
  });
}

/**
 * Takes it off the site. The words are kept: the published version becomes the draft unless the
 * dealer has a newer draft already. 'nothing' when it was not on the site.
 */
export async function unpublishContent(
  db: PlatformDb,
  input: { siteId: number; id: number; userId: number | null; now: number },
): Promise<'ok' | 'missing' | 'nothing'> {
  return db.transaction().execute(async (trx) => {
    // One statement (both sides read the row as it was), so a draft saved meanwhile is not overwritten.
    const result = await trx
      .updateTable('site_content')
      .set((eb) => ({
        draft: eb.fn.coalesce('draft', 'published'),
        published: null,
        updated_at: input.now,
        updated_by: input.userId,
      }))
      .where('site_id', '=', input.siteId)
      .where('id', '=', input.id)
      .where('published', 'is not', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return (await contentExists(trx, input.siteId, input.id)) ? 'nothing' : 'missing';
    await touchSiteContent(trx, input.siteId, input.now);
    return 'ok';
  });
}

export async function deleteContent(db: PlatformDb, input: { siteId: number; id: number; now: number }): Promise<'ok' | 'missing'> {
  return db.transaction().execute(async (trx) => {
    const result = await trx.deleteFrom('site_content').where('site_id', '=', input.siteId).where('id', '=', input.id).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return 'missing';
    await touchSiteContent(trx, input.siteId, input.now);
    return 'ok';
  });
}

/**
 * The content at an address: the published version for shoppers; with `drafts` (the dealer's
 * preview) the draft where there is one. Null when there is nothing to show.
 */
export async function findContent(
  db: PlatformDb,
  siteId: number,
  kind: ContentKind,
  slug: string,
  options: { drafts: boolean },
): Promise<ContentItem | null> {
  const row = await db
    .selectFrom('site_content')
    .select(['id', 'kind', 'slug', 'published', 'published_at', 'updated_at'])
    .$if(options.drafts, (query) => query.select('draft'))
    .where('site_id', '=', siteId)
    .where('kind', '=', kind)
    .where('slug', '=', slug)
    .$if(!options.drafts, (query) => query.where('published', 'is not', null))
    .executeTakeFirst();
  return row ? itemOf(row) : null;
}

/**
 * One page of a kind's list (posts, offers, jobs) as the site shows it, newest first, and how many
 * there are in all: on the site and not yet ended. With `drafts` (the preview) unpublished ones
 * too, dated as if published now.
 */
export async function listPublishedContent(
  db: PlatformDb,
  siteId: number,
  kind: ContentKind,
  page: { offset: number; limit: number; now: number; drafts?: boolean },
): Promise<{ items: ContentItem[]; total: number }> {
  const drafts = page.drafts === true;
  const shown = db
    .selectFrom('site_content')
    .where('site_id', '=', siteId)
    .where('kind', '=', kind)
    .where((eb) => (drafts ? eb.or([eb('published', 'is not', null), eb('draft', 'is not', null)]) : eb('published', 'is not', null)))
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', page.now)]));
  const [rows, count] = await Promise.all([
    shown
      .select(['id', 'kind', 'slug', 'published', 'published_at', 'updated_at'])
      .$if(drafts, (query) => query.select('draft'))
      .orderBy(drafts ? sql`coalesce(published_at, cast(${page.now} as bigint))` : sql`published_at`, 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    shown.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(itemOf), total: Number(count.n) };
}

/** The console's list of a site's content (of one kind, or all), by kind and address. */
export async function listContentForConsole(db: PlatformDb, siteId: number, kind?: ContentKind): Promise<ContentListing[]> {
  const rows = await db
    .selectFrom('site_content')
    .select(['id', 'kind', 'slug', 'draft', 'published', 'published_at', 'expires_at', 'updated_at'])
    .where('site_id', '=', siteId)
    .$if(kind !== undefined, (query) => query.where('kind', '=', kind!))
    .orderBy('kind')
    .orderBy('slug')
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    kind: row.kind,
    slug: row.slug,
    title: titleOf(parseVersion(row.draft ?? row.published)),
    state: row.published === null ? 'draft' : row.draft === null ? 'published' : 'changed',
    published_at: row.published_at,
    expires_at: row.expires_at,
    updated_at: row.updated_at,
  }));
}

export async function contentById(db: PlatformDb, siteId: number, id: number): Promise<ContentRecord | null> {
  const row = await db
    .selectFrom('site_content')
    .select(['id', 'kind', 'slug', 'draft', 'published', 'published_at', 'expires_at', 'updated_at', 'updated_by'])
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  return { ...row, id: Number(row.id), draft: parseVersion(row.draft), published: parseVersion(row.published) };
}

/**
 * Puts content on the site in one transaction, a few hundred rows per insert; an address the site
 * has content at already is left as it is. Answers how many were added.
 */
export async function seedSiteContent(db: PlatformDb, siteId: number, items: SeedContent[], now: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    let added = 0;
    for (let start = 0; start < items.length; start += seedChunk) {
      const result = await trx
        .insertInto('site_content')
        .values(
          items.slice(start, start + seedChunk).map((item) => ({
            site_id: siteId,
            kind: item.kind,
            slug: item.slug,
            draft: null,
            published: JSON.stringify(item.version),
            published_at: item.published_at,
            expires_at: item.expires_at ?? expiryOf(item.version),
            updated_at: now,
            updated_by: null,
          })),
        )
        .onConflict((oc) => oc.columns(['site_id', 'kind', 'slug']).doNothing())
        .executeTakeFirst();
      added += Number(result.numInsertedOrUpdatedRows ?? 0);
    }
    if (added > 0) await touchSiteContent(trx, siteId, now);
    return added;
  });
}

/** Whether the site has any content, published or not (the seed's "first run" test). */
export async function siteHasContent(db: PlatformDb, siteId: number): Promise<boolean> {
  const row = await db.selectFrom('site_content').select('id').where('site_id', '=', siteId).limit(1).executeTakeFirst();
  return row !== undefined;
}

async function contentExists(db: PlatformDb, siteId: number, id: number): Promise<boolean> {
  const row = await db.selectFrom('site_content').select('id').where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

function itemOf(row: {
  id: number;
  kind: ContentKind;
  slug: string;
  draft?: string | null;
  published: string | null;
  published_at: number | null;
  updated_at: number;
}): ContentItem {
  return {
    id: Number(row.id),
    kind: row.kind,
    slug: row.slug,
    version: parseVersion(row.draft ?? row.published),
    published_at: row.published_at,
    updated_at: row.updated_at,
  };
}

function parseVersion(text: string | null): unknown {
  return text === null ? null : (JSON.parse(text) as unknown);
}

/** When a version leaves the site's lists: an offer's end, a job's closing; null for none. */
function expiryOf(version: unknown): number | null {
  if (typeof version !== 'object' || version === null) return null;
  const { expires_at, closes_at } = version as { expires_at?: unknown; closes_at?: unknown };
  const at = expires_at ?? closes_at;
  return typeof at === 'number' ? at : null;
}

function titleOf(version: unknown): string {
  const title = typeof version === 'object' && version !== null ? (version as { title?: unknown }).title : undefined;
  return typeof title === 'string' ? title : '';
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
