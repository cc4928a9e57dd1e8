import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';

/** What a shopper may attach: photos of a trade-in and documents (a licence, a payslip). */
export type AcceptedFileType = { mime: string; ext: string; label: string };

const accepted = {
  jpeg: { mime: 'image/jpeg', ext: 'jpg', label: 'JPEG image' },
  png: { mime: 'image/png', ext: 'png', label: 'PNG image' },
  webp: { mime: 'image/webp', ext: 'webp', label: 'WebP image' },
  heic: { mime: 'image/heic', ext: 'heic', label: 'HEIC image' },
  pdf: { mime: 'application/pdf', ext: 'pdf', label: 'PDF document' },
} as const satisfies Record<string, AcceptedFileType>;

export const acceptedFilesText = 'JPEG, PNG, WebP or HEIC photos and PDF documents';

export type Sniffed = { ok: true; type: AcceptedFileType } | { ok: false; kind: 'svg' | 'executable' | 'unknown' | 'empty'; what: string };

const startsWith = (bytes: Buffer, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, index) => bytes[offset + index] === byte);
const ascii = (bytes: Buffer, start: number, end: number) => bytes.subarray(start, end).toString('latin1');

// ISO-BMFF brands of HEIF/HEIC stills (phones' photos); AVIF ('avif') is not one of them.
const heifBrands = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs', 'mif1', 'msf1', 'heif']);

/**
 * What a file is, from its first bytes only: the name and the type the browser claims are never
 * trusted. JPEG, PNG, WebP, HEIC and PDF are accepted; SVG (it can carry script) and programs
 * (ELF, Windows PE, Mach-O, Java classes, scripts with a #! line) are named when refused.
 */
export function sniffFileType(head: Buffer): Sniffed {
  if (head.length === 0) return { ok: false, kind: 'empty', what: 'an empty file' };
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { ok: true, type: accepted.jpeg };
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { ok: true, type: accepted.png };
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return { ok: true, type: accepted.webp };
  if (ascii(head, 4, 8) === 'ftyp' && heifBrands.has(ascii(head, 8, 12))) return { ok: true, type: accepted.heic };
  if (ascii(head, 0, 5) === '%PDF-') return { ok: true, type: accepted.pdf };

  if (startsWith(head, [0x7f, 0x45, 0x4c, 0x46])) return { ok: false, kind: 'executable', what: 'a program (ELF)' };
  if (startsWith(head, [0x4d, 0x5a])) return { ok: false, kind: 'executable', what: 'a Windows program' };
  if (startsWith(head, [0xca, 0xfe, 0xba, 0xbe])) return { ok: false, kind: 'executable', what: 'a program (Mach-O or Java)' };
  for (const magic of [
    [0xfe, 0xed, 0xfa, 0xce],
    [0xfe, 0xed, 0xfa, 0xcf],
    [0xce, 0xfa, 0xed, 0xfe],
    [0xcf, 0xfa, 0xed, 0xfe],
  ]) {
    if (startsWith(head, magic)) return { ok: false, kind: 'executable', what: 'a program (Mach-O)' };
  }
  if (ascii(head, 0, 2) === '#!') return { ok: false, kind: 'executable', what: 'a script' };
  const text = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 1024)
    .toLowerCase();
  if (text.startsWith('<svg') || (text.startsWith('<?xml') && text.includes('<svg')) || text.startsWith('<!doctype svg')) {
    return { ok: false, kind: 'svg', what: 'an SVG image' };
  }
  return { ok: false, kind: 'unknown', what: 'not a file type we accept' };
}

/**
 * Characters dropped from a shopper's file name: controls (C0, DEL, C1), invisible format
 * characters (the bidi overrides and isolates that make "invoice\u202Egpj.exe" read as
 * "invoiceexe.jpg", marks, zero-width spaces, the BOM), line and paragraph separators and halves
 * of broken surrogate pairs. The zero-width (non-)joiners stay: Persian and Indic names and emoji
 * need them, and they reorder nothing.
 */
const unsafeInFileName = /(?![\u200C\u200D])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/** The shopper's file name, for the dealer's eyes only: no path, nothing invisible or reordering, at most 120 characters. */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = [...base.replace(unsafeInFileName, '').trim()].slice(0, 120).join('').trim();
  return clean || 'file';
}

export class UploadError extends Error {
  constructor(
    readonly statusCode: 400 | 413 | 429,
    message: string,
    /** 429: seconds until the shopper may send files again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** A file received and checked, waiting in the incoming folder for its lead to be saved. */
export type ReceivedFile = { tempPath: string; type: AcceptedFileType; size: number; originalName: string; sha256: string };

/** Where uploads live: DATA_DIR/uploads, never inside a folder the server serves statically. */
export function uploadsRoot(dataDir: string): string {
  return join(dataDir, 'uploads');
}

export function assertOutsideStaticRoots(dir: string, staticRoots: readonly string[]) {
  const target = resolve(dir) + sep;
  for (const root of staticRoots) {
    const served = resolve(root) + sep;
    if (target.startsWith(served) || served.startsWith(target)) {
      throw new Error(`Lead uploads (${dir}) must not be inside or around a static folder (${root}): set DATA_DIR elsewhere.`);
    }
  }
}

const sniffBytes = 4100;

/**
 * Streams one uploaded file to the incoming folder under a random name, counting its size
 * (over `maxBytes` is a 413) and keeping its first bytes to sniff. A refused file is removed.
 */
export async function receiveFile(
  stream: Readable & { truncated?: boolean },
  opts: {
    incomingDir: string;
    maxBytes: number;
    originalName: string | undefined;
    /** What a file over `maxBytes` is told, when the bound is not the file's own (a lead's or a day's total). */
    overLimit?: (name: string) => UploadError;
  },
): Promise<ReceivedFile> {
  await mkdir(opts.incomingDir, { recursive: true });
  const tempPath = join(opts.incomingDir, randomBytes(16).toString('hex'));
  const name = cleanFileName(opts.originalName);
  const hash = createHash('sha256');
  let size = 0;
  const head: Buffer[] = [];
  let headLength = 0;
  let tooLarge = false;
  const overLimit = () =>
    opts.overLimit?.(name) ?? new UploadError(413, `"${name}" is larger than ${formatBytes(opts.maxBytes)}. Please send a smaller file.`);
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > opts.maxBytes) {
        tooLarge = true;
        callback(overLimit());
        return;
      }
      if (headLength < sniffBytes) {
        head.push(chunk.subarray(0, sniffBytes - headLength));
        headLength += Math.min(chunk.length, sniffBytes - headLength);
      }
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  const file = createWriteStream(tempPath, { flags: 'wx', mode: 0o600 });
  try {
    await pipeline(stream, counter, file);
    // @fastify/multipart stops a file at its own fileSize limit and marks the stream truncated.
    if (stream.truncated || tooLarge) throw overLimit();
    const sniffed = sniffFileType(Buffer.concat(head));
    if (!sniffed.ok) {
      const reason = sniffed.kind === 'unknown' ? 'is not a file type we accept' : `is ${sniffed.what}, which is not accepted`;
      throw new UploadError(400, `"${name}" ${reason}. Please send ${acceptedFilesText}.`);
    }
    return { tempPath, type: sniffed.type, size, originalName: name, sha256: hash.digest('hex') };
  } catch (error) {
    stream.resume();
    // When the upload breaks off while the file is still being opened, the pipeline rejects before
    // the open is done: removed now, the file would be created after, and left in the folder.
    // (`close` comes after the open, also when the stream was destroyed with an error meanwhile.)
    file.destroy();
    if (!file.closed) await new Promise<void>((resolve) => file.once('close', () => resolve()));
    await rm(tempPath, { force: true });
    if (error instanceof UploadError) throw error;
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw overLimit();
    throw error;
  }
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/** What making uploads durable asks of the file system (a test passes a recorder to see the order). */
export type DurableFileOps = {
  /** fsync of a file's contents. */
  syncFile(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /** fsync of a folder, which is what makes the names created, renamed or removed in it durable. */
  syncDir(path: string): Promise<void>;
};

async function fsyncPath(path: string, flags: 'r' | 'r+') {
  const handle = await open(path, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export const diskFileOps: DurableFileOps = {
  syncFile: (path) => fsyncPath(path, 'r+'),
  rename,
  syncDir: (path) => fsyncPath(path, 'r'),
};

/**
 * Flushes received files' contents to disk. Called before the lead's transaction begins, so that
 * syncing a large photo never holds the database (the renames inside it are cheap to sync).
 */
export async function syncReceived(files: readonly ReceivedFile[], ops: DurableFileOps = diskFileOps) {
  for (const file of files) await ops.syncFile(file.tempPath);
}

/**
 * Moves a lead's received files (already synced by `syncReceived`) to
 * DATA_DIR/uploads/<site>/<lead>/<random>.<ext> (never the shopper's name) and says where they
 * went, relative to the uploads root. Runs inside the lead's transaction and syncs the folders
 * before returning, so files the committed lead lists survive a crash and are in place before its
 * deliveries can be claimed.
 */
export async function placeLeadFiles(
  uploadsDir: string,
  siteSlug: string,
  leadId: number,
  files: readonly ReceivedFile[],
  ops: DurableFileOps = diskFileOps,
) {
  if (files.length === 0) return [];
  const siteDir = join(uploadsDir, siteSlug);
  const dir = join(siteDir, String(leadId));
  await mkdir(dir, { recursive: true });
  const placed: { path: string; file: ReceivedFile }[] = [];
  for (const file of files) {
    const target = join(dir, `${randomBytes(12).toString('hex')}.${file.type.ext}`);
    await ops.rename(file.tempPath, target);
    placed.push({ path: relative(uploadsDir, target), file });
  }
  // The files' new names are entries of the lead's folder, which is itself new in the site's (new in the uploads folder on a site's first upload).
  for (const folder of [dir, siteDir, uploadsDir]) await ops.syncDir(folder);
  return placed;
}

export async function discardReceived(files: readonly ReceivedFile[]) {
  await Promise.all(files.map((file) => rm(file.tempPath, { force: true })));
}
