import type { FastifyRequest } from 'fastify';
import type { SiteConfig } from '@dealer/contracts/site';
import type { PlatformDb } from '@dealer/db/database';
import { loadSiteConfig, siteContentStamp } from '@dealer/db/site-store';
import { siteIdForHost } from './site-host';
import type { SiteContext } from './site-context';
import { SiteContexts } from './site-contexts';

type Entry = { site: SiteConfig; expires: number };

/**
 * Site configs for the lead hot path, kept a few seconds: a create must not read four tables
 * before its one transaction. A change made by the CLI applies within `ttlMs`, which is safe for
 * leads (settings and targets are read again when the lead is delivered). Only sites that exist
 * are kept, and at most `maxEntries`, so random Host headers cannot grow it.
 * Pages and searches, which must follow a change on the next request, take configs kept per
 * content stamp instead (`current`, `atStamp`) and the contexts made of them (`contexts`).
 */
export class SiteCache {
  private readonly byHost = new Map<string, Entry>();
  private readonly byId = new Map<number, Entry>();
  private readonly byStamp = new Map<number, { stamp: string; site: SiteConfig }>();
  /** The sites' contexts the pages and the routes that read the site fresh are served (tenancy/site-context.ts). */
  readonly contexts = new SiteContexts<SiteContext>();

  constructor(
    private readonly db: PlatformDb,
    private readonly publicOriginSuffix: string | null,
    private readonly ttlMs = 5_000,
    private readonly maxEntries = 1_000,
  ) {}

  /** The request's site by its Host, 'invalid' for a malformed Host, null when no site is served there. */
  async forRequest(request: FastifyRequest, now = Date.now()): Promise<SiteConfig | 'invalid' | null> {
    const host = (request.headers.host ?? '').toLowerCase();
    const cached = this.byHost.get(host);
    if (cached && cached.expires > now) return cached.site;
    const siteId = await siteIdForHost(this.db, request.headers.host, this.publicOriginSuffix);
    if (siteId === 'invalid') return 'invalid';
    if (siteId === 'index' || siteId === null) return null;
    const site = await this.byIdFresh(siteId, now);
    if (site) this.remember(this.byHost, host, { site, expires: now + this.ttlMs });
    return site;
  }

  /** Forgets every site, so the next request reads its config afresh. */
  clear() {
    this.byHost.clear();
    this.byId.clear();
    this.byStamp.clear();
    this.contexts.clear();
  }

  /**
   * The site as it is now, for whatever must follow a change on the next request (a site's search
   * rules): one indexed read, its content stamp, and the config read again only when that moved.
   */
  async current(siteId: number): Promise<SiteConfig | null> {
    const stamp = await siteContentStamp(this.db, siteId);
    return stamp === null ? null : this.atStamp(siteId, stamp);
  }

  /**
   * The site's config as of its content stamp `stamp` (siteContentStamp: every change of its
   * config, locations or remote settings, by any process, moves it): read once per stamp, and the
   * same object for every request until the stamp moves.
   */
  async atStamp(siteId: number, stamp: string): Promise<SiteConfig | null> {
    const kept = this.byStamp.get(siteId);
    if (kept?.stamp === stamp) return kept.site;
    // Read after the stamp: the config is at least as new as the stamp it is kept under.
    const site = await loadSiteConfig(this.db, siteId);
    if (site) this.remember(this.byStamp, siteId, { stamp, site });
    return site;
  }

  /** A site by id (the outbox worker's lookup). */
  async forId(siteId: number, now = Date.now()): Promise<SiteConfig | null> {
    const cached = this.byId.get(siteId);
    if (cached && cached.expires > now) return cached.site;
    return this.byIdFresh(siteId, now);
  }

  private async byIdFresh(siteId: number, now: number): Promise<SiteConfig | null> {
    const site = await loadSiteConfig(this.db, siteId);
    if (site) this.remember(this.byId, siteId, { site, expires: now + this.ttlMs });
    return site;
  }

  private remember<K, V>(map: Map<K, V>, key: K, entry: V) {
    if (map.size >= this.maxEntries) map.delete(map.keys().next().value as K);
    map.set(key, entry);
  }
}
