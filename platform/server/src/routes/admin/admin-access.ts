import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { checkDealerKey } from '@dealer/db/dealer-key-store';
import type { PlatformDb } from '@dealer/db/database';

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
    if (dealer.status === 'valid') return { ok: true, access: { kind: 'dealer', siteId: dealer.key.site_id, site: dealer.key.site, keyId: dealer.key.id } };
    if (dealer.status === 'revoked') return { ok: false, message: `This dealer key (${dealer.key.id}) was revoked. Ask the platform for a new one.` };
    return { ok: false, message: missing };
  };
}
