/**
 * Dealer console bench: the leads inbox API (`/api/console/*` on console.localhost) of one site
 * holding many leads, against the real server process, on SQLite and on PostgreSQL. Per engine:
 *   1. the store is migrated and seeded with the demo, then N leads are batch-inserted straight into
 *      `leads` (many rows a statement) before the server starts, in the store the server then opens;
 *   2. a staff user of the site signs in over HTTP (code by mail, read from `console_mail`);
 *   3. sequential keep-alive requests after a warm-up: the first page, a filtered page, a text
 *      search and a deep page (21st, reached by following next_cursor): p50/p90/p99/max;
 *   4. the CSV export of a tenth and of every lead, streamed: time, bytes, rows, and the server's RSS
 *      meanwhile; then every lead again (with the live leads below) from a server restarted with its V8 heap capped (--heap-cap=96 MB),
 *      which completes only if the export streams in constant memory;
 *   5. live leads: a lead sent through the public API until its `event: lead` reaches an open
 *      `leads/events` stream.
 * Then the console's first-load JS (gzip) when it is built. Prints markdown tables.
 *
 *   tsx bench/console-bench.ts [--leads=100000] [--requests=300] [--live=20] [--site=harbour-used-cars]
 *                              [--engines=sqlite,postgres] [--quick] [--built]
 *
 * The server runs from source through tsx, or `--built` from platform/server/dist/main.cjs.
 * PostgreSQL: TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test, in a throwaway schema.
 * Targets: every inbox page p99 ≤ 50 ms; a new lead in an open inbox ≤ 1,000 ms; first-load JS ≤ 200 KB gzip.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createRng } from '@dealer/demo/prng';
import { createTestSchema } from '@dealer/testing/postgres';
import { prepareStore, searchWord, type StoreAddress } from './console-data';
import { call, memoryOf, signInToConsole, startPlatform, type Console, type Server } from './platform-process';

type Engine = 'sqlite' | 'postgres';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key!, value ?? 'true'] as const;
  }),
);
const quick = args.has('quick');
const leadCount = Number(args.get('leads') ?? (quick ? 5000 : 100_000));
const requests = Number(args.get('requests') ?? (quick ? 50 : 300));
const warmup = Math.min(20, Math.max(5, Math.round(requests / 10)));
const liveCount = Number(args.get('live') ?? (quick ? 5 : 20));
const slug = args.get('site') ?? 'harbour-used-cars';
const engines = (args.get('engines') ?? 'sqlite,postgres').split(',') as Engine[];
const useBuilt = args.has('built');
const deepPages = 20;
const heapCapMb = Number(args.get('heap-cap') ?? 96);
const targets = { pageP99Ms: 50, liveMs: 1000, firstLoadKb: 200 };
const engineNames: Record<Engine, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const log = (message: string) => process.stderr.write(`[console-bench] ${message}\n`);

const startServer = (work: string, store: StoreAddress, nodeFlags: string[] = []) =>
  startPlatform({ work, store, slug, useBuilt, nodeFlags });
const signIn = (port: number, store: StoreAddress) => signInToConsole(port, store, `staff@${slug}.localhost`, slug);

/* ------------------------------------------------------------------ measures */

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

type Timing = { name: string; count: number; p50: number; p90: number; p99: number; max: number; errors: number; met: boolean };

async function timePage(client: Console, name: string, path: string): Promise<Timing> {
  const latencies: number[] = [];
  let errors = 0;
  for (let i = 0; i < warmup + requests; i++) {
    const t0 = performance.now();
    const answer = await call(client.agent, client.port, 'GET', `${client.base}${path}`, client.headers).catch(() => null);
    const ms = performance.now() - t0;
    if (i < warmup) continue;
    if (answer?.status === 200) latencies.push(ms);
    else errors += 1;
  }
  const sorted = latencies.sort((a, b) => a - b);
  const p99 = percentile(sorted, 99);
  const timing = { name, count: sorted.length, p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99, max: sorted.at(-1) ?? NaN };
  return { ...timing, errors, met: errors === 0 && p99 <= targets.pageP99Ms };
}

async function getPage(client: Console, path: string): Promise<{ leads: unknown[]; next_cursor: string | null }> {
  const answer = await call(client.agent, client.port, 'GET', `${client.base}${path}`, client.headers);
  if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status} ${answer.body.slice(0, 300)}`);
  return JSON.parse(answer.body) as { leads: unknown[]; next_cursor: string | null };
}

async function timePages(client: Console): Promise<Timing[]> {
  const first = await getPage(client, '/leads?limit=50');
  if (first.leads.length !== Math.min(50, leadCount)) throw new Error(`the first page has ${first.leads.length} leads`);
  // Following next_cursor from the first page: the 1st follow gives page 2, the 20th page 21.
  let cursor = first.next_cursor;
  let page = 2;
  while (cursor && page < deepPages + 1) {
    const next = await getPage(client, `/leads?limit=50&cursor=${encodeURIComponent(cursor)}`);
    if (!next.next_cursor) break;
    cursor = next.next_cursor;
    page += 1;
  }
  const results = [
    await timePage(client, 'first page', '/leads?limit=50'),
    await timePage(client, 'filtered: contacted, Test Drive', '/leads?status=contacted&form=Test%20Drive&limit=50'),
    await timePage(client, `text search: q=${searchWord}`, `/leads?q=${searchWord}&limit=50`),
  ];
  if (cursor)
    results.push(
      await timePage(
        client,
        `deep page: page ${page} (next_cursor followed ${page - 1}×)`,
        `/leads?limit=50&cursor=${encodeURIComponent(cursor)}`,
      ),
    );
  return results;
}

type Export = { rows: number; bytes: number; seconds: number; before: ReturnType<typeof memoryOf>; peakRss: number; hwmAfter: number };

/** Streams the CSV of every lead, counting bytes and lines as they come; the server's RSS sampled every 50 ms meanwhile. */
async function exportCsv(client: Console, pid: number, query = ''): Promise<Export> {
  const before = memoryOf(pid);
  let peakRss = before?.rss ?? NaN;
  const sampler = setInterval(() => {
    const now = memoryOf(pid);
    if (now) peakRss = Math.max(peakRss, now.rss);
  }, 50);
  const t0 = performance.now();
  try {
    const { bytes, lines } = await new Promise<{ bytes: number; lines: number }>((done, fail) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: client.port, path: `${client.base}/leads.csv${query}`, headers: client.headers, agent: client.agent },
        (res) => {
          if (res.statusCode !== 200) fail(new Error(`GET leads.csv: ${res.statusCode}`));
          let bytes = 0;
          let lines = 0;
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
          });
          res.on('end', () => done({ bytes, lines }));
          res.on('error', fail);
        },
      );
      req.on('error', fail);
      req.end();
    });
    const seconds = (performance.now() - t0) / 1000;
    const after = memoryOf(pid);
    // Every line ends CRLF and no cell of these leads holds a line break: lines less the header are rows.
    return { rows: lines - 1, bytes, seconds, before, peakRss: Math.max(peakRss, after?.rss ?? NaN), hwmAfter: after?.hwm ?? NaN };
  } finally {
    clearInterval(sampler);
  }
}

type Live = { count: number; p50: number; max: number; missed: number; met: boolean };

/** Leads sent through the public API while an inbox listens: ms from sending each until its `event: lead` arrives. */
async function liveLeads(client: Console): Promise<Live> {
  const arrived = new Map<number, number>();
  let listening: () => void = () => undefined;
  const ready = new Promise<void>((done) => (listening = done));
  const stream = httpRequest({
    host: '127.0.0.1',
    port: client.port,
    path: `${client.base}/leads/events`,
    headers: { ...client.headers, accept: 'text/event-stream' },
    agent: false,
  });
  stream.on('response', (res) => {
    if (res.statusCode !== 200) stream.destroy(new Error(`GET leads/events: ${res.statusCode}`));
    let buffered = '';
    res.setEncoding('utf8');
    res.on('data', (text: string) => {
      const now = performance.now();
      buffered += text;
      const blocks = buffered.split('\n\n');
      buffered = blocks.pop()!;
      for (const block of blocks) {
        if (block.includes(': listening')) listening();
        const data = /^event: lead\ndata: (.*)$/m.exec(block)?.[1];
        if (data) arrived.set((JSON.parse(data) as { id: number }).id, now);
      }
    });
  });
  let failure: Error | null = null;
  stream.on('error', (error) => (failure = error));
  stream.end();
  const rng = createRng(7);
  const shop = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  let missed = 0;
  try {
    await Promise.race([ready, sleep(10_000)]);
    if (failure) throw failure;
    // The feed's first look at the store only notes where it stands: let it happen before the first lead.
    await sleep(1000);
    for (let i = 0; i < liveCount; i++) {
      const body = JSON.stringify({
        lead: {
          category: 'General Enquiry',
          name: 'Live',
          last_name: 'Arrival',
          email: `live${i}.${Date.now()}@example.com`,
          phone: '0412345679',
        },
      });
      const headers = {
        host: `${slug}.localhost:${client.port}`,
        'content-type': 'application/json',
        'idempotency-key': `console-bench-${process.pid}-${Date.now()}-${i}`,
      };
      const t0 = performance.now();
      const created = await call(shop, client.port, 'POST', '/api/leads', headers, body);
      if (created.status !== 201) throw new Error(`POST /api/leads: ${created.status} ${created.body.slice(0, 300)}`);
      const id = (JSON.parse(created.body) as { id: number }).id;
      const deadline = performance.now() + 5000;
      while (!arrived.has(id) && performance.now() < deadline && !failure) await sleep(5);
      if (arrived.has(id)) latencies.push(arrived.get(id)! - t0);
      else missed += 1;
      // A random pause, so the sends fall anywhere in the feed's poll interval.
      await sleep(rng.int(100, 700));
    }
  } finally {
    stream.destroy();
    shop.destroy();
  }
  const sorted = latencies.sort((a, b) => a - b);
  const max = sorted.at(-1) ?? NaN;
  return { count: sorted.length, p50: percentile(sorted, 50), max, missed, met: missed === 0 && max <= targets.liveMs };
}

/** gzip bytes of the JS the console's document loads (console/dist/client/assets.json), or null when not built. */
function consoleFirstLoadJs(): { files: number; bytes: number } | null {
  const dir = join(root, 'console/dist/client');
  if (!existsSync(join(dir, 'assets.json'))) return null;
  const assets = JSON.parse(readFileSync(join(dir, 'assets.json'), 'utf8')) as { js: string[] };
  const bytes = assets.js.reduce((sum, file) => sum + gzipSync(readFileSync(join(dir, file)), { level: 9 }).length, 0);
  return { files: assets.js.length, bytes };
}

/* ------------------------------------------------------------------ run */

type EngineResult = {
  engine: Engine;
  seeded: { seconds: number; matching: number };
  pages: Timing[];
  slice: Export;
  capped: Export | { error: string };
  csv: Export;
  live: Live;
};

const cleanups: (() => Promise<void>)[] = [];
async function cleanUp() {
  while (cleanups.length) await cleanups.pop()!().catch((error: unknown) => log(`clean-up failed: ${String(error)}`));
}

/**
 * Every lead exported again by a server whose V8 heap is capped at `heapCapMb`: far less than the
 * rows would take if the export held them (100,000 leads are 33 MB of CSV and several times that
 * as objects), so it completes only if it streams. The error, if it does not.
 */
async function cappedExport(work: string, store: StoreAddress): Promise<Export | { error: string }> {
  log(`exporting every lead from a server whose heap is capped at ${heapCapMb} MB...`);
  let server: Server;
  try {
    server = await startServer(work, store, [`--max-old-space-size=${heapCapMb}`]);
  } catch (error) {
    return { error: `the server did not start: ${(error as Error).message.slice(0, 200)}` };
  }
  try {
    const client = await signIn(server.port, store);
    try {
      return await exportCsv(client, server.pid);
    } finally {
      client.agent.destroy();
    }
  } catch (error) {
    return { error: `${(error as Error).message}; the server's last output: ${server.output().slice(-300)}` };
  } finally {
    await server.stop();
  }
}

async function runEngine(engine: Engine): Promise<EngineResult> {
  const work = mkdtempSync(join(tmpdir(), `console-bench-${engine}-`));
  cleanups.push(async () => rmSync(work, { recursive: true, force: true }));
  const store: StoreAddress = { dataDir: join(work, 'data') };
  if (engine === 'postgres') {
    const schema = await createTestSchema();
    cleanups.push(() => schema.drop());
    store.searchPath = schema.schema;
  }
  log(`${engine}: migrating, seeding the demo and ${leadCount.toLocaleString('en-AU')} leads of ${slug}...`);
  const { seconds, matching } = await prepareStore(engine, store, slug, leadCount);
  log(`${engine}: ${leadCount} leads in ${seconds.toFixed(1)} s; starting the server...`);
  const server = await startServer(work, store);
  cleanups.push(() => server.stop());
  try {
    const client = await signIn(server.port, store);
    cleanups.push(async () => client.agent.destroy());
    log(`${engine}: signed in; ${warmup} warm-up and ${requests} timed requests per page...`);
    const pages = await timePages(client);
    // The leads of the last 36 days (about a tenth), then every lead.
    const sliceFrom = new Date(Date.now() - 36 * 86_400_000).toISOString().slice(0, 10);
    log(`${engine}: exporting the CSV of the leads since ${sliceFrom}, then of every lead...`);
    const slice = await exportCsv(client, server.pid, `?from=${sliceFrom}`);
    const csv = await exportCsv(client, server.pid);
    log(`${engine}: ${liveCount} live leads...`);
    const live = await liveLeads(client);
    await server.stop();
    const capped = await cappedExport(work, store);
    await cleanUp();
    return { engine, seeded: { seconds, matching }, pages, slice, csv, capped, live };
  } catch (error) {
    log(`${engine}: failed; the server's last output:\n${server.output()}`);
    throw error;
  }
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : '-');
const mb = (kb: number | undefined) => (kb !== undefined && Number.isFinite(kb) ? (kb / 1024).toFixed(0) : '-');
const yes = (met: boolean) => (met ? 'yes' : 'NO');
const n = (value: number) => Math.round(value).toLocaleString('en-AU');

function report(results: EngineResult[]) {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const bundle = consoleFirstLoadJs();
  const lines = [
    '',
    `Machine: ${cpu}, ${availableParallelism()} cores, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB, Node ${process.version}. Server ${useBuilt ? 'built' : 'from source (tsx)'} in its own process; one client over loopback.`,
    '',
    `Leads inbox of ${slug} with ${n(leadCount)} leads: ${warmup} warm-up then ${requests} sequential keep-alive requests per row, 50 leads a page` +
      ` (PostgreSQL analysed after the bulk load; SQLite as the server keeps it, no ANALYZE).`,
    '',
    '| engine | page | requests | p50 ms | p90 ms | p99 ms | max ms | errors | target | met |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|---|',
    ...results.flatMap((r) =>
      r.pages.map(
        (t) =>
          `| ${engineNames[r.engine]} | ${t.name} | ${t.count} | ${ms(t.p50)} | ${ms(t.p90)} | ${ms(t.p99)} | ${ms(t.max)} | ${t.errors} | p99 ≤ ${targets.pageP99Ms} ms | ${yes(t.met)} |`,
      ),
    ),
    '',
    `Seeding, then the CSV export (GET leads.csv, streamed; the server's RSS sampled every 50 ms): the leads of the last 36 days, every lead,` +
      ` then every lead again (with the live leads below) from a server restarted with its V8 heap capped at ${heapCapMb} MB (\`--max-old-space-size\`).` +
      ` Constant memory: the capped server streams every row. Uncapped, V8 lets garbage build up before collecting it, so RSS grows meanwhile.`,
    '',
    '| engine | leads seeded | seed s | export | rows | CSV MB | export s | rows/s | RSS before MB | peak RSS during MB | VmHWM after MB | constant memory |',
    '|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...results.flatMap(({ engine, seeded, slice, csv, capped, live }) => {
      const seed = `| ${engineNames[engine]} | ${n(leadCount)} (${n(seeded.matching)} with "${searchWord}") | ${seeded.seconds.toFixed(1)}`;
      const row = (name: string, run: Export, expected: number | null, verdict: string) =>
        `${seed} | ${name} | ${n(run.rows)}${expected === null || run.rows === expected ? '' : ` (expected ${n(expected)})`} | ${(run.bytes / 1024 ** 2).toFixed(1)} | ${run.seconds.toFixed(1)} | ${n(run.rows / run.seconds)} | ${mb(run.before?.rss)} | ${mb(run.peakRss)} | ${mb(run.hwmAfter)} | ${verdict} |`;
      const cappedName = `every lead, heap ≤ ${heapCapMb} MB`;
      return [
        row('last 36 days', slice, null, ''),
        row('every lead', csv, leadCount, ''),
        'error' in capped
          ? `${seed} | ${cappedName} | failed: ${capped.error.replace(/[|\n]/g, ' ')} | | | | | | | NO |`
          : row(cappedName, capped, leadCount + live.count + live.missed, yes(capped.rows === leadCount + live.count + live.missed)),
      ];
    }),
    '',
    `Live leads: POST /api/leads on ${slug}.localhost until its \`event: lead\` arrives on an open leads/events stream.`,
    '',
    '| engine | leads | p50 ms | max ms | missed (5 s) | target | met |',
    '|---|---:|---:|---:|---:|---|---|',
    ...results.map(
      ({ engine, live }) =>
        `| ${engineNames[engine]} | ${live.count} | ${ms(live.p50)} | ${ms(live.max)} | ${live.missed} | ≤ ${n(targets.liveMs)} ms | ${yes(live.met)} |`,
    ),
    '',
    '| console first-load JS | files | gzip KB | target | met |',
    '|---|---:|---:|---|---|',
    bundle
      ? `| console/dist/client/assets.json | ${bundle.files} | ${(bundle.bytes / 1024).toFixed(1)} | ≤ ${targets.firstLoadKb} KB | ${yes(bundle.bytes <= targets.firstLoadKb * 1024)} |`
      : `| not built (pnpm --filter @dealer/console build) | - | - | ≤ ${targets.firstLoadKb} KB | - |`,
    '',
  ];
  console.log(lines.join('\n'));
}

async function main() {
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      log(`${signal}: cleaning up`);
      void cleanUp().finally(() => process.exit(130));
    });
  const results: EngineResult[] = [];
  try {
    for (const engine of engines) results.push(await runEngine(engine));
  } finally {
    await cleanUp();
  }
  report(results);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
