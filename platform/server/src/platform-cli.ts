import { mkdirSync } from 'node:fs';
import { MeilisearchApiError, MeilisearchRequestError } from 'meilisearch';
import { keepGeneratedKeys, loadConfig, type PlatformConfig } from './config';
import { CarChangeConflict, carChangeFields, carChangeSchema, findCarBySlug, updateCar } from '@dealer/db/car-store';
import type { DatabaseEngine } from '@dealer/db/database-engine';
import { migrateToLatest, openDatabase, type PlatformDb } from '@dealer/db/database';
import { pageSizes, type PagePosition } from '@dealer/db/page-cursor';
import { bookingPage, type ListedBooking } from '@dealer/db/admin-pages';
import { releaseBooking } from '@dealer/db/booking-store';
import { findReservation, reservationPage, type StoredReservation } from '@dealer/db/reservation-store';
import { findSiteIdBySlug, listSiteSlugs, loadSiteConfig, setSiteRemote } from '@dealer/db/site-store';
import { createDealerKey, findDealerKeyById, listDealerKeys, revokeDealerKey } from '@dealer/db/dealer-key-store';
import { leadsCsvPages } from '@dealer/leads/lead-csv';
import { eachLeadPage } from '@dealer/leads/lead-listing';
import { LeadService } from '@dealer/leads/lead-service';
import { PaymentProviders } from './payments/payment-providers';
import { dealerView, ReservationService } from './payments/reservation-service';
import { RemoteRegistry, isRemoteName } from './remotes/remote-registry';
import { StockIndexer } from './search/indexer';
import { loopbackSearchHost, meiliClient } from './search/meili-client';
import { remoteNames } from '@dealer/contracts/remote-modules';
import { consoleUserCommand, consoleUserUsage } from './console/console-user-command';
import { siteCommand, siteCommandUsage } from './sites/site-command';
import { slugOrigin } from './sites/create-site';

const usage = `Usage:
  platform sites                                       list the sites and their remotes
  platform versions <remote>                           list the published versions of a remote
  platform remote <site|all> <remote> <version|latest|off|on>
                                                       pin a site to a version, follow the latest, or switch the remote off/on
  platform leads <site> [--csv]                        print all of a site's leads, newest first, as JSON lines
                                                       (or CSV), each with where its delivery stands
  platform dealer-key <site> [list]                    list a site's dealer keys (revoked ones with when)
  platform dealer-key <site> create [label ...]        make a key that opens only this site's leads, files,
                                                       bookings and events; it is printed once
  platform dealer-key <site> revoke <id>               revoke one of the site's dealer keys
  platform reservations <site>                         print all of a site's reservations, newest first, as JSON lines
  platform reservations <site> release <id>            give a reserved car back: the deposit is refunded through the
                                                       payment provider and the car is free again (store and search)
  platform bookings <site>                             print a site's upcoming test drives and service drop-offs, soonest
                                                       first, as JSON lines
  platform bookings <site> release <id>                give a booking's seat back: others may book the time, the lead stays
  platform car <site> <slug> key=value ...             change a car and push it to search, e.g.
                                                       price=28990 status=sold reserved=true tag=null
                                                       (${carChangeFields.join(', ')}; sold_date_timestamp=now)
${consoleUserUsage}
${siteCommandUsage}
Remotes: ${remoteNames.join(', ')}`;

export class UsageError extends Error {}

async function siteIds(db: PlatformDb, site: string): Promise<number[]> {
  if (site === 'all') return (await listSiteSlugs(db)).map((row) => row.id);
  const id = await findSiteIdBySlug(db, site);
  if (id === null) throw new UsageError(`No site with slug "${site}". Run "platform sites" to list them.`);
  return [id];
}

const numberFields = new Set(['price', 'before_price', 'sold_date_timestamp']);
const booleanFields = new Set(['sold', 'reserved', 'show_on_dealer_website']);

/** `key=value` words as a car change: numbers and true/false where the field wants them, `null` clears. Checked by carChangeSchema after. */
export function carChangeFromArgs(pairs: string[], nowSeconds = Math.floor(Date.now() / 1000)): Record<string, unknown> {
  const change: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`"${pair}" is not key=value. Fields: ${carChangeFields.join(', ')}.`);
    const key = pair.slice(0, eq);
    const raw = pair.slice(eq + 1);
    if (raw === 'null') change[key] = null;
    else if (key === 'sold_date_timestamp' && raw === 'now') change[key] = nowSeconds;
    else if (numberFields.has(key)) change[key] = raw.trim() === '' ? raw : Number(raw.replace(/[$,_]/g, ''));
    else if (booleanFields.has(key)) change[key] = raw === 'true' ? true : raw === 'false' ? false : raw;
    else change[key] = raw;
  }
  return change;
}

/** Where the CLI pushes a changed car: the real Meilisearch when configured, else the running platform's own /meili. */
function searchTarget(config: PlatformConfig) {
  const host = config.meilisearch ? config.meilisearch.url : loopbackSearchHost(config);
  const client = config.meilisearch
    ? meiliClient(config.meilisearch.url, config.meilisearch.masterKey)
    : meiliClient(host, config.searchAdminKey);
  return { host, client };
}

/** Saves a car change and pushes the car to search: the running platform's own /meili, or the real Meilisearch. */
async function changeCar(db: PlatformDb, config: PlatformConfig, site: string, slug: string, pairs: string[], out: (line: string) => void) {
  const siteId = await findSiteIdBySlug(db, site);
  if (siteId === null) throw new UsageError(`No site with slug "${site}". Run "platform sites" to list them.`);
  const car = await findCarBySlug(db, siteId, slug);
  if (!car) throw new UsageError(`No car "${slug}" on ${site}.`);
  const parsed = carChangeSchema.safeParse(carChangeFromArgs(pairs));
  if (!parsed.success) {
    throw new UsageError(
      parsed.error.issues
        .map((issue) =>
          issue.code === 'unrecognized_keys'
            ? `${issue.keys.join(', ')}: not something that can be changed on a car (${carChangeFields.join(', ')})`
            : `${issue.path.join('.') || 'change'}: ${issue.message}`,
        )
        .join('\n'),
    );
  }
  let updated;
  try {
    updated = await updateCar(db, car.id, parsed.data);
  } catch (error) {
    if (error instanceof CarChangeConflict) throw new UsageError(error.message);
    throw error;
  }
  if (!updated) throw new UsageError(`No car "${slug}" on ${site}.`);
  const { car: saved } = updated;
  out(
    `${slug} on ${site}: price ${saved.price}, ${saved.status}${saved.sold ? ' (sold)' : ''}${saved.reserved ? ', reserved' : ''}${saved.show_on_dealer_website ? '' : ', hidden from the website'}${saved.tag ? `, tag ${saved.tag}` : ''}`,
  );

  const { host, client } = searchTarget(config);
  try {
    await new StockIndexer(db, client).indexCar(siteId, saved);
    out(`Search updated (${host}).`);
  } catch (error) {
    if (error instanceof MeilisearchRequestError)
      out(`Saved. Search at ${host} is not reachable: the platform indexes the change when it next starts.`);
    else if (error instanceof MeilisearchApiError)
      out(
        `Saved, but search at ${host} refused the update (${error.cause?.code ?? error.message}). Check SEARCH_ADMIN_KEY / MEILISEARCH_MASTER_KEY.`,
      );
    else throw error;
  }
}

const when = (ms: number) => new Date(ms).toISOString();

/** All of a site's reservations, newest first, a page at a time (never more than one page in memory). */
async function* eachReservationPage(db: PlatformDb, siteId: number): AsyncGenerator<StoredReservation[]> {
  let after: PagePosition | null = null;
  do {
    const page = await reservationPage(db, siteId, { after, limit: pageSizes.max });
    if (page.reservations.length > 0) yield page.reservations;
    after = page.next;
  } while (after);
}

/**
 * The dealer gives a reserved car back (as `POST /api/admin/reservations/:id/release`): the deposit
 * refunded through the provider that took it, the car free again in the store and pushed to search.
 * Search being down does not stop the release: the platform indexes the car when it next starts.
 */
async function releaseReservation(
  db: PlatformDb,
  engine: DatabaseEngine,
  config: PlatformConfig,
  site: { id: number; slug: string },
  rawId: string,
  out: (line: string) => void,
) {
  const id = Number(rawId);
  const before = await findReservation(db, id);
  const { host, client } = searchTarget(config);
  const indexer = new StockIndexer(db, client);
  // What became of the push to search, said after the result (the service logs a failed push and goes on).
  const searchLines: string[] = [];
  const note = (obj: object, msg: string) => {
    const err = (obj as { err?: unknown }).err;
    if (err instanceof MeilisearchRequestError)
      searchLines.push(`Search at ${host} is not reachable: the platform indexes the released car when it next starts.`);
    else if (err instanceof MeilisearchApiError)
      searchLines.push(
        `Search at ${host} refused the update (${err.cause?.code ?? err.message}): the platform indexes the released car when it next starts. Check SEARCH_ADMIN_KEY / MEILISEARCH_MASTER_KEY.`,
      );
    else searchLines.push(`${msg[0]!.toUpperCase()}${msg.slice(1)}${err instanceof Error ? ` (${err.message})` : ''}.`);
  };
  const log = { error: note, warn: note };
  const service = new ReservationService({
    db,
    engine,
    holdsPerPerson: config.reservations.holdsPerPerson,
    indexer: {
      indexCar: async (siteId, car) => {
        await indexer.indexCar(siteId, car);
        searchLines.push(`Search updated (${host}).`);
      },
    },
    leads: new LeadService({ db, engine, dataDir: config.dataDir, leads: config.leads }),
    providers: new PaymentProviders(config.payments),
    siteOf: (siteId) => loadSiteConfig(db, siteId),
    log,
  });
  const answer = await service.release(site.id, id);
  if (!answer.ok) {
    for (const line of searchLines) out(line);
    throw new UsageError(answer.message);
  }
  const released = answer.value.reservation;
  if (before?.state === 'released')
    out(`Reservation ${id} on ${site.slug} was already released: its deposit was refunded (${released.refund_ref}).`);
  else out(`Reservation ${id} on ${site.slug} released: deposit refunded (${released.refund_ref}), the car is free again.`);
  for (const line of searchLines) out(line);
}

/** A site's bookings from now on, soonest first, a page at a time. */
async function* eachBookingPage(db: PlatformDb, siteId: number, now = Date.now()): AsyncGenerator<ListedBooking[]> {
  let after: PagePosition | null = null;
  do {
    const page = await bookingPage(db, siteId, { from: now, to: Number.MAX_SAFE_INTEGER, now }, { after, limit: pageSizes.max });
    if (page.bookings.length > 0) yield page.bookings;
    after = page.next;
  } while (after);
}

/** The dealer gives a booking's seat back (as `POST /api/admin/bookings/:id/release`): others may book the time; the lead stays. */
async function releaseSiteBooking(db: PlatformDb, site: { id: number; slug: string }, id: number, out: (line: string) => void) {
  const released = await releaseBooking(db, { id, siteId: site.id });
  if (!released) throw new UsageError(`No booking ${id} on ${site.slug}.`);
  const what = released.kind === 'service' ? 'service drop-off' : 'test drive';
  out(`Booking ${id} on ${site.slug} released: the ${what} at ${when(released.starts_at)} is free again; lead ${released.lead_id} stays.`);
}

async function dealerKeyCommand(
  db: PlatformDb,
  site: { id: number; slug: string },
  action: string,
  words: string[],
  out: (line: string) => void,
) {
  switch (action) {
    case 'list': {
      if (words.length) throw new UsageError(usage);
      const keys = await listDealerKeys(db, site.id);
      if (keys.length === 0) out(`${site.slug} has no dealer keys. Make one with "platform dealer-key ${site.slug} create <label>".`);
      for (const key of keys)
        out(
          `${key.id}\t${key.label || '-'}\tcreated ${when(key.created_at)}\t${key.revoked_at === null ? 'active' : `revoked ${when(key.revoked_at)}`}`,
        );
      return;
    }
    case 'create': {
      const label = words.join(' ').trim();
      if (label.length > 100) throw new UsageError('The label must be at most 100 characters.');
      const { key, dealerKey } = await createDealerKey(db, site, label);
      out(`Dealer key ${dealerKey.id} for ${site.slug}${label ? ` (${label})` : ''}:`);
      out(key);
      out(
        "It is shown this once (only its hash is kept): hand it to the dealer now. It opens only this site's leads, files, bookings and events.",
      );
      return;
    }
    case 'revoke': {
      const [id, ...extra] = words;
      if (!id || extra.length || !/^[1-9]\d{0,15}$/.test(id)) throw new UsageError(usage);
      const found = await findDealerKeyById(db, Number(id));
      if (found?.site_id !== site.id)
        throw new UsageError(`${site.slug} has no dealer key ${id}. Run "platform dealer-key ${site.slug} list".`);
      const revoked = (await revokeDealerKey(db, Number(id)))!;
      out(`Dealer key ${id} of ${site.slug} revoked ${when(revoked.revoked_at!)}: it opens nothing from now on.`);
      return;
    }
    default:
      throw new UsageError(usage);
  }
}

export async function runPlatformCli(args: string[], out: (line: string) => void = console.log): Promise<void> {
  const config = loadConfig();
  mkdirSync(config.dataDir, { recursive: true });
  // The same generated search admin key the server keeps, to push changes to its /meili.
  keepGeneratedKeys(config);
  const registry = new RemoteRegistry(config.remotesDir);
  const { db, engine } = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    await migrateToLatest(db, engine);
    const [command, ...rest] = args;
    switch (command) {
      case 'sites': {
        for (const row of await listSiteSlugs(db)) {
          const site = await loadSiteConfig(db, row.id);
          const remotes = site!.remotes.map((r) => `${r.name}:${r.enabled ? (r.version ?? 'latest') : 'off'}`).join(' ');
          out(`${row.slug}\t${row.domain_name ?? '-'}\t${remotes}`);
        }
        return;
      }
      case 'versions': {
        const [remote] = rest;
        if (!remote || !isRemoteName(remote)) throw new UsageError(usage);
        const latest = registry.latest(remote);
        for (const version of registry.versions(remote)) out(`${version}${version === latest ? '\t(latest)' : ''}`);
        return;
      }
      case 'remote': {
        const [site, remote, target] = rest;
        if (!site || !remote || !target) throw new UsageError(usage);
        if (!isRemoteName(remote)) throw new UsageError(`Unknown remote "${remote}". Remotes: ${remoteNames.join(', ')}`);
        let change: { enabled: boolean } | { version: string | null };
        if (target === 'off' || target === 'on') change = { enabled: target === 'on' };
        else if (target === 'latest') change = { version: null };
        else if (registry.hasVersion(remote, target)) change = { version: target };
        else
          throw new UsageError(
            `${remote} has no published version "${target}". Published: ${registry.versions(remote).join(', ') || 'none'}`,
          );
        const ids = await siteIds(db, site);
        for (const id of ids) await setSiteRemote(db, id, remote, change);
        out(`${remote} → ${target} on ${site === 'all' ? `all ${ids.length} sites` : site}`);
        return;
      }
      case 'leads': {
        const csv = rest.includes('--csv');
        const [site, ...extra] = rest.filter((word) => word !== '--csv');
        if (!site || site === 'all' || extra.length) throw new UsageError(usage);
        const [id] = await siteIds(db, site);
        const pages = eachLeadPage(db, id!);
        // out() ends each chunk with a newline: dropping the chunk's own keeps CRLF line ends.
        if (csv) for await (const chunk of leadsCsvPages(pages)) out(chunk.replace(/\n$/, ''));
        else for await (const page of pages) for (const lead of page) out(JSON.stringify(lead));
        return;
      }
      case 'dealer-key': {
        const [site, action = 'list', ...words] = rest;
        if (!site || site === 'all') throw new UsageError(usage);
        const [siteId] = await siteIds(db, site);
        await dealerKeyCommand(db, { id: siteId!, slug: site }, action, words, out);
        return;
      }
      case 'reservations': {
        const [site, action, ...words] = rest;
        if (!site || site === 'all') throw new UsageError(usage);
        const [siteId] = await siteIds(db, site);
        if (action === undefined) {
          for await (const page of eachReservationPage(db, siteId!))
            for (const reservation of page) out(JSON.stringify(dealerView(reservation)));
          return;
        }
        const [id, ...extra] = words;
        if (action !== 'release' || !id || extra.length || !/^[1-9]\d{0,14}$/.test(id)) throw new UsageError(usage);
        await releaseReservation(db, engine, config, { id: siteId!, slug: site }, id, out);
        return;
      }
      case 'bookings': {
        const [site, action, ...words] = rest;
        if (!site || site === 'all') throw new UsageError(usage);
        const [siteId] = await siteIds(db, site);
        if (action === undefined) {
          for await (const page of eachBookingPage(db, siteId!)) for (const booking of page) out(JSON.stringify(booking));
          return;
        }
        const [id, ...extra] = words;
        if (action !== 'release' || !id || extra.length || !/^[1-9]\d{0,14}$/.test(id)) throw new UsageError(usage);
        await releaseSiteBooking(db, { id: siteId!, slug: site }, Number(id), out);
        return;
      }
      case 'console-user': {
        await consoleUserCommand(db, rest, out, (message) => {
          throw new UsageError(message);
        });
        return;
      }
      case 'site': {
        const consoleUrl = config.publicOriginSuffix
          ? `https://console.${config.publicOriginSuffix}`
          : `http://console.localhost:${config.port}`;
        await siteCommand(db, rest, slugOrigin(config.publicOriginSuffix, config.port), consoleUrl, out, (message) => {
          throw new UsageError(message);
        });
        return;
      }
      case 'car': {
        const [site, slug, ...pairs] = rest;
        if (!site || !slug || pairs.length === 0) throw new UsageError(usage);
        await changeCar(db, config, site, slug, pairs, out);
        return;
      }
      default:
        throw new UsageError(usage);
    }
  } finally {
    await db.destroy();
  }
}
