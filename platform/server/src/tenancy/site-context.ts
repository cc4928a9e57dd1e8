import type { TLSSocket } from 'node:tls';
import type { FastifyRequest } from 'fastify';
import type { SiteConfig } from '@dealer/contracts/site';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { loadSiteConfig, siteContentStamp } from '@dealer/db/site-store';
import type { PlatformDb } from '@dealer/db/database';
import type { RemoteRegistry } from '../remotes/remote-registry';
import type { MeilisearchConfig } from '../config';
import { carsIndexUid, searchKeyForSite } from '../search/site-search';
import { tenantTokenForSite } from '../search/tenant-token';
import { siteIdForHost } from './site-host';
import { toPublicSiteConfig } from './public-config';
import { previewFromCookies, verifyPreviewClaims } from '../remotes/remote-preview';
import type { SiteContexts } from './site-contexts';

/** `preview`: this browser is previewing candidate remote versions (remotes/remote-preview.ts): never cache what it is served. */
export type SiteContext = {
  site: SiteConfig;
  publicConfig: PublicSiteConfig;
  origin: string;
  preview?: boolean;
  /** This browser previews the dealer's unpublished content (a console preview link): drafts are shown. */
  previewDrafts?: boolean;
};

export type SiteDeps = {
  db: PlatformDb;
  registry: RemoteRegistry;
  publicOriginSuffix: string | null;
  searchKeySecret: string;
  meilisearch: MeilisearchConfig | null;
  remotesBaseUrl: string | null;
  /** The platform serves /mock (SPEC §7); a site in mock mode (a staging or demo site) is told to use it. */
  leadsMockMode?: boolean;
  /** Signs and checks the console's preview links of remote versions; absent: no previews. */
  previewSecret?: string;
  /**
   * Keeps configs and contexts while nothing they are made of changed (the platform's SiteCache,
   * tenancy/site-cache.ts); absent: every lookup reads the store.
   */
  sites?: { atStamp(siteId: number, stamp: string): Promise<SiteConfig | null>; readonly contexts: SiteContexts<SiteContext> };
};

/** What a caller already read of the request's site (the document, for its page cache), so it is not read twice. */
export type KnownSite = { siteId: Awaited<ReturnType<typeof siteIdForHost>>; stamp: string | null };

/**
 * How long a context with a real Meilisearch's tenant token is reused: the token lasts a day
 * (tenantTokenLifetimeSeconds), so a page always hands out one with most of its life left.
 */
const tenantTokenReuseMs = 10 * 60_000;

/**
 * Where the site's browser searches and with what key: the platform's own `/meili` with the
 * site's signed search key, or the real Meilisearch with a tenant token carrying the site's rules.
 * Both keys can only search, and only the site's own listed stock.
 */
async function searchAccess(site: SiteConfig, origin: string, deps: SiteDeps): Promise<PublicSiteConfig['search']> {
  if (deps.meilisearch) {
    return {
      host: deps.meilisearch.url,
      apiKey: await tenantTokenForSite(site, deps.meilisearch, Math.floor(Date.now() / 1000)),
      indexUid: carsIndexUid,
    };
  }
  return { host: `${origin}/meili`, apiKey: searchKeyForSite(site.id, deps.searchKeySecret), indexUid: carsIndexUid };
}

/**
 * The address the shopper asked for. Fastify takes the scheme from X-Forwarded-Proto only when a
 * trusted proxy (TRUSTED_PROXIES) sent it; even then only http or https is believed, anything else
 * is the connection's own scheme (it ends up in canonical links, the sitemap and the search host).
 */
export function requestOrigin(request: FastifyRequest): string {
  const said = String(request.protocol).toLowerCase();
  const proto = said === 'http' || said === 'https' ? said : (request.socket as TLSSocket).encrypted ? 'https' : 'http';
  return `${proto}://${request.headers.host ?? 'localhost'}`;
}

/**
 * Finds the request's site by its host, as it is now: a switch applies on the next load. The
 * context is made afresh only when something it is made of moved (the site's content stamp, the
 * latest remote versions, the search host) or for another address; a browser previewing remote
 * versions gets one of its own every time.
 */
export async function resolveSite(
  request: FastifyRequest,
  deps: SiteDeps,
  known?: KnownSite,
): Promise<SiteContext | 'index' | 'invalid' | null> {
  const siteId = known ? known.siteId : await siteIdForHost(deps.db, request.headers.host, deps.publicOriginSuffix);
  if (siteId === 'index' || siteId === 'invalid' || siteId === null) return siteId;
  const origin = requestOrigin(request);
  const token = deps.previewSecret ? previewFromCookies(request.headers.cookie) : null;
  if (!deps.sites || token) return makeSiteContext(await loadSiteConfig(deps.db, siteId), origin, token, deps);
  const stamp = known ? known.stamp : await siteContentStamp(deps.db, siteId);
  if (stamp === null) return null;
  const key = `${siteId} ${origin}`;
  const version = `${stamp}|${deps.registry.latestStamp()}|${deps.meilisearch?.url ?? ''}`;
  const maxAgeMs = deps.meilisearch ? tenantTokenReuseMs : Infinity;
  const kept = deps.sites.contexts.get(key, version, maxAgeMs);
  if (kept) return kept;
  const context = await makeSiteContext(await deps.sites.atStamp(siteId, stamp), origin, null, deps);
  if (context) deps.sites.contexts.set(key, version, context);
  return context;
}

async function makeSiteContext(
  stored: SiteConfig | null,
  origin: string,
  token: string | null,
  deps: SiteDeps,
): Promise<SiteContext | null> {
  if (!stored) return null;
  const claims = token ? verifyPreviewClaims(deps.previewSecret!, token, stored.id) : null;
  const previewRemotes = claims?.remotes ?? null;
  const site = previewRemotes ? { ...stored, remotes: previewRemotes } : stored;
  const remotes = deps.registry.resolve(site.remotes, deps.remotesBaseUrl ?? origin);
  const publicConfig = toPublicSiteConfig(
    site,
    remotes,
    await searchAccess(site, origin, deps),
    deps.leadsMockMode && site.lead_settings?.mock_mode ? '/mock' : '/api',
  );
  if (claims) {
    const previewed = { ...publicConfig, preview: true as const, ...(claims.drafts ? { preview_drafts: true as const } : {}) };
    return { site, publicConfig: previewed, origin, preview: true, previewDrafts: claims.drafts };
  }
  return { site, publicConfig, origin };
}
