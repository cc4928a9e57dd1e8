/**
 * Serving a picture drawn on request, for every picture route (image-routes.ts: the generated
 * vehicle photos and the photos dealers upload), so none can starve or bypass the others' budget.
 *
 * A picture is a pure function of its URL, so its bytes are cached on disk under its `key`, capped
 * in size with the least recently used dropped (image-cache.ts), and its ETag is the key's hash.
 * Concurrent identical requests share one render (sharedRenders); at most `renderConcurrency`
 * renders run at once and `renderQueue` wait; a render beyond those is a 503 with Retry-After, not
 * a longer queue. Pictures up to `smallPhotoMaxWidth` (cards, thumbnails, a phone's hero) have
 * `smallRenderConcurrency` slots of their own and a queue of their own, and take a shared slot
 * first, so they never wait behind a row of 3840 px pictures (renderLanes). One client address
 * (`clientAddressKey`) may have `rendersPerAddress` renders waiting or running and start
 * `renderRatePerMinute` a minute; beyond either a 429 with Retry-After (cached pictures and
 * renders already under way still answer). A waiting render whose every asker has gone leaves the
 * queue undrawn; a running one is finished and cached. sharp keeps no cache and uses one thread
 * per render (boundSharpMemory).
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import sharp, { type Sharp } from 'sharp';
import { z } from 'zod';
import { RateLimiter } from '@dealer/leads/spam';
import { clientAddressKey } from '../http/client-address';
import { tooManyRequests } from '../http/too-many-requests';
import { photoQualities, photoWidths } from '@dealer/demo/photo-vocabulary';
import type { ImageCache } from './image-cache';
import { RenderCancelled, renderLanes, RenderQueueFull, sharedRenders } from './render-lanes';

export type ImageFormat = 'avif' | 'webp' | 'jpeg';

/** The render budget every picture route shares, and what tests and metrics hear of it. */
export interface PictureServingOptions {
  cache: ImageCache;
  /** Called once per actual render (not for cache hits); for tests and metrics. */
  onRender?: (info: { key: string; format: ImageFormat; width: number; quality: number; ms: number }) => void;
  /** Called when a render has to wait for a slot; for tests and metrics. */
  onWait?: (info: { key: string }) => void;
  /** Called when a waiting render is dropped undrawn because everyone who asked for it has gone. */
  onCancel?: (info: { key: string }) => void;
  /** Renders allowed at once (default 2: a big AVIF takes seconds of a core)… */
  renderConcurrency?: number;
  /** …and renders that may wait for one of them, in each lane (default 32). */
  renderQueue?: number;
  /** Renders of photos up to `smallPhotoMaxWidth` that may run beside the others (default 1). */
  smallRenderConcurrency?: number;
  /** Renders one client address may have waiting or running at once (default 8; 0: no limit). */
  rendersPerAddress?: number;
  /** Renders one client address may start in a minute (default 120; 0: no limit). */
  renderRatePerMinute?: number;
  /** The clock of the per-minute limit (tests move it by hand). */
  now?: () => number;
}

const photoDefaults = { width: 640, quality: 75 } as const;

/** Seconds a client is asked to wait when every render slot and queue place is taken, or its address has its fill of renders under way. */
export const busyRetryAfterSeconds = 2;

/** Photos up to this wide (thumbnails, cards, a phone's hero: 15-70 ms each) render in a lane of their own. */
export const smallPhotoMaxWidth = 640;

/** Bump when the drawing or encoder settings change: it is part of the cache path and the ETag. */
export const renderVersion = 'v1';

const contentTypes: Record<ImageFormat, string> = { avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg' };
/** The file extension of each format, as cache keys end. */
export const extensions: Record<ImageFormat, string> = { avif: 'avif', webp: 'webp', jpeg: 'jpg' };
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

/**
 * Aborts when the client goes before its answer is sent (its connection closed), so nothing is
 * drawn for nobody. A request whose connection closed before its handler ran starts aborted.
 */
function clientGone(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  const response = reply.raw;
  if (response.destroyed || request.raw.socket?.destroyed) gone.abort();
  else
    response.once('close', () => {
      if (!response.writableEnded) gone.abort();
    });
  return gone.signal;
}

/**
 * One number per key that goes up and down, forgotten at 0, so it holds only the addresses with
 * renders under way.
 */
function counter() {
  const counts = new Map<string, number>();
  return {
    of: (key: string) => counts.get(key) ?? 0,
    add(key: string, by: number) {
      const count = (counts.get(key) ?? 0) + by;
      if (count > 0) counts.set(key, count);
      else counts.delete(key);
    },
  };
}

/**
 * libvips' operation cache would keep decoded pictures for a later identical operation, but each
 * photo is drawn once and then read from the disk cache: off. Renders run in parallel through the
 * lanes, one libvips thread each, so the threads drawing photos are as many as the slots (the
 * default is every core per render, except on glibc without jemalloc). Both are process-wide.
 */
export function boundSharpMemory(): void {
  sharp.cache(false);
  sharp.concurrency(1);
}

/** Encodes a drawn or resized picture as every route serves it (the encoder settings `renderVersion` names). */
export function encodePicture(image: Sharp, format: ImageFormat, quality: number): Promise<Buffer> {
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
export const noStore = { 'cache-control': 'no-store' };

/** A width or quality as the pages write it (the last one if repeated, rounded), `fallback` when absent; one the pages never ask for is refused naming those they do. */
const photoSetting = (name: 'w' | 'q', allowed: readonly number[], fallback: number, words: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((value) => intParam(value) ?? fallback)
    .refine((value) => allowed.includes(value), `Invalid ${name}: use one of the ${words} ${allowed.join(', ')}`);

/** `w` and `q`: a width and quality the pages ask for (default 640 wide, quality 75). */
export const photoQuery = z.object({
  w: photoSetting('w', photoWidths, photoDefaults.width, 'widths'),
  q: photoSetting('q', photoQualities, photoDefaults.quality, 'qualities'),
});

/** Thrown by a drawing whose picture does not exist: a 404 with its message, never cached. */
export class PictureMissing extends Error {}

/** One picture a request asks for: where it is cached (its ETag comes from the same key), its size and format, and how to draw it. */
export type Picture = { key: string; width: number; quality: number; format: ImageFormat; draw: () => Promise<Buffer> };

/**
 * The render budget (lanes, shared renders, per-address limits) over the disk cache; the function
 * it returns answers a request for a picture: 304, the cached bytes, or the bytes of a render
 * (started or joined), or 429, 503 or 404 (`PictureMissing`) with no-store.
 */
export function pictureServer(opts: PictureServingOptions) {
  boundSharpMemory();
  const lanes = renderLanes({
    max: Math.max(1, opts.renderConcurrency ?? 2),
    smallMax: Math.max(1, opts.smallRenderConcurrency ?? 1),
    queue: Math.max(0, opts.renderQueue ?? 32),
  });
  const renders = sharedRenders(lanes, (key) => opts.onCancel?.({ key }));
  const perAddress = opts.rendersPerAddress ?? 8;
  const rendering = counter();
  const startsPerMinute = new RateLimiter(opts.renderRatePerMinute ?? 120, 60_000);
  const now = opts.now ?? Date.now;

  return async function servePicture(request: FastifyRequest, reply: FastifyReply, picture: Picture) {
    const { key, width, quality, format } = picture;
    const etag = `"${createHash('sha1').update(key).digest('base64url')}"`;
    // Caching headers go on success only, so an error response is never cached for a year.
    const success = () =>
      reply.header('vary', 'Accept').header('cache-control', immutable).header('etag', etag).header('content-type', contentTypes[format]);
    if (etagMatches(request.headers['if-none-match'], etag)) return success().code(304).send();

    let render = renders.get(key);
    if (!render) {
      const cached = await opts.cache.read(key);
      if (cached) return success().header('x-image-cache', 'hit').send(cached);
      // Another request may have started it while the cache was read.
      render = renders.get(key);
    }
    const gone = clientGone(request, reply);
    if (!render) {
      // Nobody left to draw it for.
      if (gone.aborted) return;
      const client = clientAddressKey(request.ip);
      if (perAddress > 0 && rendering.of(client) >= perAddress) {
        reply.header('cache-control', 'no-store');
        return tooManyRequests(
          reply,
          busyRetryAfterSeconds * 1000,
          (wait) => `Too many new photos are being drawn for your connection. Please try again in ${wait}.`,
        );
      }
      const started = startsPerMinute.take(client, now());
      if (!started.ok) {
        reply.header('cache-control', 'no-store');
        return tooManyRequests(
          reply,
          started.retryAfterMs,
          (wait) => `Too many new photos were asked for from your connection. Please try again in ${wait}.`,
        );
      }
      rendering.add(client, 1);
      render = renders.start(
        key,
        { small: width <= smallPhotoMaxWidth, onWait: () => opts.onWait?.({ key }) },
        async () => {
          const begun = performance.now();
          const out = await picture.draw();
          opts.onRender?.({ key, format, width, quality, ms: performance.now() - begun });
          return out;
        },
        (bytes) => opts.cache.write(key, bytes),
      );
      // The address's render counts until it is drawn, failed or taken out of the queue, whoever waits for it.
      const done = () => rendering.add(client, -1);
      render.bytes.then(done, done);
    }

    try {
      const bytes = await renders.wait(render, gone);
      return success().header('x-image-cache', 'miss').send(bytes);
    } catch (error) {
      // The client has gone: there is no one to answer.
      if (error instanceof RenderCancelled) return;
      if (error instanceof PictureMissing) return reply.code(404).headers(noStore).send({ message: error.message });
      if (!(error instanceof RenderQueueFull)) throw error;
      return reply
        .code(503)
        .header('retry-after', String(busyRetryAfterSeconds))
        .header('cache-control', 'no-store')
        .send({ message: 'Too many photos are being drawn right now. Please try again in a moment.' });
    }
  };
}
