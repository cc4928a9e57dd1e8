import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkDealerKey } from '@dealer/db/dealer-key-store';
import type { PlatformDb } from '@dealer/db/database';
import { findSiteIdBySlug } from '@dealer/db/site-store';

/**
 * Who is calling an admin route: an operator with the platform key (every site, and the
 * platform's own routes) or a dealer with one of its site's dealer keys (that site only).
 */
export type AdminAccess = { kind: 'platform' } | { kind: 'dealer'; siteId: number; site: string; keyId: number };

export type AdminAccessCheck = { ok: true; access: AdminAccess } | { ok: false; message: string };

const missing = 'A valid admin key is required (Authorization: Bearer <PLATFORM_ADMIN_KEY or a dealer key>).';

/** Checks the bearer key of a request: the platform key compared in constant time, else a dealer key. */
export function adminAccessChecker(db: PlatformDb, platformKey: string) {
  const expected = Buffer.from(platformKey);
  return async (request: FastifyRequest): Promise<AdminAccessCheck> => {
    const presented = (request.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    const given = Buffer.from(presented);
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true, access: { kind: 'platform' } };
    const dealer = await checkDealerKey(db, presented);
    if (dealer.status === 'valid')
      return { ok: true, access: { kind: 'dealer', siteId: dealer.key.site_id, site: dealer.key.site, keyId: dealer.key.id } };
    if (dealer.status === 'revoked')
      return { ok: false, message: `This dealer key (${dealer.key.id}) was revoked. Ask the platform for a new one.` };
    return { ok: false, message: missing };
  };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An admin route: a dealer key opens it for its own site (`'site'`), or only the platform key does (`'platform'`). */
    adminAccess?: 'site' | 'platform';
  }
}

const dealerKeyRefusal = "This needs the platform admin key: a dealer key opens only its own site's leads, files, bookings and events.";

/** What the admin routes ask of the key their request was opened with. */
export type AdminRequests = {
  /** Who called (checked before the route ran). */
  accessOf(request: FastifyRequest): AdminAccess;
  /** The site a listing is of: the dealer key's own, or the one `slug` names (required with the platform key); null once refused. */
  siteOf(request: FastifyRequest, reply: FastifyReply, slug: string | undefined): Promise<{ siteId: number; slug: string } | null>;
};

/**
 * Checks the key of every route of `app` that says in `config.adminAccess` who it is for, before
 * the request's parameters are judged: 401 without a valid key, 403 for a dealer key on a route
 * of the platform's own.
 */
export function guardAdminRoutes(app: FastifyInstance, db: PlatformDb, platformKey: string): AdminRequests {
  const checkAccess = adminAccessChecker(db, platformKey);
  const accesses = new WeakMap<FastifyRequest, AdminAccess>();

  app.addHook('preValidation', async (request, reply) => {
    const need = request.routeOptions.config.adminAccess;
    if (!need) return;
    const check = await checkAccess(request);
    if (!check.ok) return reply.code(401).header('WWW-Authenticate', 'Bearer').send({ message: check.message });
    if (need === 'platform' && check.access.kind !== 'platform') return reply.code(403).send({ message: dealerKeyRefusal });
    accesses.set(request, check.access);
  });
  const accessOf = (request: FastifyRequest) => {
    const access = accesses.get(request);
    if (!access) throw new Error(`${request.method} ${request.url}: an admin route without config.adminAccess.`);
    return access;
  };

  async function siteOf(
    request: FastifyRequest,
    reply: FastifyReply,
    slug: string | undefined,
  ): Promise<{ siteId: number; slug: string } | null> {
    const access = accessOf(request);
    if (access.kind === 'dealer') {
      if (slug === undefined || slug === access.site) return { siteId: access.siteId, slug: access.site };
      await reply.code(403).send({ message: `This dealer key opens ${access.site} only, not ${slug}.` });
      return null;
    }
    if (slug === undefined) {
      await reply.code(400).send({ message: 'site: site is required' });
      return null;
    }
    const siteId = await findSiteIdBySlug(db, slug);
    if (siteId === null) {
      await reply.code(404).send({ message: `No site with slug ${slug}.` });
      return null;
    }
    return { siteId, slug };
  }

  return { accessOf, siteOf };
}
