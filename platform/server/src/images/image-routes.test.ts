import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carPhotoSvg, paintHex, resolveBody, type BodyShape } from '@dealer/demo/car-photo';
import { imageRoutes, maxPhotoPixels, negotiateFormat, renderVehiclePhoto, renderVersion, webpFromWidth } from './image-routes';
import { openImageCache } from './image-cache';
import { applyZodSchemas, RequestSchemaError, sendSchemaRefusal } from '../http/zod-schemas';
import { logoSvg } from '@dealer/demo/logo';

let app: FastifyInstance;
let cacheDir: string;
const renders: string[] = [];

const sites: Record<string, { name: string; colour: string }> = {
  'city-motors': { name: 'City Motors & Co <Est>', colour: '#c8102e' },
};

beforeAll(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'img-routes-'));
  app = Fastify();
  // As app.ts: zod schemas, and a request one refuses answered as its route says.
  applyZodSchemas(app);
  app.setErrorHandler((error, request, reply) =>
    error instanceof RequestSchemaError ? sendSchemaRefusal(error, request, reply) : reply.send(error),
  );
  await app.register(imageRoutes, {
    cache: await openImageCache(cacheDir, 64 * 1024 * 1024, app.log),
    siteLogo: (slug) => sites[slug] ?? null,
    onRender: ({ key }) => renders.push(key),
  });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
});

const photo = '/img/vehicle/car/suv/crystal-white-pearl/3.jpg';

describe('vehicle photos', () => {
  it('serves JPEG by default at 640x480 with immutable caching headers', async () => {
    const res = await app.inject({ url: photo });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers.vary).toMatch(/accept/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.etag).toMatch(/^".+"$/);
    const buf = res.rawPayload;
    expect([...buf.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const meta = await sharp(buf).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 640, 480]);
  });

  it('serves WebP when accepted, at the requested width', async () => {
    const res = await app.inject({ url: `${photo}?w=320&q=60`, headers: { accept: 'image/webp,*/*' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    const buf = res.rawPayload;
    expect(buf.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(buf.subarray(8, 12).toString('latin1')).toBe('WEBP');
    const meta = await sharp(buf).metadata();
    expect([meta.width, meta.height]).toEqual([320, 240]);
  });

  it('serves AVIF when accepted (preferred over WebP)', async () => {
    const res = await app.inject({
      url: '/img/vehicle/motorcycle/naked/soul-red/5.jpg?w=160',
      headers: { accept: 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/avif');
    const buf = res.rawPayload;
    expect(buf.subarray(4, 12).toString('latin1')).toBe('ftypavif');
    const meta = await sharp(buf).metadata();
    expect([meta.width, meta.height]).toEqual([160, 120]);
  });

  it('serves WebP to an AVIF-capable browser from webpFromWidth up (a car page hero renders fast on its first request)', async () => {
    const res = await app.inject({
      url: `/img/vehicle/car/suv/blue/5.jpg?w=${webpFromWidth}`,
      headers: { accept: 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers.vary).toBe('Accept');
  });

  it('serves the second identical request from the disk cache without rendering', async () => {
    const url = '/img/vehicle/car/hatch/blue/1.jpg?w=480&q=60';
    const first = await app.inject({ url, headers: { accept: 'image/webp' } });
    expect(first.headers['x-image-cache']).toBe('miss');
    const file = join(cacheDir, renderVersion, 'vehicle/car/hatch/blue/1-w480-q60.webp');
    const before = await stat(file);
    const count = renders.length;

    const second = await app.inject({ url, headers: { accept: 'image/webp' } });
    expect(second.statusCode).toBe(200);
    expect(second.headers['x-image-cache']).toBe('hit');
    expect(renders.length).toBe(count);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect((await stat(file)).mtimeMs).toBe(before.mtimeMs);
  });

  it('renders concurrent identical requests once', async () => {
    const url = '/img/vehicle/truck/cab-chassis/white/2.jpg?w=320';
    const count = renders.length;
    const all = await Promise.all([1, 2, 3, 4].map(() => app.inject({ url })));
    expect(all.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(renders.length - count).toBe(1);
    for (const r of all) expect(r.rawPayload.equals(all[0]!.rawPayload)).toBe(true);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const url = `${photo}?w=160`;
    const first = await app.inject({ url });
    const second = await app.inject({ url, headers: { 'if-none-match': first.headers.etag as string } });
    expect(second.statusCode).toBe(304);
    expect(second.rawPayload.length).toBe(0);
  });

  it('gives each format its own ETag', async () => {
    const jpeg = await app.inject({ url: `${photo}?w=160` });
    const webp = await app.inject({ url: `${photo}?w=160`, headers: { accept: 'image/webp' } });
    expect(jpeg.headers.etag).not.toBe(webp.headers.etag);
  });

  it.each([
    ['/img/vehicle/car/SUV/white/1.jpg', /body/],
    ['/img/vehicle/car/suv/white_pearl/1.jpg', /colour/],
    ['/img/vehicle/car!/suv/white/1.jpg', /category/],
    ['/img/vehicle/car/suv/white/8.jpg', /variant/],
    ['/img/vehicle/car/suv/white/x.jpg', /variant/],
    ['/img/vehicle/car/suv/white/1.gif', /variant/],
    ['/img/vehicle/car/suv/white/1.jpg?w=wide', /\bw\b/],
    ['/img/vehicle/car/suv/white/1.jpg?q=high', /\bq\b/],
  ])('rejects %s with 400 and a message', async (url, message) => {
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(400);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json().message).toMatch(message);
  });

  it.each([
    ['/img/vehicle/spaceship/SUV/white/1.jpg', 400, 'Invalid body: use lowercase letters, digits and dashes (max 64)'],
    ['/img/vehicle/spaceship/suv/white/9.jpg', 400, 'Invalid variant: expected 0 to 7, e.g. 3.jpg'],
    ['/img/vehicle/spaceship/suv/white/1.jpg?w=3', 404, 'No photo is drawn for the category "spaceship".'],
    [
      '/img/vehicle/car/suv/white/1.jpg?w=3&q=1',
      400,
      'Invalid w: use one of the widths 160, 320, 480, 640, 750, 828, 960, 1080, 1200, 1280, 1920, 2048, 3840',
    ],
  ])('judges %s by its first fault: a malformed path part, then a part never drawn, then w, then q', async (url, status, message) => {
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(status);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({ message });
  });

  it('reads w and q as the pages write them: an empty one is the default, a repeated one its last value, rounded', async () => {
    const res = await app.inject({ url: `${photo}?w=3840&w=%20160.2%20&q=` });
    expect(res.statusCode).toBe(200);
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([160, 120]);
    expect(res.headers.etag).toBe((await app.inject({ url: `${photo}?w=160&q=75` })).headers.etag);
  });

  it.each(['3', '16', '200', '641', '3841', '5000', '100000'])(
    'refuses the width %s, which no page asks for, naming the widths it draws',
    async (w) => {
      const res = await app.inject({ url: `${photo}?w=${w}` });
      expect(res.statusCode).toBe(400);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json().message).toBe(
        'Invalid w: use one of the widths 160, 320, 480, 640, 750, 828, 960, 1080, 1200, 1280, 1920, 2048, 3840',
      );
    },
  );

  it.each(['1', '50', '70', '100'])('refuses the quality %s, which no page asks for, naming the qualities it draws', async (q) => {
    const res = await app.inject({ url: `${photo}?w=320&q=${q}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Invalid q: use one of the qualities 60, 75, 80');
  });

  it.each([
    ['/img/vehicle/spaceship/suv/white/1.jpg', 'No photo is drawn for the category "spaceship".'],
    ['/img/vehicle/car/flying-saucer/white/1.jpg', 'No photo is drawn for the body "flying-saucer".'],
    ['/img/vehicle/car/suv/zorgon-shimmer/1.jpg', 'No photo is drawn for the colour "zorgon-shimmer".'],
    ['/img/vehicle/car/suv/white-0001/1.jpg', 'No photo is drawn for the colour "white-0001".'],
  ])('404s %s: a photo the demo stock does not have is never drawn', async (url, message) => {
    const count = renders.length;
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(404);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({ message });
    expect(renders.length).toBe(count);
  });
});

describe('memory the drawing may hold', () => {
  const photoOf = { category: 'car', body: 'suv', colour: 'white', variant: 1 };

  it('keeps no libvips cache (each photo is drawn once, then read from disk) and draws each photo on one thread', () => {
    const { memory, files, items } = sharp.cache();
    expect([memory.max, files.max, items.max]).toEqual([0, 0, 0]);
    expect(sharp.concurrency()).toBe(1);
  });

  it('decodes no picture larger than the largest it serves', async () => {
    expect(maxPhotoPixels).toBe(3840 * 2880);
    await expect(renderVehiclePhoto(photoOf, 4000, 75, 'jpeg')).rejects.toThrow(/pixel limit/);
    const largest = await sharp(await renderVehiclePhoto(photoOf, 3840, 60, 'jpeg')).metadata();
    expect([largest.width, largest.height]).toEqual([3840, 2880]);
  });
});

describe('logos', () => {
  it('serves the logo of a known site as escaped SVG', async () => {
    const res = await app.inject({ url: '/img/logo/city-motors.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.body).toContain('City Motors &amp; Co &lt;Est&gt;');
    expect(res.body).toContain('#c8102e');
    expect(res.body).not.toContain('<Est>');
    const meta = await sharp(Buffer.from(res.body)).metadata();
    expect(meta.height).toBe(64);
  });

  it.each(['nope', 'Not_A-Slug', '-nope'])('404s the logo of %s, which is no site', async (slug) => {
    const res = await app.inject({ url: `/img/logo/${slug}.svg` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Unknown site' });
  });

  it("serves the icon of a site with no uploaded logo as the wordmark's tile, a 64 px PNG", async () => {
    const res = await app.inject({ url: '/img/icon/city-motors.png' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 64, 64]);
    // The tile's corner is the site's colour (#c8102e).
    const { data } = await sharp(res.rawPayload)
      .extract({ left: 32, top: 8, width: 1, height: 1 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)]).toEqual([0xc8, 0x10, 0x2e]);
    expect((await app.inject({ url: '/img/icon/nope.png' })).statusCode).toBe(404);
  });

  it('drops an unsafe colour', () => {
    expect(logoSvg('A', 'red" onload="x')).not.toContain('onload');
  });
});

describe('drawing helpers', () => {
  it('negotiates formats from Accept', () => {
    expect(negotiateFormat(undefined)).toBe('jpeg');
    expect(negotiateFormat('*/*')).toBe('jpeg');
    expect(negotiateFormat('image/webp,*/*')).toBe('webp');
    expect(negotiateFormat('image/avif,image/webp')).toBe('avif');
    expect(negotiateFormat('image/avif;q=0, image/webp')).toBe('webp');
    // Large images: WebP renders several times faster than AVIF and is no larger for these photos.
    expect(negotiateFormat('image/avif,image/webp', webpFromWidth - 1)).toBe('avif');
    expect(negotiateFormat('image/avif,image/webp', webpFromWidth)).toBe('webp');
    // A client taking only AVIF still gets no large one: each costs seconds of CPU.
    expect(negotiateFormat('image/avif', 1920)).toBe('jpeg');
    expect(negotiateFormat('image/avif', 3840)).toBe('jpeg');
  });

  it('maps colour names, slugs and unknown names', () => {
    expect(paintHex('white')).toBe('#f4f5f6');
    expect(paintHex('Crystal White Pearl')).toBe(paintHex('crystal-white-pearl'));
    expect(paintHex('magnetic-grey-metallic')).toBe(paintHex('magnetic-grey'));
    expect(paintHex('jet-black')).not.toBe(paintHex('black'));
    const unknown = paintHex('zorgon-shimmer');
    expect(unknown).toMatch(/^#[0-9a-f]{6}$/);
    expect(paintHex('zorgon-shimmer')).toBe(unknown);
  });

  it('maps bodies, falling back by category then to sedan', () => {
    expect(resolveBody('car', 'hatchback')).toBe('hatch');
    expect(resolveBody('car', 'cab-chassis')).toBe('cab-chassis');
    expect(resolveBody('motorcycle', 'naked')).toBe('motorcycle');
    expect(resolveBody('camper', 'other')).toBe('motorhome');
    expect(resolveBody('car', 'flying-saucer')).toBe('sedan');
  });

  it('draws every body type as valid, self-contained 4:3 SVG', async () => {
    const bodies: BodyShape[] = [
      'sedan',
      'hatch',
      'wagon',
      'suv',
      'ute',
      'coupe',
      'van',
      'truck',
      'cab-chassis',
      'motorcycle',
      'motorhome',
      'caravan',
    ];
    for (const [i, body] of bodies.entries()) {
      const svg = carPhotoSvg({ category: 'car', body, colour: 'silver', variant: i % 8 }, 80, 60);
      expect(svg).not.toMatch(/href|<text|@import|url\((?!#)/);
      const meta = await sharp(Buffer.from(svg)).metadata();
      expect([meta.width, meta.height]).toEqual([80, 60]);
    }
  });
});
