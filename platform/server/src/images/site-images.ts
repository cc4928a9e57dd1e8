/**
 * Pictures a dealer uploads (the site's logo; issue 24's car photos next): checked, processed by
 * sharp and kept in the store (site_images), named by the hash of the processed bytes.
 *
 *   GET /img/site/:hash.png    the picture, cached for good by browsers (its name is its content).
 *
 * An upload is read only if it is a PNG, JPEG or WebP of at most `uploadMaxBytes` and
 * `uploadMaxPixels` (sharp refuses to decode more); an SVG (which can carry script) or anything
 * else is refused. The stored picture is re-encoded, so nothing of the upload but its pixels is kept
 * (metadata, a trailing payload and the orientation tag are gone).
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import sharp from 'sharp';
import { z } from 'zod';
import type { PlatformDb } from '@dealer/db/database';
import { siteImage, type SiteImage } from '@dealer/db/site-image-store';
import { messageSchema } from '../http/zod-schemas';
import { uploadFormat } from './upload-format';

/** The largest upload read (bytes) and decoded (pixels). */
export const uploadMaxBytes = 2 * 1024 * 1024;
export const uploadMaxPixels = 25_000_000;
/** The content types an upload may be sent as. */
export const uploadTypes = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** A logo is drawn at most this size (it shows 160 × 40 in the header; room for a sharp 2× and a wide wordmark). */
export const logoBox = { width: 640, height: 200 } as const;

export class ImageRefused extends Error {}

/** The address of a stored picture. */
export const siteImageUrl = (hash: string) => `/img/site/${hash}.png`;

/** Checks and re-encodes an uploaded logo: a PNG (transparency kept) fitting `logoBox`, never enlarged. */
export async function processLogo(upload: Buffer, siteId: number, now: number): Promise<SiteImage> {
  if (upload.length === 0) throw new ImageRefused('Choose a picture to upload.');
  if (upload.length > uploadMaxBytes) throw new ImageRefused('The logo is larger than 2 MB.');
  // Only what begins like a PNG, JPEG or WebP reaches the decoder (an SVG or TIFF never reaches its parser).
  const kind = uploadFormat(upload);
  if (kind === 'other picture') throw new ImageRefused('Upload a PNG, JPEG or WebP picture.');
  if (kind === 'unknown') throw new ImageRefused('That file is not a picture we can read. Upload a PNG, JPEG or WebP.');
  const input = () => sharp(upload, { limitInputPixels: uploadMaxPixels, failOn: 'error' });
  let format: string | undefined;
  try {
    ({ format } = await input().metadata());
  } catch {
    throw new ImageRefused('That file is not a picture we can read. Upload a PNG, JPEG or WebP.');
  }
  if (format !== 'png' && format !== 'jpeg' && format !== 'webp') throw new ImageRefused('Upload a PNG, JPEG or WebP picture.');
  try {
    const { data, info } = await input()
      .rotate()
      .resize({ ...logoBox, fit: 'inside', withoutEnlargement: true })
      .png({ compressionLevel: 9 })
      .toBuffer({ resolveWithObject: true });
    const hash = createHash('sha256').update(data).digest('hex').slice(0, 32);
    return {
      hash,
      site_id: siteId,
      kind: 'logo',
      content_type: 'image/png',
      width: info.width,
      height: info.height,
      bytes: data,
      created_at: now,
    };
  } catch (error) {
    const tooLarge = error instanceof Error && /pixel limit/i.test(error.message);
    throw new ImageRefused(
      tooLarge ? 'The picture has more than 25 million pixels.' : 'That picture could not be read. Upload a PNG, JPEG or WebP.',
    );
  }
}

const params = z.object({ hash: z.string().regex(/^[0-9a-f]{32}$/) });
const notFound = { message: 'There is no such picture.' };

export async function siteImageRoutes(scope: FastifyInstance, db: PlatformDb) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/img/site/:hash.png',
    {
      config: { schemaError: () => ({ status: 404, body: notFound }) },
      schema: { params, response: { 200: z.instanceof(Buffer), '4xx': messageSchema } },
    },
    async (request, reply) => {
      const image = await siteImage(db, request.params.hash);
      // Logos only: a car photo's original is served at its widths through the image pipeline (/img/car).
      if (!image || image.kind !== 'logo') return reply.code(404).send(notFound);
      return reply
        .header('content-type', image.content_type)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(image.bytes);
    },
  );
}
