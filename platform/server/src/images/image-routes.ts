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
 * identical requests share one render (sharedRenders); at most `renderConcurrency` renders run at
 * once and `renderQueue` wait; a render beyond those is a 503 with Retry-After, not a longer queue.
 * Photos up to `smallPhotoMaxWidth` (cards, thumbnails, a phone's hero) have `smallRenderConcurrency`
 * slots of their own and a queue of their own, and take a shared slot first, so they never wait
 * behind a row of 3840 px pictures (renderLanes). One client address (`clientAddressKey`) may have
 * `rendersPerAddress` renders waiting or running and start `renderRatePerMinute` a minute; beyond
 * either a 429 with Retry-After (cached photos and renders already under way still answer). A
 * waiting render whose every asker has gone leaves the queue undrawn; a running one is finished
 * and cached. sharp keeps no cache and uses one thread per render, and no input beyond the largest
 * served picture is decoded (boundSharpMemory, renderVehiclePhoto).
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import sharp from 'sharp';
import { z } from 'zod';
import { RateLimiter } from '@dealer/leads/spam';
import { clientAddressKey } from '../http/client-address';
import { tooManyRequests } from '../http/too-many-requests';
import { messageSchema, noContentSchema, type SchemaRefusal } from '../http/zod-schemas';
import { carPhotoSvg } from '@dealer/demo/car-photo';
import type { ImageCache } from './image-cache';
import { logoSvg } from '@dealer/demo/logo';
import { demoPhotoVocabulary, photoQualities, photoWidths } from '@dealer/demo/photo-vocabulary';

export type ImageFormat = 'avif' | 'webp' | 'jpeg';

type VehiclePhoto = { category: string; body: string; colour: string; variant: number };

export interface ImageRoutesOptions {
  cache: ImageCache;
  siteLogo: (slug: string) => Promise<{ name: string; colour: string } | null> | { name: string; colour: string } | null;
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
  /** Draws a photo; `renderVehiclePhoto` by default (tests hold it to fill the queue). */
  draw?: (photo: VehiclePhoto, width: number, quality: number, format: ImageFormat) => Promise<Buffer>;
}

const photoDefaults = { width: 640, quality: 75 } as const;

/** Seconds a client is asked to wait when every render slot and queue place is taken, or its address has its fill of renders under way. */
export const busyRetryAfterSeconds = 2;

/** Photos up to this wide (thumbnails, cards, a phone's hero: 15-70 ms each) render in a lane of their own. */
export const smallPhotoMaxWidth = 640;

/** The largest picture drawn, in pixels: the widest served width at 4:3. No input larger than this is decoded. */
export const maxPhotoPixels = Math.max(...photoWidths) * Math.round((Math.max(...photoWidths) * 3) / 4);

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

/** A waiting render nobody waits for any more: it leaves the queue undrawn. */
export class RenderCancelled extends Error {
  constructor() {
    super('Everyone who asked for this picture has gone.');
  }
}

/** Which lane a render takes, what takes it out of the queue, and who hears that it has to wait. */
type LaneTicket = { small: boolean; signal?: AbortSignal; onWait?: () => void };

export type RenderLanes = <T>(task: () => Promise<T>, how: LaneTicket) => Promise<T>;

/**
 * Render slots in two lanes. `max` slots draw any photo and `smallMax` more draw only small ones,
 * which take their own slots first; so a small photo never waits behind large ones, and large ones
 * never have more than `max`. A freed shared slot goes to the first small photo waiting, else the
 * first large one; a freed small slot to the first small one. Each lane has `queue` places; a task
 * beyond them is refused at once with RenderQueueFull. A freed slot is handed straight to the
 * next in line, so a newcomer can never slip in between and run a task too many. A waiting task
 * whose `signal` aborts leaves its queue and rejects with RenderCancelled, never run.
 */
export function renderLanes({ max, smallMax, queue }: { max: number; smallMax: number; queue: number }): RenderLanes {
  type Slot = 'shared' | 'small';
  let shared = 0;
  let small = 0;
  const waiting = { small: [] as ((slot: Slot) => void)[], large: [] as ((slot: Slot) => void)[] };

  function take(isSmall: boolean): Slot | null {
    if (isSmall && small < smallMax) return (small++, 'small');
    if (shared < max) return (shared++, 'shared');
    return null;
  }
  function release(slot: Slot) {
    const next = waiting.small.shift() ?? (slot === 'shared' ? waiting.large.shift() : undefined);
    if (next) next(slot);
    else if (slot === 'small') small--;
    else shared--;
  }

  return async function run<T>(task: () => Promise<T>, how: LaneTicket): Promise<T> {
    const { signal } = how;
    if (signal?.aborted) throw new RenderCancelled();
    let slot = take(how.small);
    if (!slot) {
      const line = how.small ? waiting.small : waiting.large;
      if (line.length >= queue) throw new RenderQueueFull();
      slot = await new Promise<Slot>((resolve, reject) => {
        const start = (given: Slot) => {
          signal?.removeEventListener('abort', leave);
          resolve(given);
        };
        const leave = () => {
          line.splice(line.indexOf(start), 1);
          reject(new RenderCancelled());
        };
        signal?.addEventListener('abort', leave, { once: true });
        line.push(start);
        how.onWait?.();
      });
      // Given a slot, but everyone left before this task's turn came round: pass it on.
      if (signal?.aborted) {
        release(slot);
        throw new RenderCancelled();
      }
    }
    try {
      return await task();
    } finally {
      release(slot);
    }
  };
}

/** A render under way, and how many requests wait for it. */
type Render = {
  readonly key: string;
  readonly bytes: Promise<Buffer>;
  readonly cancel: AbortController;
  readonly state: { started: boolean };
  askers: number;
};

/**
 * Renders under way by key, each shared by everyone asking for the same picture. `start` queues
 * one in `lanes` and has its bytes kept (`keep`: written to the disk cache) before it is
 * forgotten; `wait` waits for one as one more asker. An asker whose `gone` signal aborts stops
 * waiting (RenderCancelled); when the last one goes while the render still waits for a slot, it
 * is taken out of the queue undrawn (`onCancel`). One already drawing is finished and kept.
 */
export function sharedRenders(lanes: RenderLanes, onCancel?: (key: string) => void) {
  const renders = new Map<string, Render>();
  return {
    get: (key: string): Render | undefined => renders.get(key),

    start(key: string, how: Omit<LaneTicket, 'signal'>, draw: () => Promise<Buffer>, keep: (bytes: Buffer) => Promise<void>): Render {
      const cancel = new AbortController();
      // The lanes may start the drawing at once, before `bytes` is known.
      const state = { started: false };
      const drawn = lanes(
        () => {
          state.started = true;
          return draw();
        },
        { ...how, signal: cancel.signal },
      );
      const render: Render = {
        key,
        cancel,
        state,
        askers: 0,
        bytes: drawn
          .then(async (bytes) => {
            await keep(bytes);
            return bytes;
          })
          .finally(() => {
            if (renders.get(key) === render) renders.delete(key);
          }),
      };
      // Its askers hear of a failure through `wait`; with none left, nobody needs to.
      render.bytes.catch(() => undefined);
      renders.set(key, render);
      return render;
    },

    wait(render: Render, gone: AbortSignal): Promise<Buffer> {
      render.askers++;
      return new Promise<Buffer>((resolve, reject) => {
        const leave = () => {
          render.askers--;
          if (render.askers === 0 && !render.state.started && renders.get(render.key) === render) {
            renders.delete(render.key);
            render.cancel.abort();
            onCancel?.(render.key);
          }
          reject(new RenderCancelled());
        };
        if (gone.aborted) return leave();
        gone.addEventListener('abort', leave, { once: true });
        render.bytes.then(resolve, reject).finally(() => gone.removeEventListener('abort', leave));
      });
    },
  };
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

export async function renderVehiclePhoto(photo: VehiclePhoto, width: number, quality: number, format: ImageFormat): Promise<Buffer> {
  const height = Math.round((width * 3) / 4);
  const svg = carPhotoSvg(photo, width, height);
  const image = sharp(Buffer.from(svg), { limitInputPixels: maxPhotoPixels }).resize(width, height, { fit: 'fill' });
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
  const vocabulary = demoPhotoVocabulary();
  const draw = opts.draw ?? renderVehiclePhoto;

  /** A category, body or colour: a slug, and one the drawing knows. */
  const drawnPart = (name: string, known: ReadonlySet<string>) =>
    z
      .string()
      .regex(slugPattern, `Invalid ${name}: use lowercase letters, digits and dashes (max 64)`)
      .refine((value) => known.has(value), {
        error: (issue) => `No photo is drawn for the ${name} "${String(issue.input)}".`,
        params: notDrawn,
      });
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
      schema: {
        params: photoParams,
        querystring: photoQuery,
        response: { 200: z.instanceof(Buffer), 304: noContentSchema, '4xx': messageSchema, 503: messageSchema },
      },
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
            const out = await draw({ category, body, colour, variant }, width, quality, format);
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
    const site = await opts.siteLogo(request.params.slug);
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
