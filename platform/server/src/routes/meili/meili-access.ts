import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invalidApiKey, missingAuthorizationHeader } from '@dealer/search-engine/request-errors';
import { clientAddressKey } from '../../http/client-address';
import type { PlatformContext } from '../../platform-context';
import { siteIdFromSearchKey } from '../../search/site-search';

/**
 * Who may call a route: anyone (`public`), a site's search key or the search admin key
 * (`search`), or the search admin key only (`admin`). Checked before the body is read.
 */
export type Access = 'public' | 'search' | 'admin';
export type Caller = { kind: 'admin' } | { kind: 'site'; siteId: number; limitKey: string };
/** A route's options: who may call it, and whether it takes documents as NDJSON and CSV besides JSON. */
export type RouteConfig = { access?: Access; documents?: boolean };

/** Meilisearch accepts up to 100 MB of documents; the indexer sends far smaller batches. */
export const documentsBodyLimit = 50 * 1024 * 1024;

/** A search route: a site's search key (scoped to its stock) or the search admin key. */
export const searchKey = { config: { access: 'search' } satisfies RouteConfig };
/** A route of the indexer's: the search admin key only. */
export const adminKey = { config: { access: 'admin' } satisfies RouteConfig };
/** A documents addition: the search admin key, and a body of documents as JSON, NDJSON or CSV. */
export const adminKeyDocuments = { config: { access: 'admin', documents: true } satisfies RouteConfig, bodyLimit: documentsBodyLimit };

export const routeConfigOf = (request: FastifyRequest) => request.routeOptions.config as RouteConfig;
export const accessOf = (request: FastifyRequest): Access => routeConfigOf(request).access ?? 'public';

/** Counts `queries` searches of a site's public key against `limitKey` (its site and the caller's address; a multi-search is as many as its queries), or refuses with a 429. */
export type TakeSearches = (limitKey: string, queries: number, reply: FastifyReply) => void;

/** Lets a browser on any site call the search routes with its site's key. */
export const cors = (reply: FastifyReply) =>
  reply
    .header('Access-Control-Allow-Origin', '*')
    .header('Access-Control-Allow-Headers', 'Authorization, Content-Type, X-Meilisearch-Client')
    .header('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');

/**
 * Checks the bearer key of every request to a route of `app` that is not public, before its body
 * is read, and answers who called: the search admin key (compared in constant time) or a site's
 * search key. A site's key is public (every shopper's browser holds it), so its first search is
 * counted here, per address.
 */
export function checkMeiliKeys(
  app: FastifyInstance,
  ctx: PlatformContext,
  takeSearches: TakeSearches,
): (request: FastifyRequest) => Caller | undefined {
  const expected = Buffer.from(ctx.config.searchAdminKey);
  const isAdminKey = (key: string) => {
    const given = Buffer.from(key);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  const callers = new WeakMap<FastifyRequest, Caller>();

  app.addHook('onRequest', async (request, reply) => {
    const access = accessOf(request);
    if (access === 'public') return;
    const header = request.headers.authorization;
    if (!header) throw missingAuthorizationHeader();
    const key = header.replace(/^Bearer\s+/i, '');
    if (isAdminKey(key)) {
      callers.set(request, { kind: 'admin' });
      return;
    }
    const siteId = access === 'search' ? siteIdFromSearchKey(key, ctx.config.searchKeySecret) : null;
    if (siteId === null) throw invalidApiKey();
    takeSearches(`${siteId}|${clientAddressKey(request.ip)}`, 1, reply);
    callers.set(request, { kind: 'site', siteId, limitKey: `${siteId}|${clientAddressKey(request.ip)}` });
  });

  return (request) => callers.get(request);
}
