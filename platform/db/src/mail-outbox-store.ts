import type { Transaction } from 'kysely';
import type { PlatformDb } from './database';
import { claimDueRows, type Claim } from './due-rows';
import { settledColumns, type Attempt } from './outbox-attempt';
import type { PlatformDatabase, ShopperMailTable } from './schema';

export type NewShopperMail = {
  siteId: number;
  email: string;
  kind: ShopperMailTable['kind'];
  subject: string;
  body: string;
  /** Not sent after this (a sign-in e-mail whose code has expired). */
  expiresAt?: number | null;
  /** A garage alert's one-click unsubscribe address, sent as its List-Unsubscribe header. */
  listUnsubscribe?: string | null;
};

/** Stores a mail, due now, inside the caller's transaction. Returns its id. */
export async function enqueueShopperMail(
  trx: Transaction<PlatformDatabase> | PlatformDb,
  mail: NewShopperMail,
  now: number,
): Promise<number> {
  const row = await trx
    .insertInto('shopper_mail')
    .values({
      site_id: mail.siteId,
      email: mail.email,
      kind: mail.kind,
      subject: mail.subject,
      body: mail.body,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      expires_at: mail.expiresAt ?? null,
      list_unsubscribe: mail.listUnsubscribe ?? null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** The ids of the e-mail sent to an address on the site, oldest first (those not sent yet, or given up, left out). */
export async function sentMailIdsOf(db: PlatformDb, siteId: number, email: string): Promise<number[]> {
  const rows = await db
    .selectFrom('shopper_mail')
    .select('id')
    .where('site_id', '=', siteId)
    .where('email', '=', email)
    .where('status', '=', 'sent')
    .orderBy('id')
    .execute();
  return rows.map((row) => Number(row.id));
}

/** How many e-mails of a kind the site has made for the address since `since` (sent or not): the garage alerts' daily cap counts them. */
export async function mailCountSince(
  db: Transaction<PlatformDatabase> | PlatformDb,
  siteId: number,
  email: string,
  kind: ShopperMailTable['kind'],
  since: number,
): Promise<number> {
  const row = await db
    .selectFrom('shopper_mail')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('site_id', '=', siteId)
    .where('email', '=', email)
    .where('kind', '=', kind)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Forgets the e-mail that was sent, given up or left to expire before `before` (all sites); mail
 * still to send stays. Returns the ids forgotten, whose local files go with them: every file in
 * DATA_DIR/outbox/mail is then one a row still names, which is how deleting an account finds them.
 */
export async function deleteFinishedMailBefore(db: PlatformDb, before: number): Promise<number[]> {
  const rows = await db
    .deleteFrom('shopper_mail')
    .where('status', 'in', ['sent', 'dead', 'expired'])
    .where('updated_at', '<', before)
    .returning('id')
    .execute();
  return rows.map((row) => Number(row.id));
}

/** A mail as the outbox sends it. */
export type ClaimedMail = {
  id: number;
  site_id: number;
  email: string;
  subject: string;
  body: string;
  attempts: number;
  expires_at: number | null;
  list_unsubscribe: string | null;
};

/** Claims due mail for one worker (claimDueRows). */
export async function claimDueMail(db: PlatformDb, claim: Claim): Promise<ClaimedMail[]> {
  const rows = await claimDueRows(db, {
    table: 'shopper_mail',
    columns: ['id', 'site_id', 'email', 'subject', 'body', 'attempts', 'expires_at', 'list_unsubscribe'],
    ...claim,
  });
  return rows.map((row) => ({
    ...row,
    id: Number(row.id),
    attempts: Number(row.attempts),
    expires_at: row.expires_at === null ? null : Number(row.expires_at),
  }));
}

/**
 * Records attempts at sending mail, each only while this worker still holds its claim. A mail no
 * longer to be sent loses its body (a live code, a link that signs in). Returns the ids of mail
 * sent whose row was deleted meanwhile (its account was): the deletion found no file to remove,
 * so the caller removes it now.
 */
export async function recordMailAttempts(
  db: PlatformDb,
  token: string,
  attempts: readonly Attempt<ClaimedMail>[],
  now: number,
): Promise<number[]> {
  if (attempts.length === 0) return [];
  return db.transaction().execute(async (trx) => {
    const orphaned: number[] = [];
    for (const attempt of attempts) {
      const { row, state } = attempt;
      const updated = await trx
        .updateTable('shopper_mail')
        .set({ ...settledColumns(attempt, now), ...(state === 'failed' ? {} : { body: '' }) })
        .where('id', '=', row.id)
        .where('claim_token', '=', token)
        .executeTakeFirst();
      if (
        state === 'sent' &&
        Number(updated.numUpdatedRows) === 0 &&
        !(await trx.selectFrom('shopper_mail').select('id').where('id', '=', row.id).executeTakeFirst())
      ) {
        orphaned.push(row.id);
      }
    }
    return orphaned;
  });
}
