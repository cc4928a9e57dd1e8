/**
 * The shoppers' mail outbox: sign-in codes and garage alerts are stored in `shopper_mail` in the
 * transaction that makes them (@dealer/db/mail-outbox-store), then sent by this worker with
 * retries: the one outbox worker (@dealer/db/outbox-worker), sending one mail at a time. These are
 * one message to one shopper, not a lead's delivery to a dealer's targets, so they have their own
 * table and no log.
 *
 * A sign-in e-mail carries a live code, so a mail's body is erased once it is sent or given up,
 * and a sign-in e-mail still unsent when its code expires is dropped unsent.
 */
import type { SiteConfig } from '@dealer/contracts/site';
import type { PlatformDb } from '@dealer/db/database';
import { claimDueMail, recordMailAttempts, type ClaimedMail } from '@dealer/db/mail-outbox-store';
import { Outbox } from '@dealer/db/outbox-worker';
import type { Log } from '@dealer/db/worker-log';
import {
  deliverShopperMail,
  removeMailFiles,
  type MailDeliveryResult,
  type MailTransportSettings,
  type ShopperMailMessage,
} from './mail-delivery';

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
  log?: Log;
  now?: () => number;
};

export class MailOutbox extends Outbox<ClaimedMail> {
  private readonly dataDir: string;

  constructor(opts: MailOutboxOptions) {
    const { db, transport } = opts;
    const deliver = opts.deliver ?? deliverShopperMail;
    super(
      {
        name: 'shopper mail',
        rowName: 'shopper mail',
        table: 'shopper_mail',
        // One at a time: a slow mail server is not asked for a batch at once.
        lanes: 1,
        claim: (claim) => claimDueMail(db, claim),
        async send(mail, _batch, { now }) {
          if (mail.expires_at !== null && mail.expires_at <= now)
            return { outcome: 'expired', detail: 'its sign-in code expired before it could be sent' };
          const site = await opts.siteOf(mail.site_id);
          if (!site) return { outcome: 'rejected', detail: `site ${mail.site_id} no longer exists` };
          return deliver(
            {
              id: mail.id,
              to: mail.email,
              subject: mail.subject,
              text: mail.body,
              site: { slug: site.slug, name: site.name },
              ...(mail.list_unsubscribe ? { listUnsubscribe: mail.list_unsubscribe } : {}),
            },
            transport,
          );
        },
        record: async (token, attempts, now) => removeMailFiles(transport.dataDir, await recordMailAttempts(db, token, attempts, now)),
        about: (mail) => ({ mailId: mail.id, siteId: mail.site_id }),
      },
      {
        db,
        backoffMs: opts.backoffMs,
        maxAttempts: opts.maxAttempts,
        leaseMs: opts.leaseMs,
        pollMs: opts.pollMs ?? 2_000,
        batchSize: opts.batchSize ?? 20,
        log: opts.log,
        now: opts.now,
      },
    );
    this.dataDir = transport.dataDir;
  }

  /** Deletes the local files (DATA_DIR/outbox/mail) of these e-mails, once their rows are gone. */
  removeFiles(mailIds: readonly number[]) {
    return removeMailFiles(this.dataDir, mailIds);
  }
}
