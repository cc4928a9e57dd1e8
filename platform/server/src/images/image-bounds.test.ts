import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cardWidths, deviceWidths, fixedLoaderMaxWidth, imageQuality } from '@dealer/rules/images';
import { shareImageSize } from '../document/seo';
import { generateDemoData } from '@dealer/demo/demo-data';
import { ImageCache, openImageCache } from './image-cache';
import { applyZodSchemas } from '../http/zod-schemas';
import { ConfigError, loadConfig } from '../config';
import {
  busyRetryAfterSeconds,
  imageRoutes,
  RenderCancelled,
  renderLanes,
  RenderQueueFull,
  renderVersion,
  sharedRenders,
  type ImageRoutesOptions,
} from './image-routes';
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
      expect({
        path,
        category: vocabulary.categories.has(category),
        body: vocabulary.bodies.has(body),
        colour: vocabulary.colours.has(colour),
      }).toEqual({
        path,
        category: true,
        body: true,
        colour: true,
      });
    }
  });

  it('draws every width and quality the pages ask for', () => {
    for (const width of [...cardWidths, ...deviceWidths, fixedLoaderMaxWidth, shareImageSize.width, 160, 960])
      expect(photoWidths).toContain(width);
    expect([...photoQualities]).toEqual([imageQuality.lowEnd, imageQuality.standard, imageQuality.general]);
  });
});

describe('render lanes', () => {
  it('runs at most `max` tasks at once, queues up to `queue`, refuses the next at once, and hands a freed slot to the first in line', async () => {
    const run = renderLanes({ max: 1, smallMax: 1, queue: 1 });
    const order: string[] = [];
    const first = gate();
    const a = run(
      async () => {
        order.push('a starts');
        await first.opened;
        order.push('a ends');
        return 'a';
      },
      { small: false },
    );
    const b = run(
      async () => {
        order.push('b starts');
        return 'b';
      },
      { small: false },
    );
    await expect(run(async () => 'c', { small: false })).rejects.toBeInstanceOf(RenderQueueFull);
    expect(order).toEqual(['a starts']);
    first.open();
    expect(await Promise.all([a, b])).toEqual(['a', 'b']);
    expect(order).toEqual(['a starts', 'a ends', 'b starts']);
    // Everything freed: the next one runs at once.
    expect(await run(async () => 'd', { small: false })).toBe('d');
  });

  it('frees the slot of a task that fails', async () => {
    const run = renderLanes({ max: 1, smallMax: 1, queue: 0 });
    await expect(run(async () => Promise.reject(new Error('broken drawing')), { small: false })).rejects.toThrow('broken drawing');
    expect(await run(async () => 'next', { small: false })).toBe('next');
  });

  it('runs a small photo in its own slot while large ones hold every shared slot and queue place', async () => {
    const run = renderLanes({ max: 1, smallMax: 1, queue: 1 });
    const held = gate();
    const large = [run(() => held.opened, { small: false }), run(() => held.opened, { small: false })];
    await expect(run(async () => 'refused', { small: false })).rejects.toBeInstanceOf(RenderQueueFull);
    expect(await run(async () => 'thumbnail', { small: true })).toBe('thumbnail');
    held.open();
    await Promise.all(large);
  });

  it('gives a freed shared slot to the small photo waiting before the large one that came first', async () => {
    const run = renderLanes({ max: 1, smallMax: 1, queue: 2 });
    const order: string[] = [];
    const large = gate();
    const small = gate();
    const running = [run(() => large.opened, { small: false }), run(() => small.opened, { small: true })];
    const waiting = [run(async () => order.push('large'), { small: false }), run(async () => order.push('small'), { small: true })];
    large.open();
    await Promise.all([running[0], ...waiting]);
    expect(order).toEqual(['small', 'large']);
    small.open();
    await running[1];
  });

  it('takes a waiting task whose signal aborts out of the queue, never run, and keeps its place for the next', async () => {
    const run = renderLanes({ max: 1, smallMax: 1, queue: 1 });
    const held = gate();
    const running = run(() => held.opened, { small: false });
    const leaving = new AbortController();
    const ran: string[] = [];
    const left = run(async () => ran.push('left'), { small: false, signal: leaving.signal });
    leaving.abort();
    await expect(left).rejects.toBeInstanceOf(RenderCancelled);
    const next = run(async () => ran.push('next'), { small: false });
    held.open();
    await Promise.all([running, next]);
    expect(ran).toEqual(['next']);
  });
});

describe('renders shared by everyone asking for the same photo', () => {
  it('keeps a waiting render while one of its askers remains, and takes it out of the queue undrawn when the last one goes', async () => {
    const cancelled: string[] = [];
    const renders = sharedRenders(renderLanes({ max: 1, smallMax: 1, queue: 4 }), (key) => cancelled.push(key));
    const held = gate();
    const drawn: string[] = [];
    const keep = async () => undefined;
    const hero = renders.start('hero', { small: false }, async () => (await held.opened, drawn.push('hero'), Buffer.from('hero')), keep);
    const heroAnswer = renders.wait(hero, new AbortController().signal);
    const gallery = renders.start('gallery', { small: false }, async () => (drawn.push('gallery'), Buffer.from('gallery')), keep);
    const [first, second] = [new AbortController(), new AbortController()];
    const answers = [renders.wait(gallery, first.signal), renders.wait(gallery, second.signal)];

    first.abort();
    await expect(answers[0]).rejects.toBeInstanceOf(RenderCancelled);
    expect(cancelled).toEqual([]);
    expect(renders.get('gallery')).toBe(gallery);
    second.abort();
    await expect(answers[1]).rejects.toBeInstanceOf(RenderCancelled);
    expect(cancelled).toEqual(['gallery']);
    expect(renders.get('gallery')).toBeUndefined();
    await expect(gallery.bytes).rejects.toBeInstanceOf(RenderCancelled);

    held.open();
    expect((await heroAnswer).toString()).toBe('hero');
    expect(drawn).toEqual(['hero']);
  });

  it('finishes and keeps a render already drawing when its only asker goes', async () => {
    const cancelled: string[] = [];
    const renders = sharedRenders(renderLanes({ max: 1, smallMax: 1, queue: 4 }), (key) => cancelled.push(key));
    const held = gate();
    const kept: string[] = [];
    const hero = renders.start(
      'hero',
      { small: false },
      async () => (await held.opened, Buffer.from('hero')),
      async (bytes) => void kept.push(bytes.toString()),
    );
    const leaving = new AbortController();
    const answer = renders.wait(hero, leaving.signal);
    leaving.abort();
    await expect(answer).rejects.toBeInstanceOf(RenderCancelled);
    // Still under way: a new asker waits for the same drawing.
    expect(renders.get('hero')).toBe(hero);
    held.open();
    expect((await renders.wait(hero, new AbortController().signal)).toString()).toBe('hero');
    expect(kept).toEqual(['hero']);
    expect(cancelled).toEqual([]);
    expect(renders.get('hero')).toBeUndefined();
  });
});

describe('the render queue behind /img', () => {
  it('answers 503 with Retry-After when every render slot and queue place for large photos is taken, and draws the rest once a slot frees', async () => {
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
      const first = app.inject({ url: '/img/vehicle/car/suv/white/1.jpg?w=1920' });
      while (started.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      const others = [
        app.inject({ url: '/img/vehicle/car/suv/black/1.jpg?w=1920' }),
        app.inject({ url: '/img/vehicle/car/suv/red/1.jpg?w=1920' }),
      ];
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

/** The image routes alone, over a fresh cache in `dir`, with `options` (a held drawing, small limits). */
async function photoApp(options: Partial<ImageRoutesOptions>) {
  const app = Fastify();
  applyZodSchemas(app);
  const cache = await openImageCache(dir, 1024 * 1024, silent);
  await app.register(imageRoutes, { cache, siteLogo: () => null, ...options });
  await app.ready();
  return { app, cache };
}

/** A drawing that records what it starts and holds every photo wider than `freeUpTo` until `held` opens. */
function heldDrawing(freeUpTo = 0) {
  const held = gate();
  const started: string[] = [];
  const startedOne: (() => void)[] = [];
  const draw: NonNullable<ImageRoutesOptions['draw']> = async (photo, width) => {
    started.push(`${photo.colour}@${width}`);
    for (const wake of startedOne.splice(0)) wake();
    if (width > freeUpTo) await held.opened;
    return Buffer.from(`${photo.colour}@${width}`);
  };
  /** Resolves once `count` drawings have started. */
  const startedCount = async (count: number) => {
    while (started.length < count) await new Promise<void>((resolve) => startedOne.push(resolve));
  };
  return { held, started, draw, startedCount };
}

/** Resolves with the key of the next render that has to wait for a slot (or is cancelled), as the routes report it. */
function reports() {
  const waited: string[] = [];
  const cancelled: string[] = [];
  const listeners: (() => void)[] = [];
  const until = async (list: string[], part: string) => {
    while (!list.some((key) => key.includes(part))) await new Promise<void>((resolve) => listeners.push(resolve));
  };
  const wake = () => {
    for (const listener of listeners.splice(0)) listener();
  };
  return {
    onWait: ({ key }: { key: string }) => (waited.push(key), wake()),
    onCancel: ({ key }: { key: string }) => (cancelled.push(key), wake()),
    waited,
    cancelled,
    waitedFor: (part: string) => until(waited, part),
    cancelledFor: (part: string) => until(cancelled, part),
  };
}

describe('one busy shopper cannot jam the photos', () => {
  it('answers a 320 px photo while every slot and queue place for large photos is taken', async () => {
    const drawing = heldDrawing(640);
    const seen = reports();
    const { app } = await photoApp({ renderConcurrency: 1, renderQueue: 1, draw: drawing.draw, onWait: seen.onWait });
    try {
      const big = app.inject({ url: '/img/vehicle/car/suv/white/1.jpg?w=1920' });
      await drawing.startedCount(1);
      const waiting = app.inject({ url: '/img/vehicle/car/suv/black/1.jpg?w=3840' });
      await seen.waitedFor('black');
      const small = await app.inject({ url: '/img/vehicle/car/suv/red/1.jpg?w=320' });
      expect(small.statusCode).toBe(200);
      expect(small.body).toBe('red@320');
      drawing.held.open();
      expect((await Promise.all([big, waiting])).map((answer) => answer.statusCode)).toEqual([200, 200]);
    } finally {
      await app.close();
    }
  });

  it('refuses an address more uncached photos at once than IMAGE_RENDERS_PER_ADDRESS with 429, while its cached photos, a photo already being drawn and other addresses still answer', async () => {
    const drawing = heldDrawing();
    const seen = reports();
    const { app, cache } = await photoApp({
      renderConcurrency: 1,
      renderQueue: 8,
      rendersPerAddress: 2,
      draw: drawing.draw,
      onWait: seen.onWait,
    });
    const busy = '203.0.113.7';
    try {
      await cache.write(`${renderVersion}/vehicle/car/suv/white/1-w320-q75.jpg`, Buffer.from('kept'));
      const first = app.inject({ url: '/img/vehicle/car/suv/black/1.jpg?w=1920', remoteAddress: busy });
      await drawing.startedCount(1);
      const second = app.inject({ url: '/img/vehicle/car/suv/red/1.jpg?w=1920', remoteAddress: busy });
      await seen.waitedFor('red');

      const third = await app.inject({ url: '/img/vehicle/car/suv/blue/1.jpg?w=1920', remoteAddress: busy });
      expect(third.statusCode).toBe(429);
      expect(third.headers['retry-after']).toBe(String(busyRetryAfterSeconds));
      expect(third.headers['cache-control']).toBe('no-store');
      expect(third.json()).toEqual({ message: 'Too many new photos are being drawn for your connection. Please try again in 2 seconds.' });

      const cached = await app.inject({ url: '/img/vehicle/car/suv/white/1.jpg?w=320', remoteAddress: busy });
      expect([cached.statusCode, cached.body]).toEqual([200, 'kept']);
      // Asking again for a photo being drawn costs no drawing: it waits for the same one.
      const again = app.inject({ url: '/img/vehicle/car/suv/black/1.jpg?w=1920', remoteAddress: busy });
      const neighbour = app.inject({ url: '/img/vehicle/car/suv/blue/1.jpg?w=1920', remoteAddress: '198.51.100.1' });
      await seen.waitedFor('blue');

      drawing.held.open();
      const answers = await Promise.all([first, second, again, neighbour]);
      expect(answers.map((answer) => [answer.statusCode, answer.body])).toEqual([
        [200, 'black@1920'],
        [200, 'red@1920'],
        [200, 'black@1920'],
        [200, 'blue@1920'],
      ]);
      expect(drawing.started).toEqual(['black@1920', 'red@1920', 'blue@1920']);
      // Drawn and done: the address may ask for new ones again.
      expect((await app.inject({ url: '/img/vehicle/car/suv/green/1.jpg?w=1920', remoteAddress: busy })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('refuses an address more uncached photos a minute than IMAGE_RENDER_RATE_LIMIT with 429 until the minute has passed, its cached photos still answered', async () => {
    let now = Date.UTC(2025, 0, 1);
    const { app } = await photoApp({ renderRatePerMinute: 2, now: () => now, draw: async (photo) => Buffer.from(photo.colour) });
    try {
      const ask = (colour: string) => app.inject({ url: `/img/vehicle/car/suv/${colour}/1.jpg?w=320`, remoteAddress: '203.0.113.7' });
      expect((await ask('white')).statusCode).toBe(200);
      expect((await ask('black')).statusCode).toBe(200);
      const refused = await ask('red');
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('60');
      expect(refused.headers['cache-control']).toBe('no-store');
      expect(refused.json()).toEqual({ message: 'Too many new photos were asked for from your connection. Please try again in 1 minute.' });
      expect((await ask('white')).headers['x-image-cache']).toBe('hit');
      now += 60_000;
      expect((await ask('red')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('takes a waiting photo out of the queue, never drawn, when its shopper has gone', async () => {
    const drawing = heldDrawing();
    const seen = reports();
    const { app } = await photoApp({
      renderConcurrency: 1,
      renderQueue: 4,
      draw: drawing.draw,
      onWait: seen.onWait,
      onCancel: seen.onCancel,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    /** A GET over a connection of its own, and its answer's status and body. */
    const ask = (path: string) => {
      const req = httpRequest({ host: '127.0.0.1', port, path, agent: false });
      const answer = new Promise<[number, string]>((resolve, reject) => {
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve([res.statusCode ?? 0, Buffer.concat(chunks).toString()]));
        });
        req.on('error', reject);
      });
      req.end();
      return { req, answer };
    };
    try {
      const first = ask('/img/vehicle/car/suv/white/1.jpg?w=1920');
      await drawing.startedCount(1);
      const leaving = ask('/img/vehicle/car/suv/black/1.jpg?w=1920');
      leaving.answer.catch(() => undefined);
      await seen.waitedFor('black');
      leaving.req.destroy();
      await seen.cancelledFor('black');

      drawing.held.open();
      expect(await first.answer).toEqual([200, 'white@1920']);
      expect(drawing.started).toEqual(['white@1920']);
      // Asked for again, it is drawn then.
      expect(await ask('/img/vehicle/car/suv/black/1.jpg?w=1920').answer).toEqual([200, 'black@1920']);
      expect(drawing.started).toEqual(['white@1920', 'black@1920']);
    } finally {
      await app.close();
    }
  });
});

describe('image settings', () => {
  it('gives small photos one slot of their own, and each address 24 drawings at once (a results page of cards) and 240 a minute, by default', () => {
    expect(loadConfig({}, '/srv/platform').images).toMatchObject({
      smallRenderConcurrency: 1,
      rendersPerAddress: 24,
      renderRatePerMinute: 240,
    });
    const set = loadConfig(
      { IMAGE_RENDER_SMALL_CONCURRENCY: '2', IMAGE_RENDERS_PER_ADDRESS: '0', IMAGE_RENDER_RATE_LIMIT: '30' },
      '/srv/platform',
    ).images;
    expect(set).toMatchObject({ smallRenderConcurrency: 2, rendersPerAddress: 0, renderRatePerMinute: 30 });
  });

  it.each([
    [{ IMAGE_RENDER_SMALL_CONCURRENCY: '0' }, 'IMAGE_RENDER_SMALL_CONCURRENCY: IMAGE_RENDER_SMALL_CONCURRENCY must be at least 1'],
    [{ IMAGE_RENDERS_PER_ADDRESS: 'lots' }, 'IMAGE_RENDERS_PER_ADDRESS: IMAGE_RENDERS_PER_ADDRESS must be a whole number'],
    [{ IMAGE_RENDER_RATE_LIMIT: '-1' }, 'IMAGE_RENDER_RATE_LIMIT: IMAGE_RENDER_RATE_LIMIT must be 0 (off) or more'],
  ])('stops the platform on %o, naming the setting', (env, message) => {
    expect(() => loadConfig(env, '/srv/platform')).toThrow(ConfigError);
    expect(() => loadConfig(env, '/srv/platform')).toThrow(message);
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
