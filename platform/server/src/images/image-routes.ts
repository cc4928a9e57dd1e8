/**
 * Image endpoint (SPEC §7 "images are served through an image CDN with width and quality
 * parameters", SPEC §9 quality and width constants).
 *
 *   GET /img/vehicle/:category/:body/:colour/:variant.jpg?w=&q=
 *       Generated vehicle photo (see @dealer/demo car-photo.ts and `vehiclePhotoPath` in @dealer/rules).
 *       The extension in the path is only a name: the output format is negotiated from Accept
 *       (AVIF, else WebP, else JPEG; WebP before AVIF from `webpFromWidth` up), hence `Vary: Accept`.
 *   GET /img/logo/:slug.svg
 *       Site wordmark.
 *
 * Only what the pages link to is drawn (photo-vocabulary.ts): a category, body or colour the demo
 * stock and the drawing do not know is a 404; a width outside the pages' ladders or a quality
 * outside SPEC §9's is a 400 naming the allowed values (default 640 wide, quality 75).
 *
 * Rendered bytes are cached on disk (the picture is a pure function of the URL), capped in size
 * with the least recently used dropped (image-cache.ts), under
 * `<renderVersion>/vehicle/<category>/<body>/<colour>/<variant>-w<w>-q<q>.<ext>`. Concurrent
 * identical requests share one render (in-flight map); at most `renderConcurrency` renders run at
 * once and `renderQueue` wait; a render beyond those is a 503 with Retry-After, not a longer queue.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import sharp from 'sharp';
import { z } from 'zod';
import { messageSchema, noContentSchema, type SchemaRefusal } from '../http/zod-schemas';
import { carPhotoSvg } from '@dealer/demo/car-photo';
import type { ImageCache } from './image-cache';
import { logoSvg } from '@dealer/demo/logo';
import { demoPhotoVocabulary, photoQualities, photoWidths } from '@dealer/demo/photo-vocabulary';

export type ImageFormat = 'avif' | 'webp' | 'jpeg';

type VehiclePhoto = { category: string; body: string; colour: string; variant: number };

export interface ImageRoutesOptions {
  cache: ImageCache;
  siteLogo: (slug: string) => { name: string; colour: string } | null;
  /** Called once per actual render (not for cache hits); for tests and metrics. */
  onRender?: (info: { key: string; format: ImageFormat; width: number; quality: number; ms: number }) => void;
  /** Renders allowed at once (default 2: a big AVIF takes seconds of a core)… */
  renderConcurrency?: number;
  /** …and renders that may wait for one of them (default 32). */
  renderQueue?: number;
  /** Draws a photo; `renderVehiclePhoto` by default (tests hold it to fill the queue). */
  draw?: (photo: VehiclePhoto, width: number, quality: number, format: ImageFormat) => Promise<Buffer>;
}

const photoDefaults = { width: 640, quality: 75 } as const;

/** Seconds a client is asked to wait when every render slot and queue place is taken. */
export const busyRetryAfterSeconds = 2;

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
 * Output format from an Accept header: AVIF if image/avif is accepted and the picture is narrower
 * than `webpFromWidth`; else WebP if image/webp is accepted, else JPEG. Large AVIFs take seconds
 * of CPU each (5.8 s at 3840 px), so no Accept header can ask for one. Wildcards do not count (a
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
  if (accepted.has('image/avif') && width < webpFromWidth) return 'avif';
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

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** All render slots are busy and the queue is full. */
export class RenderQueueFull extends Error {
  constructor() {
    super('Every render slot and queue place is taken.');
  }
}

/**
 * At most `max` tasks run at once and at most `queue` wait for a turn; a task beyond those is
 * refused at once with RenderQueueFull. A finished task hands its slot straight to the next in
 * line, so a newcomer can never slip in between and run a task too many.
 */
export function renderSlots(max: number, queue: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active < max) active++;
    else if (waiting.length < queue) await new Promise<void>((resolve) => waiting.push(resolve));
    else throw new RenderQueueFull();
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

export async function renderVehiclePhoto(
  photo: VehiclePhoto,
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

/** A refusal is never cached (only pictures are, for a year). */
const noStore = { 'cache-control': 'no-store' };

/** A width or quality as the pages write it (the last one if repeated, rounded), `fallback` when absent; one the pages never ask for is refused naming those they do. */
const photoSetting = (name: 'w' | 'q', allowed: readonly number[], fallback: number, words: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((value) => intParam(value) ?? fallback)
    .refine((value) => allowed.includes(value), `Invalid ${name}: use one of the ${words} ${allowed.join(', ')}`);

const photoQuery = z.object({
  w: photoSetting('w', photoWidths, photoDefaults.width, 'widths'),
  q: photoSetting('q', photoQualities, photoDefaults.quality, 'qualities'),
});

/** Marks a zod issue about a category, body or colour the drawing does not know (a 404, not a 400). */
const notDrawn = { notDrawn: true };

/**
 * A photo request its schema refused: the first malformed part (slugs, then variant, then w,
 * then q) is a 400 naming it; a well-formed one the drawing does not know, a 404.
 */
function photoRefusal(error: z.ZodError): SchemaRefusal {
  const malformed = error.issues.find((issue) => issue.code !== 'custom' || issue.params?.notDrawn !== true);
  return malformed
    ? { status: 400, body: { message: malformed.message }, headers: noStore }
    : { status: 404, body: { message: error.issues[0]?.message }, headers: noStore };
}

const unknownSite = { message: 'Unknown site' };

export async function imageRoutes(scope: FastifyInstance, opts: ImageRoutesOptions): Promise<void> {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const inFlight = new Map<string, Promise<{ bytes: Buffer; cache: 'hit' | 'miss' }>>();
  const run = renderSlots(Math.max(1, opts.renderConcurrency ?? 2), Math.max(0, opts.renderQueue ?? 32));
  const vocabulary = demoPhotoVocabulary();
  const draw = opts.draw ?? renderVehiclePhoto;

  /** Cached bytes, or one shared render that is then written to the cache. */
  function load(key: string, render: () => Promise<Buffer>) {
    const pending = inFlight.get(key);
    if (pending) return pending;
    const task = (async () => {
      const cached = await opts.cache.read(key);
      if (cached) return { bytes: cached, cache: 'hit' as const };
      const bytes = await run(render);
      await opts.cache.write(key, bytes);
      return { bytes, cache: 'miss' as const };
    })().finally(() => inFlight.delete(key));
    inFlight.set(key, task);
    return task;
  }

  /** A category, body or colour: a slug, and one the drawing knows. */
  const drawnPart = (name: string, known: ReadonlySet<string>) =>
    z
      .string()
      .regex(slugPattern, `Invalid ${name}: use lowercase letters, digits and dashes (max 64)`)
      .refine((value) => known.has(value), { error: (issue) => `No photo is drawn for the ${name} "${String(issue.input)}".`, params: notDrawn });
  const photoParams = z.object({
    category: drawnPart('category', vocabulary.categories),
    body: drawnPart('body', vocabulary.bodies),
    colour: drawnPart('colour', vocabulary.colours),
    // `3.jpg`: the extension is only a name (the format is negotiated).
    variant: z
      .string()
      .regex(variantPattern, 'Invalid variant: expected 0 to 7, e.g. 3.jpg')
      .transform((text) => Number(text[0])),
  });

  app.get(
    '/img/vehicle/:category/:body/:colour/:variant',
    {
      config: { schemaError: photoRefusal },
      // 200 is the picture's bytes, sent as they are (never serialised).
      schema: { params: photoParams, querystring: photoQuery, response: { 200: z.instanceof(Buffer), 304: noContentSchema, '4xx': messageSchema, 503: messageSchema } },
    },
    async (request, reply) => {
      const { category, body, colour, variant } = request.params;
      const { w: width, q: quality } = request.query;
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

      try {
        const { bytes, cache } = await load(key, async () => {
          const started = performance.now();
          const out = await draw({ category, body, colour, variant }, width, quality, format);
          opts.onRender?.({ key, format, width, quality, ms: performance.now() - started });
          return out;
        });
        return success().header('x-image-cache', cache).send(bytes);
      } catch (error) {
        if (!(error instanceof RenderQueueFull)) throw error;
        return reply
          .code(503)
          .header('retry-after', String(busyRetryAfterSeconds))
          .header('cache-control', 'no-store')
          .send({ message: 'Too many photos are being drawn right now. Please try again in a moment.' });
      }
    },
  );

  // A slug no site could have is no site's logo either: a 404, as for an unknown one.
  const logoParams = z.object({ slug: z.string().regex(slugPattern) });
  const logoOptions = {
    config: { schemaError: (): SchemaRefusal => ({ status: 404, body: unknownSite }) },
    // 200 is the SVG text, sent as it is.
    schema: { params: logoParams, response: { 200: z.string(), '4xx': messageSchema } },
  };
  app.get('/img/logo/:slug.svg', logoOptions, async (request, reply) => {
    const site = opts.siteLogo(request.params.slug);
    if (!site) return reply.code(404).send(unknownSite);
    const svg = logoSvg(site.name, site.colour);
    return reply
      .header('content-type', 'image/svg+xml; charset=utf-8')
      .header('cache-control', 'public, max-age=86400')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .send(svg);
  });
}
