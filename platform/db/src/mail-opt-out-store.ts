/** Opt-outs of a site's offers and alert e-mails (migration 0020), by address. */
import type { Transaction } from 'kysely';
import type { PlatformDb } from './database';
import type { MailOptOutSource, PlatformDatabase } from './schema';

type Db = PlatformDb | Transaction<PlatformDatabase>;

/** An address as opt-outs are kept: trimmed and lower case, as sign-in keeps it. */
export const optOutAddress = (email: string) => email.trim().toLowerCase();

/** Records that the address wants no more offers or alert e-mails from the site; a second opt-out keeps the first. */
export async function optOut(db: Db, siteId: number, email: string, source: MailOptOutSource, now: number): Promise<void> {
  await db
    .insertInto('mail_opt_outs')
    .values({ site_id: siteId, email: optOutAddress(email), source, created_at: now })
    .onConflict((conflict) => conflict.columns(['site_id', 'email']).doNothing())
    .execute();
}

export async function isOptedOut(db: Db, siteId: number, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('mail_opt_outs')
    .select('site_id')
    .where('site_id', '=', siteId)
    .where('email', '=', optOutAddress(email))
    .executeTakeFirst();
  return row !== undefined;
}

/** The address wants the site's alert e-mails again (only the signed-in shopper of that address may ask). */
export async function optIn(db: Db, siteId: number, email: string): Promise<void> {
  await db.deleteFrom('mail_opt_outs').where('site_id', '=', siteId).where('email', '=', optOutAddress(email)).execute();
}
