/**
 * Lead create bench: `POST /api/leads` over HTTP on loopback against the real server process (its
 * own process, as in production: the outbox worker runs in it and writes each lead's ADF file as
 * it goes), on SQLite and on PostgreSQL. Per engine, two runs:
 *   - paced at the target rate (open loop: creates sent on schedule, latency counted from when
 *     each was due), which answers "this many a second with this p99";
 *   - several keep-alive clients flat out (closed loop), the sustained maximum.
 * Every create is a complete, valid enquiry with its own Idempotency-Key, committed with its
 * delivery job before its 2xx. Prints a markdown table.
 *
 *   tsx bench/leads-bench.ts [--duration=10] [--clients=16] [--engines=sqlite,postgres] [--quick] [--built]
 *
 * The server runs from source through tsx, or `--built` from platform/server/dist/main.cjs.
 * PostgreSQL: TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test, in a throwaway schema.
 * Targets (2-core machine): SQLite >= 1,000 creates/s with p99 <= 20 ms; PostgreSQL >= 500/s.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '@dealer/db/database';
import { createTestSchema, testDatabaseUrl } from '@dealer/testing/postgres';
import { freePort } from '@dealer/testing/free-port';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key!, value ?? 'true'] as const;
  }),
);
const quick = args.has('quick');
const durationMs = Number(args.get('duration') ?? (quick ? 3 : 10)) * 1000;
const warmupMs = quick ? 500 : 1500;
const clients = Number(args.get('clients') ?? 16);
const engines = (args.get('engines') ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
const useBuilt = args.has('built');
const host = 'ridgeline-trucks.localhost';
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

function call(agent: Agent, port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<number> {
  return new Promise((done, fail) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(body);
  });
}

type Server = { port: number; stop(): Promise<void> };

type Outbox = { jobs: number; delivered: number };

async function startServer(
  engine: 'sqlite' | 'postgres',
  work: string,
): Promise<Server & { dropSchema?: () => Promise<void>; outbox: () => Promise<Outbox> }> {
  const port = await freePort();
  const clientDir = join(work, 'client');
  mkdirSync(clientDir, { recursive: true });
  writeFileSync(join(clientDir, 'assets.json'), JSON.stringify({ js: [], css: [] }));
  mkdirSync(join(work, 'remotes'), { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: join(work, 'data'),
    REMOTES_DIR: join(work, 'remotes'),
    SHELL_CLIENT_DIR: clientDir,
    PLATFORM_ADMIN_KEY: 'bench-admin-key-0123456789',
    LOG_LEVEL: 'warn',
    // The bench is one client address sending thousands of creates: the per-IP limit would stop it,
    // and its up to 256 sockets the per-address connection cap.
    LEADS_RATE_LIMIT: '0',
    HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0',
  };
  delete env.DATABASE_URL;
  delete env.MEILISEARCH_URL;
  let dropSchema: (() => Promise<void>) | undefined;
  let searchPath: string | undefined;
  if (engine === 'postgres') {
    const schema = await createTestSchema();
    const url = new URL(testDatabaseUrl);
    url.searchParams.set('options', `-c search_path=${schema.schema}`);
    env.DATABASE_URL = url.toString();
    dropSchema = () => schema.drop();
    searchPath = schema.schema;
  }
  const nodeArgs = (process.env.LEADS_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const argv = useBuilt
    ? ['--enable-source-maps', join(root, 'platform/server/dist/main.cjs')]
    : ['--import', 'tsx', join(root, 'platform/server/src/main.ts')];
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, ...argv], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const agent = new Agent({ keepAlive: true });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the ${engine} server exited while starting:\n${output}`);
    if ((await call(agent, port, 'GET', '/api/health', { host }).catch(() => 0)) === 200) break;
    await sleep(100);
  }
  agent.destroy();
  if (Date.now() >= deadline) throw new Error(`the ${engine} server did not start:\n${output}`);
  /** How far the outbox worker (in the server) has got: jobs delivered of all jobs. */
  const outbox = async (): Promise<Outbox> => {
    const { db } = openDatabase({
      dataDir: join(work, 'data'),
      databaseUrl: env.DATABASE_URL ? testDatabaseUrl : null,
      pgSearchPath: searchPath,
    });
    try {
      const rows = await db
        .selectFrom('lead_delivery_jobs')
        .select(['status', (eb) => eb.fn.countAll().as('n')])
        .groupBy('status')
        .execute();
      const count = (status?: string) =>
        rows.filter((row) => !status || row.status === status).reduce((sum, row) => sum + Number(row.n), 0);
      return { jobs: count(), delivered: count('delivered') };
    } finally {
      await db.destroy();
    }
  };
  return {
    port,
    dropSchema,
    outbox,
    stop: async () => {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(5000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

type Result = {
  engine: string;
  mode: string;
  outbox?: Outbox;
  creates: number;
  perSecond: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  errors: number;
  met: boolean;
  target: string;
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

let sequence = 0;
/** A complete, valid enquiry with its own Idempotency-Key. */
function nextCreate(): { body: string; headers: Record<string, string> } {
  const n = sequence++;
  const body = JSON.stringify({
    lead: {
      category: 'General Enquiry',
      name: 'Bench',
      last_name: 'Shopper',
      email: `bench${n}@example.com`,
      phone: '0411222333',
      postcode: '2000',
      message: 'Is this vehicle still available? I would like to book a test drive this weekend.',
      opt_in: true,
      url: 'https://ridgeline.example/cars/isuzu-d-max',
      visited_pages: ['/', '/search', '/cars/isuzu-d-max'],
      linked_query_params: { utm_source: 'bench' },
    },
  });
  return {
    body,
    headers: { host, 'content-type': 'application/json', 'idempotency-key': `bench-${process.pid}-${n}`, 'user-agent': 'leads-bench' },
  };
}

function summarise(latencies: number[], errors: number, seconds: number) {
  const sorted = latencies.sort((a, b) => a - b);
  return {
    creates: sorted.length,
    perSecond: sorted.length / seconds,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? NaN,
    errors,
  };
}

/** Closed loop: `clients` keep-alive clients, each sending its next create when the last is answered. Gives the sustained maximum. */
async function saturate(port: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const latencies: number[] = [];
  let errors = 0;
  const measureFrom = performance.now() + warmupMs;
  const stopAt = measureFrom + durationMs;
  const client = async () => {
    while (performance.now() < stopAt) {
      const { body, headers } = nextCreate();
      const t0 = performance.now();
      const status = await call(agent, port, 'POST', '/api/leads', headers, body).catch(() => 0);
      const t1 = performance.now();
      if (t0 < measureFrom || t1 > stopAt) continue;
      if (status === 201) latencies.push(t1 - t0);
      else errors += 1;
    }
  };
  await Promise.all(Array.from({ length: clients }, () => client()));
  agent.destroy();
  return summarise(latencies, errors, durationMs / 1000);
}

/**
 * Open loop: creates sent on a fixed schedule (`rate` a second) whatever the answers, each
 * latency counted from when it was due, so a stall shows in the percentiles instead of
 * slowing the load down (no coordinated omission). Answers the target as asked: this rate, this p99.
 */
async function paced(port: number, rate: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const measureFrom = start + warmupMs;
  const stopAt = measureFrom + durationMs;
  const inFlight = new Set<Promise<void>>();
  let due = 0;
  while (performance.now() < stopAt) {
    const now = performance.now();
    while (start + (due * 1000) / rate <= now) {
      const scheduled = start + (due * 1000) / rate;
      due += 1;
      const { body, headers } = nextCreate();
      const sent: Promise<void> = call(agent, port, 'POST', '/api/leads', headers, body)
        .catch(() => 0)
        .then((status) => {
          const done = performance.now();
          if (scheduled >= measureFrom && scheduled < stopAt) {
            if (status === 201) latencies.push(done - scheduled);
            else errors += 1;
          }
          inFlight.delete(sent);
        });
      inFlight.add(sent);
    }
    await sleep(1);
  }
  await Promise.all(inFlight);
  agent.destroy();
  return summarise(latencies, errors, durationMs / 1000);
}

const targets = {
  sqlite: { name: 'SQLite', rate: 1000, p99: 20 },
  postgres: { name: 'PostgreSQL', rate: 500, p99: null as number | null },
};

async function main() {
  const results: Result[] = [];
  for (const engine of engines) {
    const work = mkdtempSync(join(tmpdir(), `leads-bench-${engine}-`));
    let server: Awaited<ReturnType<typeof startServer>> | null = null;
    const target = targets[engine];
    try {
      process.stderr.write(`[leads-bench] starting the ${engine} server...\n`);
      server = await startServer(engine, work);
      process.stderr.write(
        `[leads-bench] ${engine}: paced at ${target.rate}/s, then ${clients} clients flat out; ${warmupMs} ms warm-up, ${durationMs} ms measured each\n`,
      );
      const atRate = await paced(server.port, target.rate);
      // Whether the worker kept up with the paced load: what it had delivered when the load stopped.
      const atRateOutbox = await server.outbox();
      const atRateTarget = `${target.rate.toLocaleString('en-AU')}/s${target.p99 ? ` with p99 ≤ ${target.p99} ms` : ''}`;
      results.push({
        engine: target.name,
        mode: `paced at ${target.rate.toLocaleString('en-AU')}/s (open loop)`,
        ...atRate,
        outbox: atRateOutbox,
        target: atRateTarget,
        met: atRate.errors === 0 && atRate.perSecond >= target.rate * 0.98 && (target.p99 === null || atRate.p99 <= target.p99),
      });
      const max = await saturate(server.port);
      results.push({
        engine: target.name,
        mode: `${clients} clients flat out (closed loop)`,
        ...max,
        outbox: await server.outbox(),
        target: `≥ ${target.rate.toLocaleString('en-AU')}/s`,
        met: max.errors === 0 && max.perSecond >= target.rate,
      });
    } finally {
      await server?.stop();
      await server?.dropSchema?.().catch(() => undefined);
      rmSync(work, { recursive: true, force: true });
    }
  }
  const ms = (value: number) => value.toFixed(1);
  const lines = [
    '',
    `Lead creates over HTTP (loopback; ${durationMs / 1000} s measured per row after ${warmupMs / 1000} s warm-up; server ${useBuilt ? 'built' : 'from source'} in its own process, outbox worker on)`,
    '',
    '| engine | load | creates | creates/s | p50 ms | p90 ms | p99 ms | max ms | errors | outbox delivered by the end | target | met |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
    ...results.map(
      (r) =>
        `| ${r.engine} | ${r.mode} | ${r.creates} | ${Math.round(r.perSecond).toLocaleString('en-AU')} | ${ms(r.p50)} | ${ms(r.p90)} | ${ms(r.p99)} | ${ms(r.max)} | ${r.errors} | ${r.outbox ? `${r.outbox.delivered} of ${r.outbox.jobs}` : '-'} | ${r.target} | ${r.met ? 'yes' : 'NO'} |`,
    ),
    '',
  ];
  console.log(lines.join('\n'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
