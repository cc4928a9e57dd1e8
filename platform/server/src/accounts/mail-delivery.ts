/**
 * Sends one shopper e-mail (a sign-in code, a garage alert): through the platform's SMTP server
 * (SMTP_URL, as lead e-mails go) or, without one, as an RFC 822 file in DATA_DIR/outbox/mail/
 * for a person to open locally. Never throws and never retries: the mail outbox decides that.
 *
 * Outcomes: `sent`; `rejected` when a retry cannot help (an SMTP 5xx: unknown mailbox, relay
 * denied, bad credentials); `retry` for everything else (SMTP 4xx, no answer, a full disk).
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { SendResult } from '@dealer/db/outbox-attempt';
import { writeFileAtomic } from '@dealer/leads/atomic-file';
import { outboxDir } from '@dealer/leads/delivery-config';
import { oneLine, smtpFailure } from '@dealer/leads/delivery-detail';

export type ShopperMailMessage = {
  id: number;
  to: string;
  subject: string;
  text: string;
  site: { slug: string; name: string };
  /**
   * A garage alert's one-click unsubscribe address: sent as `List-Unsubscribe` with
   * `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058), so a mail program can offer
   * "Unsubscribe" itself. Sign-in codes have none.
   */
  listUnsubscribe?: string;
};

export type MailTransportSettings = {
  dataDir: string;
  /** Null: the message is written to a file instead. */
  smtpUrl: string | null;
  /** The sender's address; the site's name is shown with it. */
  from: string;
  timeoutMs?: number;
  /** Whose mail this is: the shoppers' (DATA_DIR/outbox/mail) or the dealer console's (DATA_DIR/outbox/console-mail), whose ids are their own. */
  sender?: 'shopper' | 'console';
};

/** A send's result (a transport never finds a mail too old: the outbox does). */
export type MailDeliveryResult = SendResult & { outcome: 'sent' | 'rejected' | 'retry' };

/** Where local e-mail goes: one `<mail id>.eml` file each, beside the lead outbox's site folders. */
export const mailOutboxDir = (dataDir: string) => path.join(outboxDir(dataDir), 'mail');

export const mailFilePath = (dataDir: string, mailId: number) => path.join(mailOutboxDir(dataDir), `${mailId}.eml`);

/** Where the dealer console's local e-mail goes (sign-in codes of console users). */
export const consoleMailOutboxDir = (dataDir: string) => path.join(outboxDir(dataDir), 'console-mail');

const localMailFile = (settings: MailTransportSettings, mailId: number) =>
  settings.sender === 'console'
    ? path.join(consoleMailOutboxDir(settings.dataDir), `${mailId}.eml`)
    : mailFilePath(settings.dataDir, mailId);

/** Deletes the local files of these e-mails (those never written to a file, sent by SMTP or not yet sent, have none). */
export async function removeMailFiles(dataDir: string, mailIds: readonly number[]) {
  await Promise.all(mailIds.map((id) => rm(mailFilePath(dataDir, id), { force: true })));
}

function envelope(message: ShopperMailMessage, settings: MailTransportSettings) {
  const domain = settings.from.split('@')[1] ?? 'localhost';
  return {
    from: { name: message.site.name, address: settings.from },
    to: message.to,
    subject: message.subject,
    text: message.text,
    // One id per stored mail: a retried send is recognisably the same message.
    messageId: `<${settings.sender ?? 'shopper'}-mail-${message.id}@${domain}>`,
    headers: {
      'X-Dealer-Site': message.site.slug,
      'Auto-Submitted': 'auto-generated',
      ...(message.listUnsubscribe ? { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : {}),
    },
    // nodemailer writes it as `List-Unsubscribe: <url>`.
    ...(message.listUnsubscribe ? { list: { unsubscribe: message.listUnsubscribe } } : {}),
  };
}

export async function deliverShopperMail(message: ShopperMailMessage, settings: MailTransportSettings): Promise<MailDeliveryResult> {
  return settings.smtpUrl ? sendBySmtp(message, settings, settings.smtpUrl) : writeMailFile(message, settings);
}

async function writeMailFile(message: ShopperMailMessage, settings: MailTransportSettings): Promise<MailDeliveryResult> {
  const file = localMailFile(settings, message.id);
  try {
    const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    const info = await composer.sendMail(envelope(message, settings));
    await mkdir(path.dirname(file), { recursive: true });
    await writeFileAtomic(file, info.message as Buffer);
    return { outcome: 'sent', detail: file };
  } catch (error) {
    return { outcome: 'retry', detail: oneLine(`cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`) };
  }
}

async function sendBySmtp(message: ShopperMailMessage, settings: MailTransportSettings, smtpUrl: string): Promise<MailDeliveryResult> {
  const timeout = settings.timeoutMs ?? 10_000;
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  try {
    const info = await transport.sendMail(envelope(message, settings));
    return { outcome: 'sent', detail: String(info.messageId) };
  } catch (error) {
    const { permanent, detail } = smtpFailure(error);
    return { outcome: permanent ? 'rejected' : 'retry', detail };
  } finally {
    transport.close();
  }
}
