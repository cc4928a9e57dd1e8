/**
 * Dealer keys: bearer keys that open one site's admin routes (its leads, files, bookings, events),
 * beside the platform key the operators keep. A key is `dk_<site slug>_<43 base64url characters>`
 * (256 random bits). Only its SHA-256 is stored: the key is shown once, when it is made, and a copy
 * of the database opens nothing. The slug in a key only says where to look; the site a key opens
 * is the one its row belongs to.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PlatformDb } from './database';

export type DealerKey = { id: number; site_id: number; site: string; label: string; created_at: number; revoked_at: number | null };

export type DealerKeyCheck = { status: 'valid'; key: DealerKey } | { status: 'revoked'; key: DealerKey } | { status: 'unknown' };

const keyPattern = /^dk_([a-z0-9-]+)_[A-Za-z0-9_-]{43}$/;

const sha256 = (key: string) => createHash('sha256').update(key, 'utf8').digest();

const keyColumns = [
  'dealer_keys.id',
  'dealer_keys.site_id',
  'sites.slug as site',
  'dealer_keys.label',
  'dealer_keys.created_at',
  'dealer_keys.revoked_at',
] as const;

type KeyRow = { id: number; site_id: number; site: string; label: string; created_at: number; revoked_at: number | null };
const toDealerKey = (row: KeyRow): DealerKey => ({
  id: Number(row.id),
  site_id: Number(row.site_id),
  site: row.site,
  label: row.label,
  created_at: Number(row.created_at),
  revoked_at: row.revoked_at == null ? null : Number(row.revoked_at),
});

const keysWithSite = (db: PlatformDb) => db.selectFrom('dealer_keys').innerJoin('sites', 'sites.id', 'dealer_keys.site_id');

/** Makes a key for a site. The returned `key` is the only time it exists in the clear. */
export async function createDealerKey(
  db: PlatformDb,
  site: { id: number; slug: string },
  label: string,
  now = Date.now(),
): Promise<{ key: string; dealerKey: DealerKey }> {
  const key = `dk_${site.slug}_${randomBytes(32).toString('base64url')}`;
  const row = await db
    .insertInto('dealer_keys')
    .values({ site_id: site.id, label, key_hash: sha256(key).toString('hex'), created_at: now, revoked_at: null })
    .returning(['id', 'site_id', 'label', 'created_at', 'revoked_at'])
    .executeTakeFirstOrThrow();
  return { key, dealerKey: toDealerKey({ ...row, site: site.slug }) };
}

/** The keys of one site, or of every site, oldest first; revoked ones too (with when). */
export async function listDealerKeys(db: PlatformDb, siteId: number | null): Promise<DealerKey[]> {
  let query = keysWithSite(db).select(keyColumns);
  if (siteId !== null) query = query.where('dealer_keys.site_id', '=', siteId);
  return (await query.orderBy('dealer_keys.id').execute()).map(toDealerKey);
}

export async function findDealerKeyById(db: PlatformDb, id: number): Promise<DealerKey | null> {
  const row = await keysWithSite(db).select(keyColumns).where('dealer_keys.id', '=', id).executeTakeFirst();
  return row ? toDealerKey(row) : null;
}

/** Revokes a key from now on; revoking it again keeps the first time. Null: no such key. */
export async function revokeDealerKey(db: PlatformDb, id: number, now = Date.now()): Promise<DealerKey | null> {
  await db.updateTable('dealer_keys').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
  return findDealerKeyById(db, id);
}

/**
 * What a presented key opens. The site's keys are read by the slug the key names and each hash
 * compared in constant time, so neither the lookup nor the comparison tells how close a guess was.
 */
export async function checkDealerKey(db: PlatformDb, presented: string): Promise<DealerKeyCheck> {
  const slug = keyPattern.exec(presented)?.[1];
  if (!slug) return { status: 'unknown' };
  const hash = sha256(presented);
  const rows = await keysWithSite(db)
    .select([...keyColumns, 'dealer_keys.key_hash'])
    .where('sites.slug', '=', slug)
    .execute();
  const found = rows.find((row) => timingSafeEqual(Buffer.from(row.key_hash, 'hex'), hash));
  if (!found) return { status: 'unknown' };
  const key = toDealerKey(found);
  return key.revoked_at === null ? { status: 'valid', key } : { status: 'revoked', key };
}
