/**
 * How a lead's files reach the dealer outside the admin: signed, expiring download links (so a
 * CRM or a salesperson reading an e-mail can open a photo without the admin key) and the names the
 * files go by as attachments and copies.
 *
 * A link is `<site origin>/api/lead-files/<file id>?expires=<unix seconds>&sig=<signature>`, the
 * signature being the base64url HMAC-SHA256 of `lead-file:<file id>:<expires>` under the leads
 * token secret. The prefix keeps these signatures apart from the update tokens signed with the
 * same secret. Changing the secret ends every link handed out before.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { cleanFileName } from './uploads';

export const LEAD_FILE_LINK_TTL_SECONDS = 30 * 24 * 60 * 60;

export const leadFilePath = (fileId: number) => `/api/lead-files/${fileId}`;

export function leadFileSignature(secret: string, fileId: number, expires: number): string {
  return createHmac('sha256', secret).update(`lead-file:${fileId}:${expires}`, 'utf8').digest('base64url');
}

/** The origin of a site's public URL, without a trailing slash ('https://dealer.example'). */
function originOf(siteUrl: string): string {
  try {
    return new URL(siteUrl).origin;
  } catch {
    return siteUrl.replace(/\/+$/, '');
  }
}

/** A download link for one file, valid until `expires` (unix seconds). */
export function signedLeadFileUrl(link: { siteUrl: string; fileId: number; expires: number; secret: string }): string {
  const signature = leadFileSignature(link.secret, link.fileId, link.expires);
  return `${originOf(link.siteUrl)}${leadFilePath(link.fileId)}?expires=${link.expires}&sig=${signature}`;
}

export type LeadFileLinkCheck = { ok: true } | { ok: false; reason: 'invalid' | 'expired' };

const expiresPattern = /^\d{1,12}$/;
// An HMAC-SHA256 in base64url without padding is always 43 characters.
const signaturePattern = /^[A-Za-z0-9_-]{43}$/;

/**
 * Whether a link's query (`expires`, `sig`, as received: strings, arrays or missing) opens
 * `fileId` at `nowSeconds`. The signature is checked first and compared in constant time, so a
 * link is only called expired when it was once valid.
 */
export function verifyLeadFileLink(
  link: { fileId: number; expires: unknown; sig: unknown },
  secret: string,
  nowSeconds: number,
): LeadFileLinkCheck {
  if (!secret || typeof link.expires !== 'string' || typeof link.sig !== 'string') return { ok: false, reason: 'invalid' };
  if (!expiresPattern.test(link.expires) || !signaturePattern.test(link.sig)) return { ok: false, reason: 'invalid' };
  const expires = Number(link.expires);
  const expected = Buffer.from(leadFileSignature(secret, link.fileId, expires), 'utf8');
  if (!timingSafeEqual(Buffer.from(link.sig, 'utf8'), expected)) return { ok: false, reason: 'invalid' };
  return expires > nowSeconds ? { ok: true } : { ok: false, reason: 'expired' };
}

// Spellings of one type; a name ending in any of them keeps it.
const sameExtensions: Record<string, readonly string[]> = {
  '.jpg': ['.jpg', '.jpeg', '.jpe'],
  '.heic': ['.heic', '.heif'],
};

/**
 * The name a file goes by as an attachment or a copy: the shopper's name, safe on any file system
 * and mail client, ending in the extension of what the file really is (from its stored name, which
 * the upload gave the sniffed type), so `invoice.exe` that is a JPEG arrives as `invoice.exe.jpg`.
 */
export function leadFileName(originalName: string, storedPath: string): string {
  const extension = path.extname(storedPath).toLowerCase();
  // Names stored before uploads were cleaned may still carry direction overrides and other invisible controls.
  const safe = [...cleanFileName(originalName)]
    .map((ch) => (ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f || '<>:"/\\|?*'.includes(ch) ? '_' : ch))
    .join('')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  const name = safe || 'file';
  if (!extension) return withinBytes(name);
  const kept = (sameExtensions[extension] ?? [extension]).some((ext) => name.toLowerCase().endsWith(ext));
  return withinBytes(kept ? name : `${name}${extension}`);
}

/**
 * File systems allow 255 bytes per name; 70 Chinese characters are already 210. Names are cut to
 * 150 bytes (whole characters, extension kept), leaving room for ' (2)' and temporary suffixes.
 */
function withinBytes(name: string, max = 150): string {
  if (Buffer.byteLength(name) <= max) return name;
  const extension = path.extname(name);
  const chars = [...name.slice(0, name.length - extension.length)];
  while (chars.length && Buffer.byteLength(chars.join('') + extension) > max) chars.pop();
  return `${chars.join('').trimEnd() || 'file'}${extension}`;
}

/** The names a lead's files go by as attachments and copies, in order, each from `leadFileName`, told apart when alike. */
export function deliveredFileNames(files: readonly { name: string; absolutePath: string }[]): string[] {
  return uniqueFileNames(files.map((file) => leadFileName(file.name, file.absolutePath)));
}

/** Two alike names ('photo.jpg' twice, ignoring case) become 'photo.jpg' and 'photo (2).jpg'. */
function uniqueFileNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const extension = path.extname(name);
    const stem = name.slice(0, name.length - extension.length);
    let candidate = name;
    for (let n = 2; taken.has(candidate.toLowerCase()); n += 1) candidate = `${stem} (${n})${extension}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}
