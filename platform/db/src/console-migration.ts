/**
 * Migration 0016: the dealer console (issue 23). Its users are the dealers' people, not shoppers:
 * a table of their own, signed in by e-mailed code like the garage but with codes, sessions and
 * mail of their own. A user holds roles (operator; group admin of a dealer group; site admin or
 * staff of a site). Every change made through the console is written to the audit log. Leads gain
 * the dealer's workflow (new → contacted → appointment → sold / lost), an assignee and notes.
 */
import type { Kysely, Migration } from 'kysely';
import type { DatabaseEngine } from './database-engine';

export function consoleMigration(engine: DatabaseEngine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const autoId = (table: string) =>
        db.schema
          .createTable(table)
          .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', (c) =>
            engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          );
      await autoId('console_users')
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('signed_in_at', 'bigint')
        .execute();
      // A role on one site (site admin, staff), on a dealer group (group admin) or on every site (operator).
      await autoId('console_roles')
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('console_users.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('site_id', 'integer', (c) => c.references('sites.id').onDelete('cascade'))
        .addColumn('dealer_group', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('console_roles_user').on('console_roles').columns(['user_id']).execute();
      await db.schema.createIndex('console_roles_site').on('console_roles').columns(['site_id']).execute();
      await autoId('console_sign_in_codes')
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('salt', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('console_sign_in_codes_address').on('console_sign_in_codes').columns(['email', 'created_at']).execute();
      await db.schema
        .createTable('console_sessions')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('console_users.id').onDelete('cascade'))
        .addColumn('user_agent', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('console_sessions_user').on('console_sessions').columns(['user_id', 'created_at']).execute();
      await autoId('console_mail')
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint')
        .addColumn('claim_token', 'text')
        .addColumn('claimed_until', 'bigint')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('sent_at', 'bigint')
        .execute();
      await db.schema.createIndex('console_mail_due').on('console_mail').columns(['status', 'next_attempt_at']).execute();
      // Who changed what, before and after (JSON), on which site (none: a platform-wide change such as a user's roles).
      await autoId('console_audit')
        .addColumn('site_id', 'integer', (c) => c.references('sites.id').onDelete('cascade'))
        .addColumn('user_id', 'bigint')
        .addColumn('user_email', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('before', 'text')
        .addColumn('after', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('console_audit_site').on('console_audit').columns(['site_id', 'created_at']).execute();
      await db.schema
        .alterTable('leads')
        .addColumn('dealer_status', 'text', (c) => c.notNull().defaultTo('new'))
        .execute();
      await db.schema.alterTable('leads').addColumn('assignee_id', 'bigint').execute();
      await db.schema.createIndex('leads_site_dealer_status').on('leads').columns(['site_id', 'dealer_status', 'created_at']).execute();
      await autoId('lead_notes')
        .addColumn('lead_id', 'bigint', (c) => c.notNull().references('leads.id').onDelete('cascade'))
        .addColumn('user_id', 'bigint')
        .addColumn('author', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('lead_notes_lead').on('lead_notes').columns(['lead_id', 'created_at']).execute();
    },
  };
}
