/**
 * Migration 0020: shoppers who asked for no more offers or alert e-mails from a site (issue 24,
 * `/unsubscribe`), one row per site and address, kept whether or not the address has an account:
 * an opt-out made before signing up, or outliving a deleted account, still holds. And the
 * one-click unsubscribe address of each garage alert e-mail (its List-Unsubscribe header), made
 * when the alert is stored and read when the e-mail is sent.
 */
import type { Kysely, Migration } from 'kysely';

export function mailOptOutMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('mail_opt_outs')
        .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('mail_opt_outs_pk', ['site_id', 'email'])
        .execute();
      await db.schema.alterTable('shopper_mail').addColumn('list_unsubscribe', 'text').execute();
    },
  };
}
