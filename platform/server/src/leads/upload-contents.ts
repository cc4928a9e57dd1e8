import { open } from 'node:fs/promises';
import sharp from 'sharp';
import { acceptedFilesText, UploadError, type ReceivedFile } from '@dealer/leads/uploads';

/** The formats sharp reads each accepted photo type as. */
const photoFormats: Record<string, string> = { 'image/jpeg': 'jpeg', 'image/png': 'png', 'image/webp': 'webp' };

/** A PDF ends with its `%%EOF` marker, give or take a trailing line break or a little padding. */
const pdfTailBytes = 1024;
/** Top-level boxes a HEIC photo is made of (ftyp, meta, mdat and a few more); far fewer than this. */
const maxHeifBoxes = 64;

async function readAt(path: string, position: number, length: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** A photo's header, as the image library reads it: its own format, and a width and height. */
async function photoHeaderReads(file: ReceivedFile, format: string): Promise<boolean> {
  const meta = await sharp(file.tempPath, { limitInputPixels: false })
    .metadata()
    .catch(() => null);
  return meta?.format === format && (meta.width ?? 0) > 0 && (meta.height ?? 0) > 0;
}

/**
 * A HEIC photo is a chain of ISO-BMFF boxes that ends exactly at the end of the file, opening with
 * `ftyp` and holding a `meta` box (the image library here cannot decode HEVC, so the boxes are read).
 */
async function heifBoxesChain(file: ReceivedFile): Promise<boolean> {
  const handle = await open(file.tempPath, 'r');
  try {
    const header = Buffer.alloc(16);
    const types: string[] = [];
    let offset = 0;
    while (offset < file.size) {
      if (types.length === maxHeifBoxes) return false;
      const { bytesRead } = await handle.read(header, 0, 16, offset);
      if (bytesRead < 8) return false;
      const type = header.toString('latin1', 4, 8);
      if (!/^[\x20-\x7e]{4}$/.test(type)) return false;
      const size32 = header.readUInt32BE(0);
      const size = size32 === 0 ? file.size - offset : size32 === 1 ? (bytesRead === 16 ? Number(header.readBigUInt64BE(8)) : 0) : size32;
      if (size < 8 || offset + size > file.size) return false;
      types.push(type);
      offset += size;
    }
    return types[0] === 'ftyp' && types.includes('meta');
  } finally {
    await handle.close();
  }
}

async function pdfEnds(file: ReceivedFile): Promise<boolean> {
  const tail = await readAt(file.tempPath, Math.max(0, file.size - pdfTailBytes), pdfTailBytes);
  return tail.includes('%%EOF');
}

/**
 * Refuses a file whose first bytes name an accepted type but whose header does not read as one
 * (a PNG signature in front of ten megabytes of anything): photos through the image library,
 * HEIC by its boxes, PDF by its end marker. The extension and the browser's word are never used.
 */
export async function checkUploadContents(file: ReceivedFile): Promise<void> {
  const format = photoFormats[file.type.mime];
  const readable = format
    ? await photoHeaderReads(file, format)
    : file.type.mime === 'image/heic'
      ? await heifBoxesChain(file)
      : await pdfEnds(file);
  if (!readable)
    throw new UploadError(
      400,
      `"${file.originalName}" is not a readable ${file.type.label}: it may be damaged. Please send ${acceptedFilesText}.`,
    );
}
