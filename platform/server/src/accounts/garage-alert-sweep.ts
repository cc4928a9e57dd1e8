/**
 * The job that turns car changes into garage alerts. Cars change through the admin API, the
 * platform CLI (another process), a reservation, and arrive through the seed or an import: rather
 * than hook each of them, the job looks at the store. Every so often it reads the cars written
 * since its last look (by `cars.updated_at`, indexed), judges each against its watchers with
 * `alertsForCar`, and e-mails each shopper what is new for them, in one e-mail per look.
 *
 * An alert goes out once per shopper, car and kind: the `garage_alerts` row is inserted (or
 * found already there) in the transaction that stores the e-mail, so looks that overlap, or two
 * servers looking at once, never send one twice. Each look starts a little before where the last
 * one ended (`overlapMs`), so a car written by a transaction that committed late is still seen.
 *
 * An address that opted out of the site's e-mail (`/unsubscribe`) is skipped, and an address is
 * sent at most `alertMailsPerDay` alert e-mails a day (see mailShopper). Each e-mail carries the
 * shopper's unsubscribe link and one-click address (List-Unsubscribe).
 *
 * Also the accounts' housekeeping: spent sign-in codes, ended sessions and old sent e-mail (with
 * its file in DATA_DIR/outbox/mail) go.
 */
import type { Car } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';
import type { PlatformDb } from '@dealer/db/database';
import { siteBaseFilter } from '../search/site-search';
import { alertMail, unsubscribeLinks, type AlertMailItem } from './account-mail';
import {
  addressOfShopper,
  alertingSearchesOf,
  alertsScannedUntil,
  anyoneWatching,
  carsChangedSince,
  carsWithSites,
  deleteSessionsEndedBy,
  recordAlerts,
  saversOfCars,
  setAlertsScannedUntil,
} from './account-store';
import { deleteCodesMadeBefore } from './sign-in-code-store';
import { alertsForCar, parseSavedSearchFilter, queryWords, type GarageAlert, type SearchWatcher, type SiteRules } from './garage-alerts';
import { deleteFinishedMailBefore, enqueueShopperMail, mailCountSince } from '@dealer/db/mail-outbox-store';
import { isOptedOut } from '@dealer/db/mail-opt-out-store';
import type { MailOutbox } from './mail-outbox';
import { unsubscribeToken } from './unsubscribe-token';

const progressName = 'cars';
/** Spent sign-in codes are kept a day (the per-address limit counts the last hour's). */
const codeRetentionMs = 24 * 60 * 60_000;
/** Sent or given-up e-mail (its body already erased) is kept a month, to answer "did it go out?". */
const mailRetentionMs = 30 * 24 * 60 * 60_000;

/**
 * Garage alert e-mails one address is sent by one site in any 24 hours (a rolling day, counted
 * from the stored e-mails, sent or still to send). Each look at the changed cars makes at most one
 * e-mail per shopper, so a dealer repricing the yard through the day would otherwise send one
 * every few minutes; three a day keeps the news coming without filling an inbox.
 */
export const alertMailsPerDay = 3;
const dayMs = 24 * 60 * 60_000;

export type GarageAlertSweepOptions = {
  db: PlatformDb;
  siteOf: (siteId: number) => Promise<SiteConfig | null>;
  mail: MailOutbox;
  /** The server's secret (LEAD_TOKEN_SECRET or DATA_DIR's): the e-mails' unsubscribe tokens are signed with a key made from it. */
  serverSecret: string;
  /** How far before the last look's end each look starts. */
  overlapMs?: number;
  /** Changed cars read at once. */
  batchSize?: number;
  log?: { error(obj: object, msg: string): void };
};

type Pending = { siteId: number; alerts: (GarageAlert & { car: Car })[] };

export class GarageAlertSweep {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(private readonly opts: GarageAlertSweepOptions) {}

  start(intervalMs: number) {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.runOnce()
        .catch((error: unknown) =>
          this.opts.log?.error({ err: error }, 'garage alerts: a look at the changed cars failed; trying again at the next one'),
        )
        .finally(() => (this.running = null));
    }, intervalMs);
    this.timer.unref?.();
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One look: alerts for the cars written since the last one, then the housekeeping. Returns the alerts and e-mails made. */
  async runOnce(now = Date.now()): Promise<{ alerts: number; mails: number }> {
    const { db } = this.opts;
    const scannedUntil = await alertsScannedUntil(db, progressName);
    const since = scannedUntil !== null ? scannedUntil - (this.opts.overlapMs ?? 120_000) : -1;
    const pending = await this.alertsSince(since, now);
    let alerts = 0;
    let mails = 0;
    let failed = false;
    for (const [shopperId, found] of pending) {
      const outcome = await this.mailShopper(shopperId, found, now);
      if (outcome === null) {
        failed = true;
        continue;
      }
      alerts += outcome.alerts;
      if (outcome.mailed) mails += 1;
    }
    // After a failure the same cars are looked at again next time (what was sent is not sent twice).
    if (!failed) await setAlertsScannedUntil(db, progressName, now);
    if (mails > 0) this.opts.mail.nudge();
    await this.housekeeping(now);
    return { alerts, mails };
  }

  /** The alerts of the cars written after `since`, by shopper. */
  private async alertsSince(since: number, now: number): Promise<Map<number, Pending>> {
    const { db } = this.opts;
    const pending = new Map<number, Pending>();
    if (!(await anyoneWatching(db))) return pending;
    const searchesOfSite = new Map<number, SearchWatcher[]>();
    const rulesOfSite = new Map<number, SiteRules | null>();
    const batchSize = this.opts.batchSize ?? 500;
    let after: { updatedAt: number; id: number } | null = null;
    for (;;) {
      const changed = await carsChangedSince(db, since, after, batchSize);
      if (changed.length === 0) break;
      const last = changed[changed.length - 1]!;
      after = { updatedAt: last.updatedAt, id: last.id };

      const siteOfCar = new Map(changed.map((row) => [row.id, row.siteId]));
      for (const siteId of new Set(siteOfCar.values())) {
        if (!rulesOfSite.has(siteId)) {
          rulesOfSite.set(siteId, await this.siteRules(siteId, now));
          searchesOfSite.set(siteId, await this.searchesOf(siteId));
        }
      }
      const savers = new Map<number, { shopperId: number; savedPrice: number }[]>();
      for (const { carId, siteId, shopperId, savedPrice } of await saversOfCars(db, [...siteOfCar.keys()])) {
        if (siteOfCar.get(carId) !== siteId) continue;
        savers.set(carId, [...(savers.get(carId) ?? []), { shopperId, savedPrice }]);
      }
      const watched = [...siteOfCar]
        .filter(([carId, siteId]) => rulesOfSite.get(siteId) && (savers.has(carId) || searchesOfSite.get(siteId)!.length > 0))
        .map(([carId]) => carId);
      if (watched.length > 0) {
        for (const { siteId, car } of await carsWithSites(db, watched)) {
          // A site with many saved searches makes this real work: other requests get their turn between cars.
          await new Promise((resolve) => setImmediate(resolve));
          const found = alertsForCar(rulesOfSite.get(siteId)!, car, {
            savers: savers.get(car.id) ?? [],
            searches: searchesOfSite.get(siteId) ?? [],
          });
          for (const alert of found) {
            const entry = pending.get(alert.shopperId) ?? { siteId, alerts: [] };
            entry.alerts.push({ ...alert, car });
            pending.set(alert.shopperId, entry);
          }
        }
      }
      if (changed.length < batchSize) break;
    }
    return pending;
  }

  /** A site's search rules, or null when it has no garage (any more). */
  private async siteRules(siteId: number, now: number): Promise<SiteRules | null> {
    const site = await this.opts.siteOf(siteId);
    if (!site?.garage_enabled) return null;
    return { id: site.id, filter: siteBaseFilter(site, Math.floor(now / 1000)).node, locations: site.locations };
  }

  private async searchesOf(siteId: number): Promise<SearchWatcher[]> {
    const searches = await alertingSearchesOf(this.opts.db, siteId);
    return searches.flatMap((search) => {
      const parsed = parseSavedSearchFilter(search.filter);
      if (!parsed.ok) return [];
      return [
        {
          shopperId: search.shopperId,
          searchId: search.id,
          name: search.name,
          createdAt: search.createdAt,
          filter: parsed.node,
          words: queryWords(search.q),
        },
      ];
    });
  }

  /**
   * Records the shopper's alerts and stores one e-mail with those not sent before, in one
   * transaction. Returns how many alerts were new and whether an e-mail was stored, null when that
   * failed.
   *
   * A shopper whose address opted out of the site's e-mail gets nothing: no alert is recorded and
   * no e-mail stored. Over the daily cap (`alertMailsPerDay`) the alerts are recorded, so the
   * shopper still finds them in the garage, but no e-mail is stored; nor are they e-mailed later:
   * the next e-mail, a day on, tells only what is new then.
   */
  private async mailShopper(shopperId: number, found: Pending, now: number): Promise<{ alerts: number; mailed: boolean } | null> {
    const nothing = { alerts: 0, mailed: false };
    const site = await this.opts.siteOf(found.siteId);
    if (!site) return nothing;
    try {
      return await this.opts.db.transaction().execute(async (trx) => {
        const shopper = await addressOfShopper(trx, shopperId);
        if (!shopper || shopper.siteId !== site.id) return nothing;
        if (await isOptedOut(trx, site.id, shopper.email)) return nothing;
        const inserted = await recordAlerts(
          trx,
          shopperId,
          found.alerts.map((alert) => ({
            carId: alert.carId,
            kind: alert.kind,
            searchId: alert.kind === 'new_match' ? alert.searchId : null,
          })),
          now,
        );
        const fresh = new Set(inserted.map((row) => `${row.carId}:${row.kind}`));
        const items: AlertMailItem[] = found.alerts
          .filter((alert) => fresh.has(`${alert.carId}:${alert.kind}`))
          .map((alert) =>
            alert.kind === 'price_drop'
              ? { kind: alert.kind, car: alert.car, savedPrice: alert.savedPrice }
              : { kind: alert.kind, car: alert.car, searchName: alert.searchName },
          );
        if (items.length === 0) return nothing;
        if ((await mailCountSince(trx, site.id, shopper.email, 'garage-alert', now - dayMs)) >= alertMailsPerDay)
          return { alerts: items.length, mailed: false };
        const links = unsubscribeLinks(site, unsubscribeToken(this.opts.serverSecret, site.id, shopper.email));
        await enqueueShopperMail(
          trx,
          {
            siteId: site.id,
            email: shopper.email,
            kind: 'garage-alert',
            ...alertMail(site, items, links.page),
            listUnsubscribe: links.oneClick,
          },
          now,
        );
        return { alerts: items.length, mailed: true };
      });
    } catch (error) {
      // One shopper's trouble must not hold up the others' alerts.
      this.opts.log?.error({ err: error, shopperId }, 'garage alerts: could not record one shopper’s alerts');
      return null;
    }
  }

  private async housekeeping(now: number) {
    const { db } = this.opts;
    await deleteCodesMadeBefore(db, now - codeRetentionMs);
    await deleteSessionsEndedBy(db, now);
    await this.opts.mail.removeFiles(await deleteFinishedMailBefore(db, now - mailRetentionMs));
  }
}
