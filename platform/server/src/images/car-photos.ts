/**
 * Photos a dealer uploads of a car (issue 24; decision 0018): checked, processed by sharp and kept
 * in the store (site_images, kind 'car-photo'), named by the hash of the processed bytes.
 *
 *   GET /img/car/:hash.jpg?w=&q=    the photo at a served width and quality (image-routes.ts),
 *                                   drawn from the stored original in the vehicle photos' budget.
 *
 * An upload is read only if its bytes begin as a JPEG, PNG or WebP does, and it is at most
 * `carPhotoMaxBytes` and `carPhotoMaxPixels` (a modern phone's 48 MP photo fits); anything else
 * (an SVG, which can carry script, a GIF, a phone's HEIC) never reaches a decoder. The stored
 * original is turned upright by its EXIF orientation, fitted inside `carPhotoBox` (larger than any
 * screen it is shown on at 2×, but a fraction of the upload) and re-encoded as JPEG, so nothing
 * of the upload but its pixels is kept (metadata, location, a trailing payload are gone).
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { PlatformDb } from '@dealer/db/database';
import { siteImage, type SiteImage } from '@dealer/db/site-image-store';
import { encodePicture, type ImageFormat } from './picture-serving';
import { uploadFormat } from './upload-format';
import { ImageRefused } from './site-images';

/** The largest upload read (bytes) and decoded (pixels: 48 MP phone photos fit). */
export const carPhotoMaxBytes = 15 * 1024 * 1024;
export const carPhotoMaxPixels = 50_000_000;
/** A stored original fits inside this box, never enlarged: a 2× retina hero is at most 2560 wide. */
export const carPhotoBox = { width: 2560, height: 2560 } as const;
/** JPEG quality of a stored original: every served width is drawn from it, so it loses little. */
export const carPhotoQuality = 88;
/** The `kind` of a car photo's row in site_images. */
export const carPhotoKind = 'car-photo';

/** The address of an uploaded car photo (add `?w=` and `?q=` for a served width and quality). */
export const carPhotoUrl = (hash: string) => `/img/car/${hash}.jpg`;

const refusals = {
  empty: 'Choose a photo to upload.',
  format: 'Upload a JPEG, PNG or WebP photo.',
  bytes: 'The photo is larger than 15 MB.',
  pixels: 'The photo has more than 50 million pixels.',
  unreadable: 'That file is not a photo we can read. Upload a JPEG, PNG or WebP.',
} as const;

/** sharp's refusal in the dealer's words: too many pixels, or not readable. */
const decodeRefusal = (error: unknown) =>
  new ImageRefused(error instanceof Error && /pixel limit/i.test(error.message) ? refusals.pixels : refusals.unreadable);

/**
 * Checks and processes an uploaded car photo into the row to store (`saveSiteImage`): upright,
 * fitted inside `carPhotoBox` (never enlarged), transparency on white, JPEG at `carPhotoQuality`
 * with no metadata, named by the first 32 hex of the sha256 of those bytes. Refuses with
 * ImageRefused and a message for the dealer. sharp runs off the event loop (libuv's threads).
 */
export async function processCarPhoto(upload: Buffer, siteId: number, now: number): Promise<SiteImage> {
  if (upload.length === 0) throw new ImageRefused(refusals.empty);
  if (upload.length > carPhotoMaxBytes) throw new ImageRefused(refusals.bytes);
  const format = uploadFormat(upload);
  if (format === 'other picture') throw new ImageRefused(refusals.format);
  if (format === 'unknown') throw new ImageRefused(refusals.unreadable);
  const input = () => sharp(upload, { limitInputPixels: carPhotoMaxPixels, failOn: 'error' });
  let size: { format?: string; width?: number; height?: number };
  try {
    size = await input().metadata();
  } catch (error) {
    throw decodeRefusal(error);
  }
  if (size.format !== format) throw new ImageRefused(refusals.unreadable);
  if ((size.width ?? 0) * (size.height ?? 0) > carPhotoMaxPixels) throw new ImageRefused(refusals.pixels);
  try {
    const { data, info } = await input()
      .autoOrient()
      .resize({ ...carPhotoBox, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: carPhotoQuality })
      .toBuffer({ resolveWithObject: true });
    return {
      hash: createHash('sha256').update(data).digest('hex').slice(0, 32),
      site_id: siteId,
      kind: carPhotoKind,
      content_type: 'image/jpeg',
      width: info.width,
      height: info.height,
      bytes: data,
      created_at: now,
    };
  } catch (error) {
    throw decodeRefusal(error);
  }
}

/** The original bytes of a stored car photo, or null when there is none (or the row is another kind of picture, a logo). */
export const carPhotoOriginal = (image: SiteImage | null): Buffer | null => (image?.kind === carPhotoKind ? image.bytes : null);

/** The original bytes of the car photo stored under `hash`, or null (`loadUploadedPhoto` in app.ts). */
export async function storedCarPhoto(db: PlatformDb, hash: string): Promise<Buffer | null> {
  return carPhotoOriginal(await siteImage(db, hash));
}

/**
 * A stored original at `width` (never wider than it is; its aspect kept) in `format`. No input
 * larger than a stored original can be is decoded.
 */
export async function renderUploadedPhoto(original: Buffer, width: number, quality: number, format: ImageFormat): Promise<Buffer> {
  const image = sharp(original, { limitInputPixels: carPhotoBox.width * carPhotoBox.height }).resize({ width, withoutEnlargement: true });
  return encodePicture(image, format, quality);
}
