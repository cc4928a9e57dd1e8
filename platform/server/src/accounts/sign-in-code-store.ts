/**
 * Sign-in codes of shopper accounts in the store: a code and its link are written, counted, tried and
 * redeemed here (sign-in.ts decides when), with PostgreSQL's lock conflicts retried.
 */
import type { Kysely, Transaction } from 'kysely';
import type { DatabaseEngine } from '@dealer/db/database-engine';
import type { PlatformDb } from '@dealer/db/database';
import type { PlatformDatabase } from '@dealer/db/schema';

type Db = Kysely<PlatformDatabase> | Transaction<PlatformDatabase>;

const lockConflictCodes = new Set([
  // serialization_failure, deadlock_detected: PostgreSQL rolled the transaction back, so running it again is safe.
  '40001',
  '40P01',
]);
/** Runs of a transaction that lost to another in PostgreSQL, besides the first, before the error is let through. */
export const lockConflictRetries = 3;

/**
 * Runs `work` (one statement or one whole transaction) again when PostgreSQL rolled it back for a
 * deadlock or a serialization failure, at most `lockConflictRetries` more times. The codes are
 * locked in one order, so this is for what is left: another writer (a deletion, the housekeeping)
 * taking the same rows in its own order.
 */
export async function retryingLockConflicts<T>(work: () => Promise<T>): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await work();
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (retry >= lockConflictRetries || typeof code !== 'string' || !lockConflictCodes.has(code)) throw error;
    }
  }
}

export async function insertSignInCode(
  trx: Db,
  code: { siteId: number; email: string; requester: string; salt: string; codeHash: string; tokenHash: string; expiresAt: number },
  now: number,
): Promise<number> {
  const row = await trx
    .insertInto('shopper_sign_in_codes')
    .values({
      site_id: code.siteId,
      email: code.email,
      requester: code.requester,
      salt: code.salt,
      code_hash: code.codeHash,
      token_hash: code.tokenHash,
      tries: 0,
      other_tries: 0,
      expires_at: code.expiresAt,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** The codes sent to an address since `since`: when each was made and who asked for it, oldest first. */
export async function codesAskedSince(
  trx: Db,
  siteId: number,
  email: string,
  since: number,
): Promise<{ createdAt: number; requester: string }[]> {
  const rows = await trx
    .selectFrom('shopper_sign_in_codes')
    .select(['created_at', 'requester'])
    .where('site_id', '=', siteId)
    .where('email', '=', email)
    .where('created_at', '>', since)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ createdAt: Number(row.created_at), requester: row.requester }));
}

/**
 * Locks the address's codes that are still usable (unused, unexpired) for the rest of the
 * transaction, always in id order (PostgreSQL; SQLite runs one writer at a time): every statement
 * that writes several codes of an address locks them so first, so two of them never each hold one
 * code the other waits for (a deadlock, issue 8). A row locked by another is waited for and looked
 * at again once free, so a code used meanwhile is left out.
 */
async function lockLiveCodes(trx: Transaction<PlatformDatabase>, engine: DatabaseEngine, siteId: number, email: string, now: number) {
  return trx
    .selectFrom('shopper_sign_in_codes')
    .select(['id', 'requester', 'salt', 'code_hash', 'tries', 'other_tries'])
    .where('site_id', '=', siteId)
    .where('email', '=', email)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('id')
    .$if(engine === 'postgres', (query) => query.forUpdate())
    .execute();
}

/**
 * Takes one try from every live code of an address and returns those to compare against: the try
 * is counted before the code is looked at, so racing guesses cannot get more than the allowed
 * tries between them. A code has `maxTries` for the connection that asked for it and as many for
 * all others together: a stranger guessing at someone's address spends the others' tries, never
 * the owner's (issue 7).
 */
export async function takeCodeTries(
  db: PlatformDb,
  engine: DatabaseEngine,
  siteId: number,
  email: string,
  requester: string,
  maxTries: number,
  now: number,
) {
  return db.transaction().execute(async (trx) => {
    const live = await lockLiveCodes(trx, engine, siteId, email, now);
    const own = live.filter((row) => row.requester === requester && Number(row.tries) < maxTries);
    const others = live.filter((row) => row.requester !== requester && Number(row.other_tries) < maxTries);
    if (own.length > 0)
      await trx
        .updateTable('shopper_sign_in_codes')
        .set((eb) => ({ tries: eb('tries', '+', 1) }))
        .where(
          'id',
          'in',
          own.map((row) => row.id),
        )
        .execute();
    if (others.length > 0)
      await trx
        .updateTable('shopper_sign_in_codes')
        .set((eb) => ({ other_tries: eb('other_tries', '+', 1) }))
        .where(
          'id',
          'in',
          others.map((row) => row.id),
        )
        .execute();
    return [...own, ...others].map((row) => ({ id: Number(row.id), salt: row.salt, codeHash: row.code_hash }));
  });
}

/** Uses a code that matched; false when it was used meanwhile. The address's other codes die with it. */
export async function redeemCode(
  trx: Transaction<PlatformDatabase>,
  engine: DatabaseEngine,
  codeId: number,
  siteId: number,
  email: string,
  now: number,
): Promise<boolean> {
  const live = await lockLiveCodes(trx, engine, siteId, email, now);
  if (!live.some((row) => Number(row.id) === codeId)) return false;
  await trx
    .updateTable('shopper_sign_in_codes')
    .set({ used_at: now })
    .where(
      'id',
      'in',
      live.map((row) => row.id),
    )
    .execute();
  return true;
}

/**
 * Uses the live code a link's token belongs to; its address, or null. The address's other codes
 * die with it. Wrong guesses at the code do not stop the link: its token cannot be guessed, and a
 * stranger's guesses must not take the owner's way in.
 */
export async function redeemToken(
  trx: Transaction<PlatformDatabase>,
  engine: DatabaseEngine,
  siteId: number,
  tokenHash: string,
  now: number,
): Promise<string | null> {
  const row = await trx
    .selectFrom('shopper_sign_in_codes')
    .select(['id', 'email'])
    .where('token_hash', '=', tokenHash)
    .where('site_id', '=', siteId)
    .executeTakeFirst();
  if (!row) return null;
  return (await redeemCode(trx, engine, Number(row.id), siteId, row.email, now)) ? row.email : null;
}

/** Forgets the sign-in codes made before `before`, used or not (all sites). */
export async function deleteCodesMadeBefore(db: Db, before: number) {
  await db.deleteFrom('shopper_sign_in_codes').where('created_at', '<', before).execute();
}
