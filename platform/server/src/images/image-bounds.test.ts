import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cardWidths, deviceWidths, fixedLoaderMaxWidth, imageQuality } from '@dealer/rules/images';
import { shareImageSize } from '../document/seo';
import { generateDemoData } from '@dealer/demo/demo-data';
import { ImageCache, openImageCache } from './image-cache';
import { applyZodSchemas } from '../http/zod-schemas';
import { busyRetryAfterSeconds, imageRoutes, RenderQueueFull, renderSlots } from './image-routes';
import { demoPhotoVocabulary, photoQualities, photoWidths } from '@dealer/demo/photo-vocabulary';

const silent = { warn: () => undefined };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'img-bounds-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A promise with its resolve, to hold a task until the test lets it go. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('what the image endpoint draws', () => {
  it('draws every photo the demo stock links to', () => {
    const vocabulary = demoPhotoVocabulary();
    const { cars } = generateDemoData(Math.floor(Date.now() / 1000));
    const paths = new Set(cars.flatMap((car) => [car.primary_image_url, ...car.images]).filter((path) => path.startsWith('/img/vehicle/')));
    expect(paths.size).toBeGreaterThan(100);
    for (const path of paths) {
      const [, , , category = '', body = '', colour = ''] = path.split('/');
      expect({ path, category: vocabulary.categories.has(category), body: vocabulary.bodies.has(body), colour: vocabulary.colours.has(colour) }).toEqual({
        path,
        category: true,
        body: true,
        colour: true,
      });
    }
  });

  it('draws every width and quality the pages ask for', () => {
    for (const width of [...cardWidths, ...deviceWidths, fixedLoaderMaxWidth, shareImageSize.width, 160, 960]) expect(photoWidths).toContain(width);
    expect([...photoQualities]).toEqual([imageQuality.lowEnd, imageQuality.standard, imageQuality.general]);
  });
});

describe('render slots', () => {
  it('runs at most `max` tasks at once, queues up to `queue`, refuses the next at once, and hands a freed slot to the first in line', async () => {
    const run = renderSlots(1, 1);
    const order: string[] = [];
    const first = gate();
    const a = run(async () => {
      order.push('a starts');
      await first.opened;
      order.push('a ends');
      return 'a';
    });
    const b = run(async () => {
      order.push('b starts');
      return 'b';
    });
    await expect(run(async () => 'c')).rejects.toBeInstanceOf(RenderQueueFull);
    expect(order).toEqual(['a starts']);
    first.open();
    expect(await Promise.all([a, b])).toEqual(['a', 'b']);
    expect(order).toEqual(['a starts', 'a ends', 'b starts']);
    // Everything freed: the next one runs at once.
    expect(await run(async () => 'd')).toBe('d');
  });

  it('frees the slot of a task that fails', async () => {
    const run = renderSlots(1, 0);
    await expect(run(async () => Promise.reject(new Error('broken drawing')))).rejects.toThrow('broken drawing');
    expect(await run(async () => 'next')).toBe('next');
  });
});

describe('the render queue behind /img', () => {
  it('answers 503 with Retry-After when every render slot and queue place is taken, and draws the rest once a slot frees', async () => {
    const app = Fastify();
    applyZodSchemas(app);
    const held = gate();
    const started: string[] = [];
    await app.register(imageRoutes, {
      cache: await openImageCache(dir, 1024 * 1024, silent),
      siteLogo: () => null,
      renderConcurrency: 1,
      renderQueue: 1,
      draw: async (photo) => {
        started.push(photo.colour);
        await held.opened;
        return Buffer.from(photo.colour);
      },
    });
    await app.ready();
    try {
      const first = app.inject({ url: '/img/vehicle/car/suv/white/1.jpg?w=640' });
      while (started.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      const others = [app.inject({ url: '/img/vehicle/car/suv/black/1.jpg?w=640' }), app.inject({ url: '/img/vehicle/car/suv/red/1.jpg?w=640' })];
      // While the first drawing holds the only slot, one request waits in the only queue place; the other is turned away.
      const refused = await Promise.race(others);
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe(String(busyRetryAfterSeconds));
      expect(refused.headers['cache-control']).toBe('no-store');
      expect(refused.json()).toEqual({ message: 'Too many photos are being drawn right now. Please try again in a moment.' });
      expect(started).toEqual(['white']);
      held.open();
      const answers = await Promise.all([first, ...others]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 503]);
      expect(started).toHaveLength(2);
    } finally {
      await app.close();
    }
  });
});

describe('the image cache on disk', () => {
  const bytes = (size: number, fill = 1) => Buffer.alloc(size, fill);

  it('keeps at most its cap, dropping the least recently used file first', async () => {
    const cache = new ImageCache(dir, 100, silent);
    await cache.write('v1/a.webp', bytes(40));
    await cache.write('v1/b.webp', bytes(40));
    expect(await cache.read('v1/a.webp')).toEqual(bytes(40));
    await cache.write('v1/c.webp', bytes(40));
    expect(cache.bytes).toBe(80);
    expect((await readdir(join(dir, 'v1'))).sort()).toEqual(['a.webp', 'c.webp']);
    expect(await cache.read('v1/b.webp')).toBeNull();
  });

  it('counts what an earlier run left, oldest written dropped first, temp files left alone', async () => {
    await mkdir(join(dir, 'v1', 'vehicle'), { recursive: true });
    const files = ['old.jpg', 'middle.jpg', 'new.jpg'];
    for (const [i, name] of files.entries()) {
      const path = join(dir, 'v1', 'vehicle', name);
      await writeFile(path, bytes(30));
      const when = new Date(Date.UTC(2024, 0, 1 + i));
      await utimes(path, when, when);
    }
    await writeFile(join(dir, 'v1', 'vehicle', 'new.jpg.123.abc.tmp'), bytes(500));
    const cache = await openImageCache(dir, 70, silent);
    expect(cache.bytes).toBe(60);
    expect((await readdir(join(dir, 'v1', 'vehicle'))).sort()).toEqual(['middle.jpg', 'new.jpg', 'new.jpg.123.abc.tmp']);
    await cache.write('v1/vehicle/newest.jpg', bytes(30));
    expect((await readdir(join(dir, 'v1', 'vehicle'))).sort()).toEqual(['new.jpg', 'new.jpg.123.abc.tmp', 'newest.jpg']);
  });

  it('starts empty on a folder that is not there yet', async () => {
    const cache = await openImageCache(join(dir, 'not-yet'), 100, silent);
    expect(cache.bytes).toBe(0);
    await cache.write('v1/a.jpg', bytes(10));
    expect((await stat(join(dir, 'not-yet', 'v1', 'a.jpg'))).size).toBe(10);
  });
});
