/**
 * The dealer console's mail outbox: sign-in codes for console users, stored in `console_mail` in
 * the transaction that makes the code, then sent by the one outbox worker (@dealer/db/outbox-worker)
 * through the platform's SMTP server or, without one, written to DATA_DIR/outbox/console-mail/.
 * A mail's body (a live code) is erased once it is sent or given up; unsent past its code's expiry,
 * it is dropped.
 */
import type { PlatformDb } from '@dealer/db/database';
import { claimDueConsoleMail, recordConsoleMailAttempts, type ClaimedConsoleMail } from '@dealer/db/console-account-store';
import { Outbox } from '@dealer/db/outbox-worker';
import type { Log } from '@dealer/db/worker-log';
import { deliverShopperMail, type MailTransportSettings } from '../accounts/mail-delivery';

export class ConsoleMailOutbox extends Outbox<ClaimedConsoleMail> {
  constructor(opts: {
    db: PlatformDb;
    transport: MailTransportSettings;
    backoffMs: readonly number[];
    maxAttempts: number;
    leaseMs: number;
    log?: Log;
    now?: () => number;
  }) {
    const { db } = opts;
    const transport: MailTransportSettings = { ...opts.transport, sender: 'console' };
    super(
      {
        name: 'console mail',
        rowName: 'console mail',
        table: 'console_mail',
        lanes: 1,
        claim: (claim) => claimDueConsoleMail(db, claim),
        async send(mail, _batch, { now }) {
          if (mail.expires_at !== null && mail.expires_at <= now)
            return { outcome: 'expired', detail: 'its sign-in code expired before it could be sent' };
          return deliverShopperMail(
            { id: mail.id, to: mail.email, subject: mail.subject, text: mail.body, site: { slug: 'console', name: 'Dealer console' } },
            transport,
          );
        },
        record: (token, attempts, now) => recordConsoleMailAttempts(db, token, attempts, now),
        about: (mail) => ({ mailId: mail.id }),
      },
      {
        db,
        backoffMs: opts.backoffMs,
        maxAttempts: opts.maxAttempts,
        leaseMs: opts.leaseMs,
        pollMs: 2_000,
        batchSize: 20,
        log: opts.log,
        now: opts.now,
      },
    );
  }
}
