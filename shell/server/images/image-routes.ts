/**
 * Image endpoint (SPEC §7 "images are served through an image CDN with width and quality
 * parameters", SPEC §9 quality and width constants).
 *
 *   GET /img/vehicle/:category/:body/:colour/:variant.jpg?w=&q=
 *       Generated vehicle photo (see car-photo.ts and `vehiclePhotoPath` in @dealer/rules).
 *       The extension in the path is only a name: the output format is negotiated from Accept
 *       (AVIF, else WebP, else JPEG; WebP before AVIF from `webpFromWidth` up), hence `Vary: Accept`.
 *   GET /img/logo/:slug.svg
 *       Site wordmark.
 *
 * Width: `w` is any integer, rounded and clamped to 16..3840 (default 640). No ladder snapping:
 * the callers (`imageUrl`/`imageSrcSet`) already ask for ladder widths, and a srcset entry must
 * get exactly the width it declares. Quality: `q` rounded and clamped to 1..100 (default 75).
 * A `w` or `q` that is not a number is a 400.
 *
 * Rendered bytes are cached on disk forever (the picture is a pure function of the URL) under
 * `cacheDir/vehicle/<category>/<body>/<colour>/<variant>-w<w>-q<q>.<ext>`, written atomically
 * (temp file + rename). Concurrent identical requests share one render (in-flight map), and at
 * most `renderConcurrency` renders (default: number of CPUs) run at once.
 */
import { randomBytes, createHash } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import sharp from 'sharp';
import { carPhotoSvg } from './car-photo';
import { logoSvg } from './logo';

export type ImageFormat = 'avif' | 'webp' | 'jpeg';

export interface ImageRoutesOptions {
  cacheDir: string;
  siteLogo: (slug: string) => { name: string; colour: string } | null;
  /** Called once per actual render (not for cache hits); for tests and metrics. */
  onRender?: (info: { key: string; format: ImageFormat; width: number; quality: number; ms: number }) => void;
  /** Renders allowed at once; default the number of CPUs. */
  renderConcurrency?: number;
}

export const imageLimits = { minWidth: 16, maxWidth: 3840, defaultWidth: 640, defaultQuality: 75 } as const;

/** Bump when the drawing or encoder settings change: it is part of the cache path and the ETag. */
export const renderVersion = 'v1';

const contentTypes: Record<ImageFormat, string> = { avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg' };
const extensions: Record<ImageFormat, string> = { avif: 'avif', webp: 'webp', jpeg: 'jpg' };
const slugPattern = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const variantPattern = /^([0-7])(?:\.(?:jpe?g|webp|avif|png))?$/;
const immutable = 'public, max-age=31536000, immutable';

/**
 * From this width up, WebP is served even to clients that accept AVIF. Measured on the generated
 * photos (sharp, quality 75, 2-core machine): AVIF at effort 2 takes 67 ms at 640 px, 105 ms at
 * 828 px and 400 ms at 1920 px against 11, 15 and 65 ms for WebP, and is no smaller (9.9 KB
 * against 7.7 KB at 828 px). A car page's hero (the LCP image, 640 to 1200 px on phones) is
 * rendered on its first request, so AVIF there cost the first shopper a few hundred ms of LCP
 * on a slow phone. Smaller images (cards, thumbnails) stay AVIF.
 */
export const webpFromWidth = 640;

/**
 * Output format from an Accept header: AVIF if image/avif is accepted (below `webpFromWidth`
 * when WebP is accepted too), else WebP if image/webp is, else JPEG. Wildcards do not count (a
 * client sending only *∕* may not decode AVIF), and a type listed with q=0 is refused.
 */
export function negotiateFormat(accept: string | undefined, width = 0): ImageFormat {
  if (!accept) return 'jpeg';
  const accepted = new Set<string>();
  for (const part of accept.toLowerCase().split(',')) {
    const [type = '', ...params] = part.split(';').map((s) => s.trim());
    const q = params.find((p) => p.startsWith('q='));
    if (q && !(Number(q.slice(2)) > 0)) continue;
    accepted.add(type);
  }
  if (accepted.has('image/avif') && !(width >= webpFromWidth && accepted.has('image/webp'))) return 'avif';
  if (accepted.has('image/webp')) return 'webp';
  return 'jpeg';
}

/** Integer query value: undefined when absent, NaN when not a number. */
function intParam(value: unknown): number | undefined {
  const raw = Array.isArray(value) ? value[value.length - 1] : value;
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || !/^\s*-?\d+(?:\.\d+)?\s*$/.test(raw)) return Number.NaN;
  return Math.round(Number(raw));
}

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** A counting semaphore: `run` waits for a free slot. */
function limiter(max: number) {
  let active = 0;
  const queue: (() => void)[] = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active >= max) await new Promise<void>((resolve) => queue.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}

async function writeAtomic(file: string, bytes: Buffer): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, bytes);
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

export async function renderVehiclePhoto(
  photo: { category: string; body: string; colour: string; variant: number },
  width: number,
  quality: number,
  format: ImageFormat,
): Promise<Buffer> {
  const height = Math.round((width * 3) / 4);
  const svg = carPhotoSvg(photo, width, height);
  const image = sharp(Buffer.from(svg)).resize(width, height, { fit: 'fill' });
  switch (format) {
    case 'avif':
      return image.avif({ quality, effort: 2 }).toBuffer();
    case 'webp':
      return image.webp({ quality, effort: 2 }).toBuffer();
    case 'jpeg':
      return image.jpeg({ quality, progressive: true, mozjpeg: false }).toBuffer();
  }
}

function badRequest(reply: FastifyReply, message: string) {
  return reply.code(400).header('cache-control', 'no-store').send({ message });
}

export async function imageRoutes(app: FastifyInstance, opts: ImageRoutesOptions): Promise<void> {
  const inFlight = new Map<string, Promise<{ bytes: Buffer; cache: 'hit' | 'miss' }>>();
  const run = limiter(Math.max(1, opts.renderConcurrency ?? availableParallelism()));

  /** Cached bytes, or one shared render that is then written to the cache. */
  function load(key: string, file: string, render: () => Promise<Buffer>) {
    const pending = inFlight.get(key);
    if (pending) return pending;
    const task = (async () => {
      try {
        return { bytes: await readFile(file), cache: 'hit' as const };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') app.log.warn({ err: error, file }, 'image cache read failed');
      }
      const bytes = await run(render);
      try {
        await writeAtomic(file, bytes);
      } catch (error) {
        app.log.warn({ err: error, file }, 'image cache write failed');
      }
      return { bytes, cache: 'miss' as const };
    })().finally(() => inFlight.delete(key));
    inFlight.set(key, task);
    return task;
  }

  app.get(
    '/img/vehicle/:category/:body/:colour/:variant',
    async (
      request: FastifyRequest<{ Params: Record<string, string>; Querystring: Record<string, string | string[]> }>,
      reply,
    ) => {
      const { category = '', body = '', colour = '', variant: variantParam = '' } = request.params;
      for (const [name, value] of [
        ['category', category],
        ['body', body],
        ['colour', colour],
      ] as const) {
        if (!slugPattern.test(value)) return badRequest(reply, `Invalid ${name}: use lowercase letters, digits and dashes (max 64)`);
      }
      const variantMatch = variantPattern.exec(variantParam);
      if (!variantMatch) return badRequest(reply, 'Invalid variant: expected 0 to 7, e.g. 3.jpg');
      const variant = Number(variantMatch[1]);

      const w = intParam(request.query.w);
      const q = intParam(request.query.q);
      if (Number.isNaN(w)) return badRequest(reply, 'Invalid w: expected a width in pixels');
      if (Number.isNaN(q)) return badRequest(reply, 'Invalid q: expected a quality from 1 to 100');
      const width = clamp(w ?? imageLimits.defaultWidth, imageLimits.minWidth, imageLimits.maxWidth);
      const quality = clamp(q ?? imageLimits.defaultQuality, 1, 100);
      const format = negotiateFormat(request.headers.accept, width);

      const name = `${variant}-w${width}-q${quality}.${extensions[format]}`;
      const key = `${renderVersion}/vehicle/${category}/${body}/${colour}/${name}`;
      const etag = `"${createHash('sha1').update(key).digest('base64url')}"`;
      // Caching headers go on success only, so an error response is never cached for a year.
      const success = () =>
        reply
          .header('vary', 'Accept')
          .header('cache-control', immutable)
          .header('etag', etag)
          .header('content-type', contentTypes[format]);
      if (etagMatches(request.headers['if-none-match'], etag)) return success().code(304).send();

      const file = join(opts.cacheDir, key);
      const { bytes, cache } = await load(key, file, async () => {
        const started = performance.now();
        const out = await renderVehiclePhoto({ category, body, colour, variant }, width, quality, format);
        opts.onRender?.({ key, format, width, quality, ms: performance.now() - started });
        return out;
      });
      return success().header('x-image-cache', cache).send(bytes);
    },
  );

  app.get('/img/logo/:slug.svg', async (request: FastifyRequest<{ Params: { slug: string } }>, reply) => {
    const slug = request.params.slug;
    const site = slugPattern.test(slug) ? opts.siteLogo(slug) : null;
    if (!site) return reply.code(404).send({ message: 'Unknown site' });
    const svg = logoSvg(site.name, site.colour);
    return reply
      .header('content-type', 'image/svg+xml; charset=utf-8')
      .header('cache-control', 'public, max-age=86400')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .send(svg);
  });
}
