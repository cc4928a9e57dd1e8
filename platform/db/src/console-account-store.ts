/**
 * The dealer console's people in the store (issue 23): users and their roles, sign-in codes,
 * sessions and the console's own mail outbox. Codes and link tokens are kept only as hashes,
 * sessions by the SHA-256 of their cookie value (the caller hashes).
 */
import type { Kysely, Transaction } from 'kysely';
import type { DatabaseEngine } from './database-engine';
import type { PlatformDb } from './database';
import { claimDueRows, type Claim } from './due-rows';
import { settledColumns, type Attempt } from './outbox-attempt';
import type { ConsoleRoleName, PlatformDatabase } from './schema';

type Db = Kysely<PlatformDatabase> | Transaction<PlatformDatabase>;

export type ConsoleRole = { role: ConsoleRoleName; siteId: number | null; group: string | null };
export type ConsoleUser = { id: number; email: string; name: string | null; roles: ConsoleRole[] };

export const normaliseConsoleEmail = (email: string) => email.trim().toLowerCase();

async function rolesOf(db: Db, userId: number): Promise<ConsoleRole[]> {
  const rows = await db
    .selectFrom('console_roles')
    .select(['role', 'site_id', 'dealer_group'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ role: row.role, siteId: row.site_id === null ? null : Number(row.site_id), group: row.dealer_group }));
}

export async function consoleUserById(db: Db, id: number): Promise<ConsoleUser | null> {
  const row = await db.selectFrom('console_users').select(['id', 'email', 'name']).where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  return { id: Number(row.id), email: row.email, name: row.name, roles: await rolesOf(db, Number(row.id)) };
}

export async function consoleUserByEmail(db: Db, email: string): Promise<ConsoleUser | null> {
  const row = await db.selectFrom('console_users').select('id').where('email', '=', normaliseConsoleEmail(email)).executeTakeFirst();
  return row ? consoleUserById(db, Number(row.id)) : null;
}

/** The user of this address, made if there is none. */
export async function ensureConsoleUser(db: Db, email: string, name: string | null, now: number): Promise<number> {
  const address = normaliseConsoleEmail(email);
  const found = await db.selectFrom('console_users').select('id').where('email', '=', address).executeTakeFirst();
  if (found) return Number(found.id);
  const row = await db
    .insertInto('console_users')
    .values({ email: address, name, created_at: now, updated_at: now, signed_in_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Gives a role (nothing when the user already holds exactly it). */
export async function grantConsoleRole(db: Db, userId: number, role: ConsoleRole, now: number) {
  const held = await rolesOf(db, userId);
  if (held.some((one) => one.role === role.role && one.siteId === role.siteId && one.group === role.group)) return;
  await db
    .insertInto('console_roles')
    .values({ user_id: userId, role: role.role, site_id: role.siteId, dealer_group: role.group, created_at: now })
    .execute();
}

/** Takes away the user's roles on one site. */
export async function revokeSiteRoles(db: Db, userId: number, siteId: number) {
  await db.deleteFrom('console_roles').where('user_id', '=', userId).where('site_id', '=', siteId).execute();
}

/** Users holding a role on the site itself (site admins and staff), by address. */
export async function consoleUsersOfSite(
  db: Db,
  siteId: number,
): Promise<{ id: number; email: string; name: string | null; role: ConsoleRoleName }[]> {
  const rows = await db
    .selectFrom('console_roles')
    .innerJoin('console_users', 'console_users.id', 'console_roles.user_id')
    .select(['console_users.id', 'console_users.email', 'console_users.name', 'console_roles.role'])
    .where('console_roles.site_id', '=', siteId)
    .orderBy('console_users.email')
    .execute();
  return rows.map((row) => ({ id: Number(row.id), email: row.email, name: row.name, role: row.role }));
}

/* ------------------------------------------------------------------ sign-in codes */

export type NewConsoleCode = { email: string; salt: string; codeHash: string; tokenHash: string; expiresAt: number };

export async function insertConsoleCode(db: Db, code: NewConsoleCode, now: number) {
  await db
    .insertInto('console_sign_in_codes')
    .values({
      email: code.email,
      salt: code.salt,
      code_hash: code.codeHash,
      token_hash: code.tokenHash,
      tries: 0,
      expires_at: code.expiresAt,
      used_at: null,
      created_at: now,
    })
    .execute();
}

export async function consoleCodesAskedSince(db: Db, email: string, since: number): Promise<number[]> {
  const rows = await db
    .selectFrom('console_sign_in_codes')
    .select('created_at')
    .where('email', '=', email)
    .where('created_at', '>=', since)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => Number(row.created_at));
}

async function lockLiveCodes(trx: Transaction<PlatformDatabase>, engine: DatabaseEngine, email: string, now: number) {
  return trx
    .selectFrom('console_sign_in_codes')
    .select(['id', 'salt', 'code_hash', 'tries'])
    .where('email', '=', email)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('id')
    .$if(engine === 'postgres', (query) => query.forUpdate())
    .execute();
}

/** Takes one try from every live code of the address that has tries left, and returns those codes to compare against. */
export async function takeConsoleCodeTries(db: PlatformDb, engine: DatabaseEngine, email: string, maxTries: number, now: number) {
  return db.transaction().execute(async (trx) => {
    const live = (await lockLiveCodes(trx, engine, email, now)).filter((row) => Number(row.tries) < maxTries);
    if (live.length > 0)
      await trx
        .updateTable('console_sign_in_codes')
        .set((eb) => ({ tries: eb('tries', '+', 1) }))
        .where(
          'id',
          'in',
          live.map((row) => row.id),
        )
        .execute();
    return live.map((row) => ({ id: Number(row.id), salt: row.salt, codeHash: row.code_hash }));
  });
}

/** Uses a code that matched (false: used meanwhile); the address's other codes die with it. */
export async function redeemConsoleCode(
  trx: Transaction<PlatformDatabase>,
  engine: DatabaseEngine,
  codeId: number,
  email: string,
  now: number,
) {
  const live = await lockLiveCodes(trx, engine, email, now);
  if (!live.some((row) => Number(row.id) === codeId)) return false;
  await trx
    .updateTable('console_sign_in_codes')
    .set({ used_at: now })
    .where(
      'id',
      'in',
      live.map((row) => row.id),
    )
    .execute();
  return true;
}

/** Uses the live code a link's token belongs to: its address, or null. */
export async function redeemConsoleToken(trx: Transaction<PlatformDatabase>, engine: DatabaseEngine, tokenHash: string, now: number) {
  const row = await trx.selectFrom('console_sign_in_codes').select(['id', 'email']).where('token_hash', '=', tokenHash).executeTakeFirst();
  if (!row) return null;
  return (await redeemConsoleCode(trx, engine, Number(row.id), row.email, now)) ? row.email : null;
}

/* ------------------------------------------------------------------ sessions */

export type ConsoleSession = { idHash: string; userAgent: string; createdAt: number; lastSeenAt: number; expiresAt: number };

export async function insertConsoleSession(
  db: Db,
  session: { idHash: string; userId: number; userAgent: string; expiresAt: number },
  now: number,
) {
  await db
    .insertInto('console_sessions')
    .values({
      id_hash: session.idHash,
      user_id: session.userId,
      user_agent: session.userAgent,
      created_at: now,
      last_seen_at: now,
      expires_at: session.expiresAt,
    })
    .execute();
  await db.updateTable('console_users').set({ signed_in_at: now, updated_at: now }).where('id', '=', session.userId).execute();
}

/** The user a live session belongs to (its last-seen time moved on at most once a minute), or null. */
export async function consoleUserOfSession(db: PlatformDb, idHash: string, now: number): Promise<ConsoleUser | null> {
  const row = await db
    .selectFrom('console_sessions')
    .select(['user_id', 'last_seen_at'])
    .where('id_hash', '=', idHash)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return null;
  if (now - Number(row.last_seen_at) > 60_000)
    await db.updateTable('console_sessions').set({ last_seen_at: now }).where('id_hash', '=', idHash).execute();
  return consoleUserById(db, Number(row.user_id));
}

export async function consoleSessionsOf(db: Db, userId: number, now: number): Promise<ConsoleSession[]> {
  const rows = await db
    .selectFrom('console_sessions')
    .select(['id_hash', 'user_agent', 'created_at', 'last_seen_at', 'expires_at'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map((row) => ({
    idHash: row.id_hash,
    userAgent: row.user_agent,
    createdAt: Number(row.created_at),
    lastSeenAt: Number(row.last_seen_at),
    expiresAt: Number(row.expires_at),
  }));
}

/** Ends one of the user's sessions; false when it is not theirs or already ended. */
export async function deleteConsoleSession(db: Db, userId: number, idHash: string): Promise<boolean> {
  const result = await db.deleteFrom('console_sessions').where('user_id', '=', userId).where('id_hash', '=', idHash).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/* ------------------------------------------------------------------ mail */

export async function enqueueConsoleMail(
  db: Db,
  mail: { email: string; subject: string; body: string; expiresAt: number | null },
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('console_mail')
    .values({
      email: mail.email,
      subject: mail.subject,
      body: mail.body,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      expires_at: mail.expiresAt,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export type ClaimedConsoleMail = { id: number; email: string; subject: string; body: string; attempts: number; expires_at: number | null };

export async function claimDueConsoleMail(db: PlatformDb, claim: Claim): Promise<ClaimedConsoleMail[]> {
  const rows = await claimDueRows(db, {
    table: 'console_mail',
    columns: ['id', 'email', 'subject', 'body', 'attempts', 'expires_at'],
    ...claim,
  });
  return rows.map((row) => ({
    ...row,
    id: Number(row.id),
    attempts: Number(row.attempts),
    expires_at: row.expires_at === null ? null : Number(row.expires_at),
  }));
}

/** Records attempts at sending console mail while this worker holds its claim; a mail no longer to be sent loses its body (a live code). */
export async function recordConsoleMailAttempts(
  db: PlatformDb,
  token: string,
  attempts: readonly Attempt<ClaimedConsoleMail>[],
  now: number,
) {
  for (const attempt of attempts) {
    await db
      .updateTable('console_mail')
      .set({ ...settledColumns(attempt, now), ...(attempt.state === 'failed' ? {} : { body: '' }) })
      .where('id', '=', attempt.row.id)
      .where('claim_token', '=', token)
      .execute();
  }
}

/* ------------------------------------------------------------------ sites */

export type ConsoleSite = { id: number; slug: string; name: string; group: string | null };

const toConsoleSite = (row: { id: number; slug: string; config: string }): ConsoleSite => {
  const config = JSON.parse(row.config) as { name?: string; dealership_group?: string | null };
  return { id: Number(row.id), slug: row.slug, name: config.name ?? row.slug, group: config.dealership_group ?? null };
};

/** Every site with its name and dealer group, by slug (the console filters it by the user's roles). */
export async function consoleSites(db: Db): Promise<ConsoleSite[]> {
  const rows = await db.selectFrom('sites').select(['id', 'slug', 'config']).orderBy('slug').execute();
  return rows.map(toConsoleSite);
}

export async function consoleSiteBySlug(db: Db, slug: string): Promise<ConsoleSite | null> {
  const row = await db.selectFrom('sites').select(['id', 'slug', 'config']).where('slug', '=', slug).executeTakeFirst();
  return row ? toConsoleSite(row) : null;
}
