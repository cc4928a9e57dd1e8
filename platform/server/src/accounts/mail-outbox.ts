/**
 * The shoppers' mail outbox: sign-in codes and garage alerts are stored in `shopper_mail` in the
 * transaction that makes them, then sent by this worker with retries. The lead outbox is not
 * reused because its jobs are a lead's delivery to a dealer's targets (keyed to a lead, logged for
 * the dealer); these are one message to one shopper. The worker claims due mail with a token and
 * a lease, as the lead outbox does, so several servers never send one mail twice at once.
 *
 * A sign-in e-mail carries a live code, so a mail's body is erased once it is sent or given up,
 * and a sign-in e-mail still unsent when its code expires is dropped unsent.
 */
import { randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { SiteConfig } from '@dealer/contracts/site';
import type { PlatformDb } from '@dealer/db/database';
import type { PlatformDatabase, ShopperMailTable } from '@dealer/db/schema';
import { deliverShopperMail, removeMailFiles, type MailDeliveryResult, type MailTransportSettings, type ShopperMailMessage } from './mail-delivery';
import { claimDueRows } from '@dealer/db/due-rows';
import { holdingLeases } from '@dealer/db/outbox-lease';
import { PollLoop } from '@dealer/db/poll-loop';
import { afterAttempt } from '@dealer/db/outbox-attempt';

export type NewShopperMail = {
  siteId: number;
  email: string;
  kind: ShopperMailTable['kind'];
  subject: string;
  body: string;
  /** Not sent after this (a sign-in e-mail whose code has expired). */
  expiresAt?: number | null;
};

/** Stores a mail, due now, inside the caller's transaction. Returns its id. */
export async function enqueueShopperMail(trx: Transaction<PlatformDatabase> | PlatformDb, mail: NewShopperMail, now: number): Promise<number> {
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
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** The ids of the e-mail sent to an address on the site, oldest first (those not sent yet, or given up, left out). */
export async function sentMailIdsOf(db: PlatformDb, siteId: number, email: string): Promise<number[]> {
  const rows = await db.selectFrom('shopper_mail').select('id').where('site_id', '=', siteId).where('email', '=', email).where('status', '=', 'sent').orderBy('id').execute();
  return rows.map((row) => Number(row.id));
}

/**
 * Forgets the e-mail that was sent, given up or left to expire before `before` (all sites); mail
 * still to send stays. Returns the ids forgotten, whose local files go with them: every file in
 * DATA_DIR/outbox/mail is then one a row still names, which is how deleting an account finds them.
 */
export async function deleteFinishedMailBefore(db: PlatformDb, before: number): Promise<number[]> {
  const rows = await db.deleteFrom('shopper_mail').where('status', 'in', ['sent', 'dead', 'expired']).where('updated_at', '<', before).returning('id').execute();
  return rows.map((row) => Number(row.id));
}

type ClaimedMail = { id: number; site_id: number; email: string; subject: string; body: string; attempts: number; expires_at: number | null };

async function claimDueMail(db: PlatformDb, token: string, now: number, leaseMs: number, limit: number): Promise<ClaimedMail[]> {
  const rows = await claimDueRows(db, { table: 'shopper_mail', columns: ['id', 'site_id', 'email', 'subject', 'body', 'attempts', 'expires_at'], token, now, leaseMs, limit });
  return rows.map((row) => ({ ...row, id: Number(row.id), attempts: Number(row.attempts), expires_at: row.expires_at === null ? null : Number(row.expires_at) }));
}

export type MailOutboxOptions = {
  db: PlatformDb;
  transport: MailTransportSettings;
  siteOf: (siteId: number) => Promise<SiteConfig | null>;
  backoffMs: readonly number[];
  maxAttempts: number;
  leaseMs: number;
  /** How often the worker looks for due mail besides being nudged. */
  pollMs?: number;
  batchSize?: number;
  deliver?: (message: ShopperMailMessage, transport: MailTransportSettings) => Promise<MailDeliveryResult>;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  now?: () => number;
};

const silent = { info() {}, warn() {}, error() {} };

export class MailOutbox {
  private readonly loop: PollLoop;
  private readonly log: NonNullable<MailOutboxOptions['log']>;
  private readonly now: () => number;

  constructor(private readonly opts: MailOutboxOptions) {
    this.log = opts.log ?? silent;
    this.now = opts.now ?? Date.now;
    this.loop = new PollLoop({
      runOnce: () => this.runOnce(),
      batchSize: opts.batchSize ?? 20,
      pollMs: opts.pollMs ?? 2_000,
      onError: (error) => this.log.error({ err: error }, 'shopper mail: a poll failed; trying again at the next one'),
    });
  }

  start() {
    this.loop.start();
  }

  stop() {
    return this.loop.stop();
  }

  /** Mail was stored: send it now rather than at the next poll (a shopper is waiting for a code). */
  nudge() {
    this.loop.nudge();
  }

  /** Deletes the local files (DATA_DIR/outbox/mail) of these e-mails, once their rows are gone. */
  removeFiles(mailIds: readonly number[]) {
    return removeMailFiles(this.opts.transport.dataDir, mailIds);
  }

  /**
   * Claims and sends one batch of due mail, one after the other, holding the batch's lease while it
   * sends (a slow mail server must not let another server take a mail and send it again); returns
   * how many were claimed.
   */
  async runOnce(): Promise<number> {
    const token = randomBytes(12).toString('base64url');
    const { db, leaseMs } = this.opts;
    const mails = await claimDueMail(db, token, this.now(), leaseMs, this.opts.batchSize ?? 20);
    if (mails.length === 0) return 0;
    const onRenewalError = (error: unknown) => this.log.warn({ err: error }, 'shopper mail: could not renew the lease of a batch; trying again shortly');
    const lease = { db, table: 'shopper_mail', token, leaseMs, now: this.now, onRenewalError } as const;
    await holdingLeases(lease, mails.map((mail) => mail.id), async (held) => {
      for (const mail of mails) {
        if (!held.has(mail.id)) continue;
        await this.attempt(mail, token);
        held.delete(mail.id);
      }
    });
    return mails.length;
  }

  private async attempt(mail: ClaimedMail, token: string) {
    const now = this.now();
    let result: MailDeliveryResult | { outcome: 'expired'; detail: string };
    if (mail.expires_at !== null && mail.expires_at <= now) result = { outcome: 'expired', detail: 'its sign-in code expired before it could be sent' };
    else {
      const site = await this.opts.siteOf(mail.site_id);
      if (!site) result = { outcome: 'rejected', detail: `site ${mail.site_id} no longer exists` };
      else {
        const message = { id: mail.id, to: mail.email, subject: mail.subject, text: mail.body, site: { slug: site.slug, name: site.name } };
        result = await (this.opts.deliver ?? deliverShopperMail)(message, this.opts.transport).catch((error: unknown) => ({
          outcome: 'retry' as const,
          detail: error instanceof Error ? error.message : String(error),
        }));
      }
    }
    const { over, fields } = afterAttempt(result, mail.attempts, this.opts, now);
    const { status } = fields;
    const updated = await this.opts.db
      .updateTable('shopper_mail')
      .set({
        ...fields,
        // What was said (a live code, a link that signs in) is not kept once it is no longer to be sent.
        ...(over ? { body: '' } : {}),
      })
      .where('id', '=', mail.id)
      .where('claim_token', '=', token)
      .executeTakeFirst();
    // The account was deleted while its mail was being written: the deletion found no file to remove, so the file goes now.
    if (result.outcome === 'sent' && Number(updated.numUpdatedRows) === 0 && !(await this.opts.db.selectFrom('shopper_mail').select('id').where('id', '=', mail.id).executeTakeFirst())) {
      await this.removeFiles([mail.id]);
    }
    if (status === 'dead') this.log.warn({ mailId: mail.id, siteId: mail.site_id, detail: result.detail }, 'shopper mail given up after its last attempt');
    else if (status === 'failed') this.log.info({ mailId: mail.id, siteId: mail.site_id, detail: result.detail }, 'shopper mail not sent; will retry');
  }
}
