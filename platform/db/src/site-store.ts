import { sql } from 'kysely';
import type { Location } from '@dealer/contracts/location';
import type { SiteConfig, SiteRemoteSetting } from '@dealer/contracts/site';
import { remoteNames, type RemoteName } from '@dealer/contracts/remote-modules';
import type { PlatformDb } from './database';
import { compiledOnce } from './compiled-once';
import type { DatabaseEngine } from './database-engine';

/** Stored site config: everything but locations and remote settings, which have their own tables. */
type StoredSiteConfig = Omit<SiteConfig, 'locations' | 'remotes'>;

export async function insertSite(db: PlatformDb, site: SiteConfig, now = Date.now()) {
  const { locations, remotes, ...stored } = site;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('sites')
      .values({
        id: site.id,
        slug: site.slug,
        domain_name: site.domain_name?.toLowerCase() ?? null,
        config: JSON.stringify(stored),
        updated_at: now,
      })
      .execute();
    if (locations.length) {
      await trx
        .insertInto('locations')
        .values(
          locations.map((location) => ({
            id: location.id,
            site_id: site.id,
            dealership_id: location.dealership_id,
            slug: location.slug,
            location_type: location.location_type,
            data: JSON.stringify(location),
          })),
        )
        .execute();
    }
    await trx
      .insertInto('site_remotes')
      .values(
        remotes.map((remote) => ({
          site_id: site.id,
          remote: remote.name,
          enabled: remote.enabled ? 1 : 0,
          version: remote.version,
          updated_at: now,
        })),
      )
      .execute();
  });
}

export async function siteCount(db: PlatformDb): Promise<number> {
  const row = await db
    .selectFrom('sites')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listSiteSlugs(db: PlatformDb): Promise<{ id: number; slug: string; domain_name: string | null }[]> {
  return db.selectFrom('sites').select(['id', 'slug', 'domain_name']).orderBy('id').execute();
}

/** The site a request's host names: by its slug (`{slug}.localhost`, `{slug}.{PUBLIC_ORIGIN_SUFFIX}`) or by its own domain. */
export async function findSiteIdByHost(db: PlatformDb, host: { slug: string } | { domain: string }): Promise<number | null> {
  if ('slug' in host) return findSiteIdBySlug(db, host.slug);
  const row = await db.selectFrom('sites').select('id').where('domain_name', '=', host.domain.toLowerCase()).executeTakeFirst();
  return row?.id ?? null;
}

/**
 * What a site's pages are made of, as one value that changes whenever any of it changes: the
 * site's config, its remote settings, its latest car change (listing, price, sold, reserved) and
 * its content (pages, posts, offers, jobs, reviews: content-store's touchSiteContent).
 * One indexed read, written by every process (the CLI too); null for no such site.
 */
export async function siteContentStamp(db: PlatformDb, siteId: number): Promise<string | null> {
  const [row] = await contentStampQuery(db, siteId);
  return row ? `${row.site}.${row.cars ?? 0}.${row.remotes ?? 0}.${row.content}` : null;
}

const contentStampQuery = compiledOnce(
  (db, siteId: number) =>
    db
      .selectFrom('sites')
      .where('sites.id', '=', siteId)
      .select((eb) => [
        'sites.updated_at as site',
        'sites.content_updated_at as content',
        eb
          .selectFrom('cars')
          .where('cars.site_id', '=', siteId)
          .select((cars) => cars.fn.max('cars.updated_at').as('latest'))
          .as('cars'),
        eb
          .selectFrom('site_remotes')
          .where('site_remotes.site_id', '=', siteId)
          .select((remotes) => remotes.fn.max('site_remotes.updated_at').as('latest'))
          .as('remotes'),
      ]),
  -1,
);

/** Every site's slug, name and brand colour, by id: the platform's index of sites and the drawn logos. */
export async function listSiteCards(db: PlatformDb): Promise<{ slug: string; name: string; colour: string }[]> {
  const rows = await db.selectFrom('sites').select(['slug', 'config']).orderBy('id').execute();
  return rows.map((row) => {
    const config = JSON.parse(row.config) as Pick<SiteConfig, 'name' | 'branding'>;
    return { slug: row.slug, name: config.name, colour: config.branding.primary };
  });
}

/**
 * Takes the site's row lock for the rest of the transaction (PostgreSQL; FOR NO KEY UPDATE leaves
 * the site's leads and cars free to reference it), so racing work of one site runs one at a time.
 */
export async function lockSiteRow(db: PlatformDb, siteId: number): Promise<void> {
  await db.selectFrom('sites').select('id').where('id', '=', siteId).forNoKeyUpdate().execute();
}

export async function findSiteIdBySlug(db: PlatformDb, slug: string): Promise<number | null> {
  const [row] = await siteIdBySlugQuery(db, slug);
  return row?.id ?? null;
}

const siteIdBySlugQuery = compiledOnce((db, slug: string) => db.selectFrom('sites').select('id').where('slug', '=', slug), '\u0000slug');

/** The whole site config, read fresh: a switch made by the CLI applies on the next page load. */
export async function loadSiteConfig(db: PlatformDb, siteId: number): Promise<SiteConfig | null> {
  const site = await db.selectFrom('sites').select('config').where('id', '=', siteId).executeTakeFirst();
  if (!site) return null;
  const [locations, remotes] = await Promise.all([
    db.selectFrom('locations').select('data').where('site_id', '=', siteId).orderBy('id').execute(),
    db.selectFrom('site_remotes').select(['remote', 'enabled', 'version']).where('site_id', '=', siteId).execute(),
  ]);
  const stored = JSON.parse(site.config) as StoredSiteConfig;
  const settings = new Map(remotes.map((row) => [row.remote, row]));
  return {
    ...stored,
    locations: locations.map((row) => JSON.parse(row.data) as Location),
    remotes: remoteNames.map((name): SiteRemoteSetting => {
      const row = settings.get(name);
      return { name, enabled: row ? row.enabled === 1 : false, version: row?.version ?? null };
    }),
  };
}

export type RemoteSwitch = { enabled: boolean } | { version: string | null };

/** Switches one remote of one site on or off, or pins it to a version (null: follow the latest). */
export async function setSiteRemote(db: PlatformDb, siteId: number, remote: RemoteName, change: RemoteSwitch, now = Date.now()) {
  const existing = await db
    .selectFrom('site_remotes')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('remote', '=', remote)
    .executeTakeFirst();
  const next = {
    site_id: siteId,
    remote,
    // Pinning a version never switches a remote on by itself: no row means off.
    enabled: 'enabled' in change ? (change.enabled ? 1 : 0) : (existing?.enabled ?? 0),
    version: 'version' in change ? change.version : (existing?.version ?? null),
    updated_at: await nextRemotesStamp(db, siteId, now),
  };
  await db
    .insertInto('site_remotes')
    .values(next)
    .onConflict((oc) =>
      oc.columns(['site_id', 'remote']).doUpdateSet({ enabled: next.enabled, version: next.version, updated_at: next.updated_at }),
    )
    .execute();
}

/**
 * When a remote switch is stamped: `now`, or one past the site's latest switch when the clock says
 * otherwise (two switches in one millisecond), so the site's stamp always moves (siteContentStamp).
 */
async function nextRemotesStamp(db: PlatformDb, siteId: number, now: number): Promise<number> {
  const row = await db
    .selectFrom('site_remotes')
    .where('site_id', '=', siteId)
    .select((eb) => eb.fn.max('updated_at').as('latest'))
    .executeTakeFirst();
  return Math.max(now, Number(row?.latest ?? 0) + 1);
}

/**
 * Saves a site's settings as the dealer changed them: the config (less locations and remotes) and
 * the locations given, by id. The site's `updated_at` moves on, so every server's page cache and
 * site lookups see the change (siteContentStamp).
 */
export async function updateSiteSettings(db: PlatformDb, site: SiteConfig, now = Date.now()) {
  await db.transaction().execute((trx) => writeSiteSettings(trx, site, now));
}

async function writeSiteSettings(trx: PlatformDb, site: SiteConfig, now: number) {
  const { locations, remotes: _remotes, ...stored } = site;
  await trx
    .updateTable('sites')
    .set({
      config: JSON.stringify(stored),
      // `now`, or one past the last change when the clock says otherwise: the site's stamp always moves.
      updated_at: sql<number>`case when cast(${now} as bigint) > updated_at then cast(${now} as bigint) else updated_at + 1 end`,
    })
    .where('id', '=', site.id)
    .execute();
  for (const location of locations)
    await trx
      .updateTable('locations')
      .set({ data: JSON.stringify(location) })
      .where('site_id', '=', site.id)
      .where('id', '=', location.id)
      .execute();
}

/**
 * A change to a site's settings made on the site as it is now: read, changed and written in one
 * transaction that holds the site's row (PostgreSQL; SQLite runs one writer at a time), so two
 * changes at once (a settings save, a logo, the stock summary) never undo each other. `change`
 * answers the site to write, or a refusal that writes nothing.
 */
export async function changeSiteConfig<R>(
  db: PlatformDb,
  engine: DatabaseEngine,
  siteId: number,
  change: (site: SiteConfig) => { site: SiteConfig; result: R } | { refused: R },
  now = Date.now(),
): Promise<{ before: SiteConfig; after: SiteConfig | null; result: R } | null> {
  return db.transaction().execute(async (trx) => {
    if (engine === 'postgres') await lockSiteRow(trx, siteId);
    const before = await loadSiteConfig(trx, siteId);
    if (!before) return null;
    const outcome = change(before);
    if ('refused' in outcome) return { before, after: null, result: outcome.refused };
    await writeSiteSettings(trx, outcome.site, now);
    return { before, after: outcome.site, result: outcome.result };
  });
}

/** The id a new site takes: one past the highest (sites are few and made one at a time; the key catches a race). */
export async function nextSiteId(db: PlatformDb): Promise<number> {
  const row = await db
    .selectFrom('sites')
    .select((eb) => eb.fn.max('id').as('top'))
    .executeTakeFirst();
  return Number(row?.top ?? 0) + 1;
}
