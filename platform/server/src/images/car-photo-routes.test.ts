import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SiteImage } from '@dealer/db/site-image-store';
import { carPhotoOriginal, carPhotoUrl, processCarPhoto } from './car-photos';
import { openImageCache } from './image-cache';
import { imageRoutes, renderVersion, type ImageRoutesOptions } from './image-routes';
import { processLogo } from './site-images';
import { applyZodSchemas, RequestSchemaError, sendSchemaRefusal } from '../http/zod-schemas';

const now = 1_750_000_000_000;
const photo = (width: number, height: number, background = '#3366aa') =>
  sharp({ create: { width, height, channels: 3, background } })
    .jpeg()
    .toBuffer();

/** The store's site_images rows, by hash. */
const stored = new Map<string, SiteImage>();
const store = (image: SiteImage) => (stored.set(image.hash, image), image);
/** As app.ts reads an uploaded photo's original: only a car photo's row. */
const loadUploadedPhoto = async (hash: string) => carPhotoOriginal(stored.get(hash) ?? null);

const cacheDirs: string[] = [];

/** The image routes alone (as app.ts has them: zod schemas, refusals answered as each route says) over a fresh disk cache. */
async function imageApp(options: Partial<ImageRoutesOptions> = {}): Promise<FastifyInstance> {
  const dir = await mkdtemp(join(tmpdir(), 'car-photo-routes-'));
  cacheDirs.push(dir);
  const app = Fastify();
  applyZodSchemas(app);
  app.setErrorHandler((error, request, reply) =>
    error instanceof RequestSchemaError ? sendSchemaRefusal(error, request, reply) : reply.send(error),
  );
  await app.register(imageRoutes, {
    cache: await openImageCache(dir, 64 * 1024 * 1024, app.log),
    siteLogo: () => null,
    loadUploadedPhoto,
    ...options,
  });
  await app.ready();
  return app;
}

let app: FastifyInstance;
const renders: string[] = [];
let landscape: SiteImage;
let narrow: SiteImage;
let logo: SiteImage;

beforeAll(async () => {
  landscape = store(await processCarPhoto(await photo(2000, 1500), 1, now));
  narrow = store(await processCarPhoto(await photo(400, 300, '#aa3322'), 1, now));
  logo = store(await processLogo(await photo(320, 80), 1, now));
  app = await imageApp({ onRender: ({ key }) => renders.push(key) });
});

afterAll(async () => {
  await app?.close();
  await Promise.all(cacheDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const avifBrowser = 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8';

describe('an uploaded car photo served at /img/car', () => {
  it.each([
    [320, 240],
    [1080, 810],
  ])('serves the 2000 × 1500 original at width %i (%i high), as JPEG by default, cached for good', async (width, height) => {
    const res = await app.inject({ url: `${carPhotoUrl(landscape.hash)}?w=${width}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toBe('Accept');
    expect(res.headers.etag).toMatch(/^".+"$/);
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width, height });
  });

  it('never enlarges: a 400 px original asked for at 1080 is served 400 wide', async () => {
    const res = await app.inject({ url: `${carPhotoUrl(narrow.hash)}?w=1080&q=80`, headers: { accept: 'image/webp' } });
    expect(res.statusCode).toBe(200);
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 400, height: 300 });
  });

  it.each([
    [avifBrowser, 320, 'image/avif', 'heif'],
    [avifBrowser, 1080, 'image/webp', 'webp'],
    ['image/webp,*/*', 320, 'image/webp', 'webp'],
    ['*/*', 320, 'image/jpeg', 'jpeg'],
  ])('answers Accept %s at width %i with %s, as for the vehicle photos', async (accept, width, contentType, format) => {
    const res = await app.inject({ url: `${carPhotoUrl(landscape.hash)}?w=${width}&q=60`, headers: { accept } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(contentType);
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ format, width });
  });

  it('answers 304 to a matching If-None-Match, and gives each format its own ETag', async () => {
    const url = `${carPhotoUrl(landscape.hash)}?w=480`;
    const first = await app.inject({ url });
    const again = await app.inject({ url, headers: { 'if-none-match': first.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const webp = await app.inject({ url, headers: { accept: 'image/webp' } });
    expect(webp.headers.etag).not.toBe(first.headers.etag);
  });

  it('serves the second identical request from the disk cache without drawing it again', async () => {
    const url = `${carPhotoUrl(landscape.hash)}?w=750&q=75`;
    const first = await app.inject({ url, headers: { accept: 'image/webp' } });
    expect(first.headers['x-image-cache']).toBe('miss');
    const count = renders.length;
    expect(renders.at(-1)).toBe(`${renderVersion}/car/${landscape.hash}/w750-q75.webp`);
    const file = join(cacheDirs[0]!, renderVersion, 'car', landscape.hash, 'w750-q75.webp');
    expect((await stat(file)).size).toBe(first.rawPayload.length);

    const second = await app.inject({ url, headers: { accept: 'image/webp' } });
    expect(second.statusCode).toBe(200);
    expect(second.headers['x-image-cache']).toBe('hit');
    expect(renders.length).toBe(count);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(second.headers.etag).toBe(first.headers.etag);
  });

  it('draws concurrent identical requests once', async () => {
    const url = `${carPhotoUrl(landscape.hash)}?w=960`;
    const count = renders.length;
    const all = await Promise.all([1, 2, 3].map(() => app.inject({ url })));
    expect(all.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(renders.length - count).toBe(1);
  });

  it('404s a hash no photo has, without caching the answer: a photo stored under it later is served', async () => {
    const later = await processCarPhoto(await photo(800, 600, '#22aa33'), 1, now);
    const url = `${carPhotoUrl(later.hash)}?w=320`;
    const missing = await app.inject({ url });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
    expect(missing.headers.etag).toBeUndefined();
    expect(missing.json()).toEqual({ message: 'There is no such photo.' });

    store(later);
    const found = await app.inject({ url });
    expect(found.statusCode).toBe(200);
    expect(await sharp(found.rawPayload).metadata()).toMatchObject({ width: 320, height: 240 });
  });

  it('404s the hash of a stored picture that is not a car photo (a site’s logo)', async () => {
    expect(stored.get(logo.hash)?.kind).toBe('logo');
    const res = await app.inject({ url: `${carPhotoUrl(logo.hash)}?w=320` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'There is no such photo.' });
  });

  it.each(['ABCDEF0123456789ABCDEF0123456789', 'abc', `${'a'.repeat(32)}0`, 'g'.repeat(32), '../../etc/passwd'])(
    '404s the malformed hash %s without asking the store',
    async (hash) => {
      const count = renders.length;
      const res = await app.inject({ url: `/img/car/${encodeURIComponent(hash)}.jpg?w=320` });
      expect(res.statusCode).toBe(404);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual({ message: 'There is no such photo.' });
      expect(renders.length).toBe(count);
    },
  );

  it('refuses a width or quality the pages never ask for, naming those they do', async () => {
    const wide = await app.inject({ url: `${carPhotoUrl(landscape.hash)}?w=5000` });
    expect(wide.statusCode).toBe(400);
    expect(wide.headers['cache-control']).toBe('no-store');
    expect(wide.json().message).toBe(
      'Invalid w: use one of the widths 160, 320, 480, 640, 750, 828, 960, 1080, 1200, 1280, 1920, 2048, 3840',
    );
    const fine = await app.inject({ url: `${carPhotoUrl(landscape.hash)}?q=100` });
    expect(fine.json()).toEqual({ message: 'Invalid q: use one of the qualities 60, 75, 80' });
  });

  it('is not served when the server has no store of uploaded photos', async () => {
    const bare = await imageApp({ loadUploadedPhoto: undefined });
    try {
      expect((await bare.inject({ url: carPhotoUrl(landscape.hash) })).statusCode).toBe(404);
    } finally {
      await bare.close();
    }
  });
});

describe('the render budget uploaded photos share with the vehicle photos', () => {
  it('puts an uploaded photo in the same lanes, queue and per-address limit as a vehicle photo being drawn', async () => {
    let open!: () => void;
    const held = new Promise<void>((resolve) => (open = resolve));
    let begin!: () => void;
    const begun = new Promise<void>((resolve) => (begin = resolve));
    const shared = await imageApp({
      renderConcurrency: 1,
      renderQueue: 0,
      rendersPerAddress: 1,
      draw: async (vehicle) => (begin(), await held, Buffer.from(vehicle.colour)),
    });
    try {
      const shopper = '203.0.113.7';
      const neighbour = '198.51.100.1';
      const vehicle = shared.inject({ url: '/img/vehicle/car/suv/white/1.jpg?w=1920', remoteAddress: shopper });
      // The vehicle photo holds the only large slot.
      await begun;

      const sameAddress = await shared.inject({ url: `${carPhotoUrl(landscape.hash)}?w=1200`, remoteAddress: shopper });
      expect(sameAddress.statusCode).toBe(429);
      expect(sameAddress.headers['cache-control']).toBe('no-store');

      const large = await shared.inject({ url: `${carPhotoUrl(landscape.hash)}?w=1200`, remoteAddress: neighbour });
      expect(large.statusCode).toBe(503);
      expect(large.headers['retry-after']).toBe('2');
      expect(large.json()).toEqual({ message: 'Too many photos are being drawn right now. Please try again in a moment.' });

      // A card-sized photo has the small lane.
      const small = await shared.inject({ url: `${carPhotoUrl(landscape.hash)}?w=320`, remoteAddress: neighbour });
      expect(small.statusCode).toBe(200);

      open();
      expect((await vehicle).statusCode).toBe(200);
      const later = await shared.inject({ url: `${carPhotoUrl(landscape.hash)}?w=1200`, remoteAddress: neighbour });
      expect(later.statusCode).toBe(200);
      expect(await sharp(later.rawPayload).metadata()).toMatchObject({ width: 1200, height: 900 });
    } finally {
      open();
      await shared.close();
    }
  });
});
