/**
 * Inventory feed bench (issue 24): a feed of N cars with P photos each, served by a local test
 * server, pulled and applied by the real platform process through the dealer console's API, first
 * into an empty site (every car new, every photo fetched and processed), then again with a tenth of
 * the cars repriced (photos already fetched are not fetched again). Per run: rows/s, photos/s and
 * the server's peak resident memory (sampled every 100 ms from /proc).
 *
 *   tsx bench/import-bench.ts [--cars=10000] [--photos=5] [--engines=sqlite,postgres] [--site=harbour-used-cars] [--built]
 *
 * The server runs from source through tsx, or `--built` from platform/server/dist/main.cjs, with
 * FEEDS_ALLOW_PRIVATE_ADDRESSES=1 (the feed is on 127.0.0.1).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { createTestSchema } from '@dealer/testing/postgres';
import { freePort } from '@dealer/testing/free-port';
import { prepareStore, type StoreAddress } from './console-data';
import { call, memoryOf, signInToConsole, startPlatform, type Console } from './platform-process';

type Engine = 'sqlite' | 'postgres';

const args = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key!, value ?? 'true'] as const;
  }),
);
const carCount = Number(args.get('cars') ?? 10_000);
const photosPerCar = Number(args.get('photos') ?? 5);
const engines = (args.get('engines') ?? 'sqlite').split(',') as Engine[];
const slug = args.get('site') ?? 'harbour-used-cars';
const useBuilt = args.has('built');
const log = (message: string) => process.stderr.write(`[import-bench] ${message}\n`);
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/* ------------------------------------------------------------------ the feed server */

const makes = [
  ['Toyota', 'HiLux', 'Ute'],
  ['Mazda', 'CX-5', 'SUV'],
  ['Ford', 'Ranger', 'Ute'],
  ['Hyundai', 'i30', 'Hatch'],
  ['Kia', 'Sportage', 'SUV'],
  ['Volkswagen', 'Golf', 'Hatch'],
] as const;

/** One feed row per car; `version` 2 reprices every tenth car. */
function feedCsv(port: number, version: number): string {
  const lines = ['Stock No,VIN,Make,Model,Year,Odometer,Price,Body,Fuel,Transmission,Colour,Images'];
  for (let n = 0; n < carCount; n++) {
    const [make, model, body] = makes[n % makes.length]!;
    const price = 15_000 + ((n * 7919) % 60_000) + (version === 2 && n % 10 === 0 ? -500 : 0);
    const vin = `BENCH${String(n).padStart(12, '0')}`;
    const photos = Array.from({ length: photosPerCar }, (_, i) => `http://127.0.0.1:${port}/photos/${n}-${i}.jpg`).join('|');
    lines.push(
      `BN${n},${vin},${make},${model},${2015 + (n % 10)},${(n * 373) % 200_000},"$${price.toLocaleString('en-AU')}",${body},Petrol,Automatic,White,${photos}`,
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

async function startFeedServer(): Promise<{ port: number; photosServed: () => number; close(): Promise<void> }> {
  const port = await freePort();
  // Sixteen different photos (a phone camera's size class, shrunk): each URL serves one of them.
  const pool = await Promise.all(
    Array.from({ length: 16 }, (_, i) =>
      sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: (i * 37) % 256, g: (i * 91) % 256, b: (i * 53) % 256 } } })
        .composite([
          { input: Buffer.from(`<svg width="1600" height="1200"><circle cx="${400 + i * 50}" cy="600" r="300" fill="#fff"/></svg>`) },
        ])
        .jpeg({ quality: 85 })
        .toBuffer(),
    ),
  );
  const feeds = new Map([1, 2].map((version) => [version, Buffer.from(feedCsv(port, version))]));
  let photos = 0;
  const server: HttpServer = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://feed');
    if (url.pathname === '/feed.csv') {
      res.writeHead(200, { 'content-type': 'text/csv' }).end(feeds.get(Number(url.searchParams.get('v') ?? 1)));
      return;
    }
    const photo = /^\/photos\/(\d+)-(\d+)\.jpg$/.exec(url.pathname);
    if (photo) {
      photos += 1;
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(pool[(Number(photo[1]) * photosPerCar + Number(photo[2])) % pool.length]);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  return { port, photosServed: () => photos, close: () => new Promise((done) => server.close(() => done())) };
}

/* ------------------------------------------------------------------ one import */

type Run = {
  name: string;
  rows: number;
  seconds: number;
  photosFetched: number;
  photosFailed: number;
  peakRssMb: number;
  counts: Record<string, number>;
};

async function importOnce(client: Console, pid: number, name: string, feedUrl: string): Promise<Run> {
  const json = async (method: string, path: string, body?: object) => {
    const answer = await call(
      client.agent,
      client.port,
      method,
      `${client.base}${path}`,
      { ...client.headers, origin: `http://${client.headers.host}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body ? JSON.stringify(body) : undefined,
    );
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${answer.body.slice(0, 300)}`);
    return JSON.parse(answer.body) as Record<string, unknown>;
  };
  let peakRss = memoryOf(pid)?.rss ?? 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, memoryOf(pid)?.rss ?? 0)), 100);
  const t0 = performance.now();
  try {
    const upload = (await json('POST', '/feed/imports', { url: feedUrl })) as { id: number; rows: number; mapping: Record<string, string> };
    log(`${name}: ${upload.rows} rows fetched; dry run...`);
    const plan = (await json('POST', `/feed/imports/${upload.id}/dry-run`, { mapping: upload.mapping })) as {
      counts: Record<string, number>;
    };
    log(`${name}: plan ${JSON.stringify(plan.counts)}; applying...`);
    await json('POST', `/feed/imports/${upload.id}/apply`, {});
    for (;;) {
      await sleep(500);
      const state = (await json('GET', `/feed/imports/${upload.id}`)) as {
        status: string;
        progress: { done: number; total: number } | null;
        error: string | null;
        report: { counts: Record<string, number>; photos: { fetched: number; failed: number } } | null;
      };
      if (state.status === 'running') continue;
      if (state.status !== 'done' || !state.report) throw new Error(`${name}: the import ended ${state.status}: ${state.error}`);
      return {
        name,
        rows: upload.rows,
        seconds: (performance.now() - t0) / 1000,
        photosFetched: state.report.photos.fetched,
        photosFailed: state.report.photos.failed,
        peakRssMb: peakRss / 1024,
        counts: state.report.counts,
      };
    }
  } finally {
    clearInterval(sampler);
  }
}

/* ------------------------------------------------------------------ the runs */

async function runEngine(engine: Engine): Promise<Run[]> {
  const work = mkdtempSync(join(tmpdir(), `import-bench-${engine}-`));
  const cleanups: (() => Promise<void> | void)[] = [() => rmSync(work, { recursive: true, force: true })];
  try {
    const store: StoreAddress = { dataDir: join(work, 'data') };
    if (engine === 'postgres') {
      const schema = await createTestSchema();
      cleanups.push(() => schema.drop());
      store.searchPath = schema.schema;
    }
    await prepareStore(engine, store, slug, 0);
    const feed = await startFeedServer();
    cleanups.push(() => feed.close());
    const server = await startPlatform({ work, store, slug, useBuilt, env: { FEEDS_ALLOW_PRIVATE_ADDRESSES: '1' } });
    cleanups.push(() => server.stop());
    const client = await signInToConsole(server.port, store, `site-admin@${slug}.localhost`, slug);
    cleanups.push(() => client.agent.destroy());
    const first = await importOnce(client, server.pid, 'from scratch', `http://127.0.0.1:${feed.port}/feed.csv?v=1`);
    const second = await importOnce(client, server.pid, 'again, a tenth repriced', `http://127.0.0.1:${feed.port}/feed.csv?v=2`);
    log(`${engine}: the feed server served ${feed.photosServed()} photos in all`);
    return [first, second].map((run) => ({ ...run, name: `${engine === 'postgres' ? 'PostgreSQL' : 'SQLite'}: ${run.name}` }));
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

async function main() {
  const runs: Run[] = [];
  for (const engine of engines) runs.push(...(await runEngine(engine)));
  const n = (value: number, digits = 0) => value.toLocaleString('en-AU', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const lines = [
    '',
    `Machine: ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${availableParallelism()} cores, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB, Node ${process.version}. ` +
      `Server ${useBuilt ? 'built' : 'from source (tsx)'}; feed of ${n(carCount)} cars × ${photosPerCar} photos (1600×1200 JPEG) from a local server.`,
    '',
    '| run | rows | seconds | rows/s | photos fetched | photos/s | failed photos | peak RSS MB | new / changed / unchanged / removed / rejected |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...runs.map(
      (run) =>
        `| ${run.name} | ${n(run.rows)} | ${n(run.seconds, 1)} | ${n(run.rows / run.seconds)} | ${n(run.photosFetched)} | ${n(run.photosFetched / run.seconds, 1)} | ${n(run.photosFailed)} | ${n(run.peakRssMb)} | ${['new', 'changed', 'unchanged', 'removed', 'rejected'].map((key) => run.counts[key] ?? 0).join(' / ')} |`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
