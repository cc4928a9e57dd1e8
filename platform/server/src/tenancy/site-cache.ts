import type { FastifyRequest } from 'fastify';
import type { SiteConfig } from '@dealer/contracts/site';
import type { PlatformDb } from '@dealer/db/database';
import { loadSiteConfig } from '@dealer/db/site-store';
import { siteIdForHost } from './site-host';

type Entry = { site: SiteConfig; expires: number };

/**
 * Site configs for the lead hot path, kept a few seconds: a create must not read four tables
 * before its one transaction. A change made by the CLI applies within `ttlMs`, which is safe for
 * leads (settings and targets are read again when the lead is delivered). Only sites that exist
 * are kept, and at most `maxEntries`, so random Host headers cannot grow it.
 */
export class SiteCache {
  private readonly byHost = new Map<string, Entry>();
  private readonly byId = new Map<number, Entry>();

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

  private remember<K>(map: Map<K, Entry>, key: K, entry: Entry) {
    if (map.size >= this.maxEntries) map.delete(map.keys().next().value as K);
    map.set(key, entry);
  }
}
