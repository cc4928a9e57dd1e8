/**
 * Delivers one lead to one per-site target. The outbox worker calls `deliverLead` for each
 * attempt and decides on retries from the outcome; this module never throws and never retries.
 *
 * Outcome statuses:
 * - `delivered` (ok): the target took the lead (2xx, file written, SMTP server accepted the mail).
 * - `rejected` (not ok, permanent): a 4xx other than 408/429, a redirect, an SMTP 5xx reply, a
 *   target that is misconfigured (bad URL, empty webhook secret) or a lead that cannot be rendered.
 *   Retrying the same request will not help; a dead letter for the dealer to see.
 * - `retry` (not ok, transient): 5xx, 408, 429, timeout, network or file-system errors, SMTP 4xx.
 * `detail` says why in one short line (HTTP: status code and the start of the response body).
 *
 * A lead's files (a shopper's uploads) go with it: attached to the e-mail (up to a total size),
 * copied beside the ADF file, listed with signed download links in the webhook body and in the
 * ADF comments. A file missing from disk never holds up its lead: it is left out and said so.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { copyFile, link, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { z } from 'zod';
import { leadToAdf } from './adf';
import { writeFileAtomic } from './atomic-file';
import type { DeliverableLead } from './deliverable-lead';
import { errorText, oneLine, smtpFailure, smtpReplyCode } from './delivery-detail';
import { deliveredFileNames } from './lead-file-links';
import { bodyStart } from './response-body';
import { formatBytes } from './uploads';

export type DeliveryTarget =
  | { kind: 'adf-file'; dir: string }
  | { kind: 'webhook'; url: string; secret: string }
  | { kind: 'adf-http'; url: string }
  | { kind: 'adf-email'; to: string; from: string; smtpUrl: string };

export type DeliveryResult = { ok: boolean; status: string; detail: string };
export type DeliveryOptions = {
  /** Per attempt; default 10 s. */
  timeoutMs?: number;
  /** Files are attached to an ADF e-mail while their total stays within this; default 15 MB. */
  emailAttachmentMaxBytes?: number;
};

export const deliveryStatus = { delivered: 'delivered', rejected: 'rejected', retry: 'retry' } as const;
export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;
/** base64 makes attachments a third larger: 15 MB of files is a 20 MB message, under the 25 MB most mail servers take. */
export const DEFAULT_EMAIL_ATTACHMENT_MAX_BYTES = 15 * 1024 * 1024;
export const WEBHOOK_EVENT = 'lead.created';

/** Per-site targets are configured as data; this checks one (the worker's config loader may use it). */
export const deliveryTargetSchema: z.ZodType<DeliveryTarget> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('adf-file'), dir: z.string().min(1) }),
  z.object({ kind: z.literal('webhook'), url: z.url({ protocol: /^https?$/ }), secret: z.string().min(16) }),
  z.object({ kind: z.literal('adf-http'), url: z.url({ protocol: /^https?$/ }) }),
  z.object({ kind: z.literal('adf-email'), to: z.string().min(3), from: z.string().min(3), smtpUrl: z.string().regex(/^smtps?:\/\//i) }),
]);

/** The local default: ADF files under `DATA_DIR/outbox/<site slug>/` for a person to look at. */
export function defaultDeliveryTarget(dataDir: string): DeliveryTarget {
  return { kind: 'adf-file', dir: path.join(dataDir, 'outbox') };
}

/** A target for logs and the delivery log: no webhook secret, no SMTP password. */
export function describeDeliveryTarget(target: DeliveryTarget): string {
  switch (target.kind) {
    case 'adf-file':
      return `adf-file ${target.dir}`;
    case 'webhook':
      return `webhook ${redactUrl(target.url)}`;
    case 'adf-http':
      return `adf-http ${redactUrl(target.url)}`;
    case 'adf-email':
      return `adf-email to ${target.to} via ${redactUrl(target.smtpUrl)}`;
  }
}

function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    const auth = url.username ? `${url.username}${url.password ? ':***' : ''}@` : '';
    return `${url.protocol}//${auth}${url.host}${url.pathname}${url.search ? '?…' : ''}`;
  } catch {
    return '(invalid url)';
  }
}

const delivered = (detail: string): DeliveryResult => ({ ok: true, status: deliveryStatus.delivered, detail });
const rejected = (detail: string): DeliveryResult => ({ ok: false, status: deliveryStatus.rejected, detail });
const retry = (detail: string): DeliveryResult => ({ ok: false, status: deliveryStatus.retry, detail });

export function leadCreatedAtIso(lead: Pick<DeliverableLead, 'createdAt'>): string {
  return new Date(lead.createdAt).toISOString();
}

/** The lead without its car or site config, its files as links: the webhook's `lead` and the `.json` beside an ADF file. */
function leadJson(lead: DeliverableLead) {
  return {
    id: lead.id,
    site: lead.site.slug,
    created_at: leadCreatedAtIso(lead),
    payload: lead.payload,
    files: lead.files.map((file) => ({ name: file.name, content_type: file.contentType, size: file.size, url: file.url })),
  };
}

/** The webhook body. */
export function webhookBody(lead: DeliverableLead): string {
  return JSON.stringify({ event: WEBHOOK_EVENT, lead: leadJson(lead) });
}

/** `sha256=<hex HMAC-SHA256 of the raw body>`, the X-Dealer-Signature header. */
export function signWebhookBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/**
 * For a dealer's receiver: true when the X-Dealer-Signature header signs this exact raw body with
 * the secret. Constant-time compare. A header may list several comma-separated signatures (during a
 * secret rotation); any match counts. Verify the raw bytes received, before parsing the JSON.
 */
export function verifyWebhookSignature(body: string, header: string, secret: string): boolean {
  if (!secret || typeof header !== 'string') return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(body, 'utf8').digest('hex'), 'utf8');
  let match = false;
  for (const part of header.split(',')) {
    const hex = /^\s*sha256=([0-9a-fA-F]{64})\s*$/.exec(part)?.[1];
    if (!hex) continue;
    // Every candidate is compared (no early exit), so timing does not tell which one matched.
    if (timingSafeEqual(Buffer.from(hex.toLowerCase(), 'utf8'), expected)) match = true;
  }
  return match;
}

/** Deliver one lead to one target. Never throws; see the module comment for the statuses. */
export async function deliverLead(target: DeliveryTarget, lead: DeliverableLead, opts?: DeliveryOptions): Promise<DeliveryResult> {
  const timeoutMs = opts?.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
  try {
    switch (target.kind) {
      case 'adf-file':
        return await deliverToFile(target, lead);
      case 'webhook':
        return await deliverToWebhook(target, lead, timeoutMs);
      case 'adf-http':
        return await deliverAdfOverHttp(target, lead, timeoutMs);
      case 'adf-email':
        return await deliverAdfByEmail(target, lead, timeoutMs, opts?.emailAttachmentMaxBytes ?? DEFAULT_EMAIL_ATTACHMENT_MAX_BYTES);
      default:
        return rejected(`unknown delivery target kind: ${String((target as { kind?: unknown }).kind)}`);
    }
  } catch (error) {
    // Rendering errors (a lead that cannot become a document) are permanent; anything else may pass.
    if (error instanceof RenderError) return rejected(`cannot render lead ${lead.id}: ${errorText(error.cause)}`);
    return retry(`unexpected error: ${errorText(error)}`);
  }
}

class RenderError extends Error {}

function render<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    throw new RenderError('render failed', { cause: error });
  }
}

// ---------------------------------------------------------------------------------------- files

/** `<lead id>-<created at, UTC, file-name safe>`: one name per lead, so a repeated delivery replaces its own files. */
export function adfFileBase(lead: Pick<DeliverableLead, 'id' | 'createdAt'>): string {
  return `${lead.id}-${leadCreatedAtIso(lead).replace(/[:.]/g, '-')}`;
}

async function deliverToFile(target: Extract<DeliveryTarget, { kind: 'adf-file' }>, lead: DeliverableLead): Promise<DeliveryResult> {
  const slug = lead.site.slug;
  if (!/^[a-z0-9-]+$/.test(slug)) return rejected(`site slug "${oneLine(slug, 60)}" is not safe as a folder name`);
  if (!Number.isSafeInteger(lead.id) || lead.id < 0) return rejected(`lead id ${String(lead.id)} is not a whole number`);
  const base = render(() => adfFileBase(lead));
  const xml = render(() => leadToAdf(lead, { filesNote: `The files are in the folder ${base}-files beside this document.` }));
  const json = render(() => `${JSON.stringify(leadJson(lead), null, 2)}\n`);
  const dir = path.join(target.dir, slug);
  const xmlPath = path.join(dir, `${base}.adf.xml`);
  let missing: string[] = [];
  try {
    await mkdir(dir, { recursive: true });
    // Files and payload first, so whoever sees the ADF file can rely on the rest being there.
    if (lead.files.length > 0) missing = await linkLeadFiles(lead, path.join(dir, `${base}-files`));
    // Both documents at once: their flushes go to the disk together rather than one after the other.
    await Promise.all([writeFileAtomic(path.join(dir, `${base}.json`), json), writeFileAtomic(xmlPath, xml)]);
    await syncDir(dir);
  } catch (error) {
    return retry(`cannot write ${xmlPath}: ${errorText(error)}`);
  }
  return delivered(missing.length > 0 ? oneLine(`${xmlPath} (not on the server, not placed: ${missing.join(', ')})`) : xmlPath);
}

/**
 * Places the lead's files into `filesDir` under their delivered names as hard links to the stored
 * uploads (a temp name, then rename), replacing those of an earlier delivery: the bytes are on the
 * disk once, however many leads' documents show them. Returns the names of files no longer on disk.
 * An outbox on another file system than DATA_DIR/uploads (no links across them) gets copies.
 */
async function linkLeadFiles(lead: DeliverableLead, filesDir: string): Promise<string[]> {
  await mkdir(filesDir, { recursive: true });
  const names = deliveredFileNames(lead.files);
  const missing: string[] = [];
  for (const [index, file] of lead.files.entries()) {
    const name = names[index]!;
    const temp = path.join(filesDir, `.tmp-${randomUUID()}`);
    try {
      await link(file.absolutePath, temp).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EXDEV') throw error;
        await copyFile(file.absolutePath, temp);
      });
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      // A file gone from disk will not come back with a retry; anything else (a full disk) may pass.
      if (!(await exists(file.absolutePath))) {
        missing.push(name);
        continue;
      }
      throw error;
    }
    try {
      await rename(temp, path.join(filesDir, name));
    } finally {
      // A rename onto a link to the same file (a repeated delivery) does nothing and leaves the temp name.
      await unlink(temp).catch(() => undefined);
    }
  }
  await syncDir(filesDir);
  return missing;
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

/** Folder syncs asked for but not started yet, by folder: later askers join them. */
const pendingDirSyncs = new Map<string, Promise<void>>();

/**
 * Makes the renames durable; some file systems cannot fsync a folder, which is not an error here.
 * Deliveries side by side into one folder share one sync: a caller joins a sync that has not
 * started yet (so it still covers the caller's rename), otherwise it asks for a new one.
 */
function syncDir(dir: string): Promise<void> {
  const pending = pendingDirSyncs.get(dir);
  if (pending) return pending;
  const sync = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
    pendingDirSyncs.delete(dir);
    const handle = await open(dir, 'r').catch(() => null);
    if (!handle) return;
    await handle.sync().catch(() => undefined);
    await handle.close().catch(() => undefined);
  });
  pendingDirSyncs.set(dir, sync);
  return sync;
}

// ----------------------------------------------------------------------------------------- HTTP

async function deliverToWebhook(
  target: Extract<DeliveryTarget, { kind: 'webhook' }>,
  lead: DeliverableLead,
  timeoutMs: number,
): Promise<DeliveryResult> {
  if (!target.secret) return rejected('webhook target has no secret');
  const body = render(() => webhookBody(lead));
  return postOnce(target.url, body, timeoutMs, {
    'Content-Type': 'application/json',
    'X-Dealer-Event': WEBHOOK_EVENT,
    'X-Dealer-Signature': signWebhookBody(body, target.secret),
    'X-Dealer-Timestamp': String(Math.floor(Date.now() / 1000)),
    'X-Dealer-Delivery': randomUUID(),
    'Idempotency-Key': `lead-${lead.id}`,
  });
}

async function deliverAdfOverHttp(
  target: Extract<DeliveryTarget, { kind: 'adf-http' }>,
  lead: DeliverableLead,
  timeoutMs: number,
): Promise<DeliveryResult> {
  const xml = render(() => leadToAdf(lead));
  return postOnce(target.url, xml, timeoutMs, {
    'Content-Type': 'application/xml',
    'X-Dealer-Delivery': randomUUID(),
    'Idempotency-Key': `lead-${lead.id}`,
  });
}

const excerptBytes = 2048;

async function postOnce(rawUrl: string, body: string, timeoutMs: number, headers: Record<string, string>): Promise<DeliveryResult> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return rejected('target url is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return rejected(`target url must be http or https, not ${url.protocol}`);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'User-Agent': 'DealerPlatform-LeadDelivery/1.0', ...headers },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
      return retry(`timeout after ${timeoutMs} ms`);
    return retry(`network error: ${errorText(error)}`);
  }
  const excerpt = oneLine(await bodyStart(response, excerptBytes));
  const code = response.status;
  const detail = oneLine(`${code} ${excerpt}`);
  if (code >= 200 && code < 300) return delivered(detail);
  if (code === 408 || code === 429 || code >= 500) {
    const retryAfter = response.headers.get('retry-after');
    return retry(retryAfter ? oneLine(`${detail} (retry-after ${retryAfter})`) : detail);
  }
  if (code >= 300 && code < 400)
    return rejected(oneLine(`${code} redirect to ${response.headers.get('location') ?? '(no location)'}; update the target url`));
  return rejected(detail);
}

// ---------------------------------------------------------------------------------------- email

export function adfEmailSubject(lead: DeliverableLead): string {
  const category = typeof lead.payload.category === 'string' ? lead.payload.category.trim() : '';
  return `Lead ${lead.id} from ${lead.site.name}${category ? ` - ${category}` : ''}`;
}

/**
 * The files that go with an e-mail: all that are on disk while their total stays within
 * `maxBytes`, else none (the links in the document serve instead); and the line that says so.
 */
async function emailAttachments(lead: DeliverableLead, maxBytes: number) {
  if (lead.files.length === 0) return { attachments: [], note: undefined };
  const names = deliveredFileNames(lead.files);
  const sizes = await Promise.all(
    lead.files.map((file) =>
      stat(file.absolutePath).then(
        (info) => (info.isFile() ? info.size : null),
        () => null,
      ),
    ),
  );
  const present = lead.files.flatMap((file, index) => {
    const size = sizes[index];
    return size == null ? [] : [{ filename: names[index]!, path: file.absolutePath, contentType: file.contentType, size }];
  });
  const total = present.reduce((sum, file) => sum + file.size, 0);
  if (total > maxBytes) {
    return {
      attachments: [],
      note: `The files (${formatBytes(total)}) are over the ${formatBytes(maxBytes)} limit for e-mail and are not attached: download them from the links above.`,
    };
  }
  const note =
    present.length === lead.files.length
      ? 'The files are attached to this e-mail.'
      : present.length === 0
        ? 'The files are no longer on the server.'
        : `${present.length} of ${lead.files.length} files are attached to this e-mail; the others are no longer on the server.`;
  return { attachments: present.map(({ size: _size, ...attachment }) => attachment), note };
}

async function deliverAdfByEmail(
  target: Extract<DeliveryTarget, { kind: 'adf-email' }>,
  lead: DeliverableLead,
  timeoutMs: number,
  attachmentMaxBytes: number,
): Promise<DeliveryResult> {
  if (!/^smtps?:\/\//i.test(target.smtpUrl)) return rejected('smtpUrl must start with smtp:// or smtps://');
  const files = await emailAttachments(lead, attachmentMaxBytes);
  const transport = nodemailer.createTransport({
    url: target.smtpUrl,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  const send = (attachments: typeof files.attachments, filesNote: string | undefined) => {
    const xml = render(() => leadToAdf(lead, { filesNote }));
    return transport.sendMail({
      from: target.from,
      to: target.to,
      subject: adfEmailSubject(lead),
      // CRMs read the ADF from the plain-text body; the attachment is for people and for CRMs that prefer it.
      text: xml,
      attachments: [{ filename: `lead-${lead.id}.adf.xml`, content: xml, contentType: 'application/xml' }, ...attachments],
      headers: { 'X-Dealer-Lead-Id': String(lead.id), 'X-Dealer-Site': lead.site.slug },
    });
  };
  try {
    try {
      return delivered((await send(files.attachments, files.note)).messageId);
    } catch (error) {
      // A mail server refusing the size (552, 5.3.4) still gets the lead: again at once, with links instead of files.
      if (!(files.attachments.length > 0 && smtpReplyCode(error) === 552)) throw error;
      const info = await send(
        [],
        'The files were too large for the dealership’s mail server and are not attached: download them from the links above.',
      );
      return delivered(`${info.messageId} (files as links: the mail server refused the attachments as too large)`);
    }
  } catch (error) {
    const { permanent, detail } = smtpFailure(error);
    return permanent ? rejected(detail) : retry(detail);
  } finally {
    transport.close();
  }
}
