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

/** Where an answer's headers go: a Fastify reply, or the headers of a search answered in process. */
export type HeaderSink = { header: (name: string, value: string) => unknown };

/** Counts `queries` searches of a site's public key against `limitKey` (its site and the caller's address; a multi-search is as many as its queries), or refuses with a 429. */
export type TakeSearches = (limitKey: string, queries: number, answer: HeaderSink) => void;

/** Checks a request's `Authorization` header for a route of `access` from address `ip`, and answers who called. */
export type CheckKey = (authorization: string | undefined, access: 'search' | 'admin', ip: string, answer: HeaderSink) => Caller;

/** Lets a browser on any site call the search routes with its site's key. */
export const cors = (reply: FastifyReply) =>
  reply
    .header('Access-Control-Allow-Origin', '*')
    .header('Access-Control-Allow-Headers', 'Authorization, Content-Type, X-Meilisearch-Client')
    .header('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');

/**
 * The key check: the search admin key (compared in constant time) or, on a search route, a site's
 * search key. A site's key is public (every shopper's browser holds it), so its first search is
 * counted here, per address.
 */
export function meiliKeyCheck(ctx: PlatformContext, takeSearches: TakeSearches): CheckKey {
  const expected = Buffer.from(ctx.config.searchAdminKey);
  const isAdminKey = (key: string) => {
    const given = Buffer.from(key);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  return (header, access, ip, answer) => {
    if (!header) throw missingAuthorizationHeader();
    const key = header.replace(/^Bearer\s+/i, '');
    if (isAdminKey(key)) return { kind: 'admin' };
    const siteId = access === 'search' ? siteIdFromSearchKey(key, ctx.config.searchKeySecret) : null;
    if (siteId === null) throw invalidApiKey();
    const limitKey = `${siteId}|${clientAddressKey(ip)}`;
    takeSearches(limitKey, 1, answer);
    return { kind: 'site', siteId, limitKey };
  };
}

/**
 * Checks the bearer key of every request to a route of `app` that is not public, before its body
 * is read (`checkKey`), and answers who called.
 */
export function checkMeiliKeys(app: FastifyInstance, checkKey: CheckKey): (request: FastifyRequest) => Caller | undefined {
  const callers = new WeakMap<FastifyRequest, Caller>();

  app.addHook('onRequest', async (request, reply) => {
    const access = accessOf(request);
    if (access === 'public') return;
    callers.set(request, checkKey(request.headers.authorization, access, request.ip, reply));
  });

  return (request) => callers.get(request);
}
