/**
 * Checkout bench (issue 10): shoppers racing to reserve the same car. Against the real server
 * process on loopback (its own process, as in production), on SQLite and on PostgreSQL:
 *   - `--cars` reservable cars (in stock, shown on the website, with a deposit) taken in turn from
 *     every demo site that takes deposits;
 *   - for each car `--racers` shoppers send `POST /api/cars/:slug/reservations` at once, each from
 *     an address of its own (X-Forwarded-For, believed from the loopback proxy);
 *   - once every racer is answered, the one winner pays with the test card
 *     (`POST /api/reservations/:id/test-payment` with its X-Reservation-Token);
 *   - `--parallel-cars` cars race at a time (so `parallel-cars × racers` holds in flight; 1 runs
 *     the cars in sequence).
 * Then checks: every car exactly 1 winner (201) and racers-1 refusals (409), every winner
 * reserved, one reservation per car in the store (all reserved), one 'Reserve Enquiry' lead per
 * car, every car marked reserved. Prints a markdown table; exits non-zero when a check fails.
 *
 *   tsx bench/checkout-bench.ts [--cars=100] [--racers=50] [--parallel-cars=4] [--engine=sqlite|postgres|both] [--built]
 *
 * The server runs from source through tsx, or `--built` from platform/server/dist/main.cjs.
 * PostgreSQL: TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test, in a throwaway schema.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Car } from '../shared/contracts/src/car';
import type { SiteConfig } from '../shared/contracts/src/site';
import { validatePhone, phoneRuleFor } from '../shared/rules/src/phone';
import { canReserve, siteTakesDeposits } from '../shared/rules/src/reserve';
import { depositFor, reservationLeadCategory } from '../shared/rules/src/reservation';
import { findCarById, listSiteCars } from '@dealer/db/car-store';
import { openDatabase, type PlatformDb } from '@dealer/db/database';
import { listSiteSlugs, loadSiteConfig } from '@dealer/db/site-store';
import { createTestSchema, testDatabaseUrl } from '@dealer/testing/postgres';
import { freePort } from '@dealer/testing/free-port';

type Engine = 'sqlite' | 'postgres';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key!, value ?? 'true'] as const;
  }),
);
const known = new Set(['cars', 'racers', 'parallel-cars', 'engine', 'built']);
for (const key of args.keys()) {
  if (!known.has(key))
    throw new Error(`Unknown flag --${key}. Flags: --cars=100 --racers=50 --parallel-cars=4 --engine=sqlite|postgres|both --built`);
}
const whole = (name: string, fallback: number) => {
  const value = Number(args.get(name) ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number of 1 or more`);
  return value;
};
const carCount = whole('cars', 100);
const racers = whole('racers', 50);
const parallelCars = whole('parallel-cars', 4);
const engineFlag = args.get('engine') ?? 'both';
if (!['sqlite', 'postgres', 'both'].includes(engineFlag)) throw new Error('--engine must be sqlite, postgres or both');
const engines: Engine[] = engineFlag === 'both' ? ['sqlite', 'postgres'] : [engineFlag as Engine];
const useBuilt = args.has('built');
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

type Answer = { status: number; body: string };

function call(agent: Agent, port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((done, fail) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(body);
  });
}

type Server = { port: number; db: PlatformDb; stop(): Promise<void> };

async function startServer(engine: Engine, work: string): Promise<Server> {
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
    PAYMENTS: 'test',
    // Each racer says its own address through the loopback "proxy"; the per-address limits are off (as in the e2e run),
    // and so is the limit of holds one person may have (a site's racers share one phone number).
    TRUSTED_PROXIES: '127.0.0.1',
    LEADS_RATE_LIMIT: '0',
    RESERVATION_HOLDS_PER_PERSON: '0',
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
  const argv = useBuilt
    ? ['--enable-source-maps', join(root, 'platform/server/dist/main.cjs')]
    : ['--import', 'tsx', join(root, 'platform/server/src/main.ts')];
  const child: ChildProcess = spawn(process.execPath, argv, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(5000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    await dropSchema?.().catch(() => undefined);
  };
  const agent = new Agent({ keepAlive: true });
  const deadline = Date.now() + 60_000;
  let up = false;
  while (Date.now() < deadline && !up) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the ${engine} server exited while starting:\n${output}`);
    }
    up = (await call(agent, port, 'GET', '/api/health', { host: 'localhost' }).catch(() => ({ status: 0 }))).status === 200;
    if (!up) await sleep(100);
  }
  agent.destroy();
  if (!up) {
    await stop();
    throw new Error(`the ${engine} server did not start:\n${output}`);
  }
  // The bench's own connection to the server's store: to pick the cars and check the outcome.
  const { db } = openDatabase({
    dataDir: join(work, 'data'),
    databaseUrl: env.DATABASE_URL ? testDatabaseUrl : null,
    pgSearchPath: searchPath,
  });
  return {
    port,
    db,
    stop: async () => {
      await db.destroy();
      await stop();
    },
  };
}

type Target = { site: SiteConfig; car: Car; phone: string };

const phoneOfLocale: Record<SiteConfig['locale'], string> = { 'en-AU': '0411 222 333', 'en-NZ': '021 123 4567', 'en-US': '(212) 555-0123' };

/** `count` cars a shopper can reserve online, one from each deposit-taking demo site in turn. */
async function pickCars(db: PlatformDb, count: number): Promise<Target[]> {
  const perSite: Target[][] = [];
  for (const row of await listSiteSlugs(db)) {
    const site = await loadSiteConfig(db, row.id);
    if (!site || !siteTakesDeposits(site)) continue;
    const phone = phoneOfLocale[site.locale];
    const phoneProblem = validatePhone(phone, phoneRuleFor(site));
    if (phoneProblem) throw new Error(`The bench's phone number for ${site.slug} is refused: ${phoneProblem}`);
    const cars = (await listSiteCars(db, row.id)).filter(
      (car) => car.show_on_dealer_website && canReserve(car, { siteSupportsOnlinePayment: true }).ok && depositFor(car, site.locale),
    );
    perSite.push(cars.map((car) => ({ site, car, phone })));
  }
  const picked: Target[] = [];
  for (let round = 0; picked.length < count && perSite.some((cars) => round < cars.length); round += 1) {
    for (const cars of perSite) if (round < cars.length && picked.length < count) picked.push(cars[round]!);
  }
  if (picked.length < count)
    throw new Error(`Only ${picked.length} reservable cars in the demo data; ask for --cars=${picked.length} or fewer.`);
  return picked;
}

/** A letters-only name (the checkout takes alphabetical names only) for shopper n. */
const nameOf = (n: number) => {
  let name = '';
  let rest = n;
  do {
    name = String.fromCharCode(97 + (rest % 26)) + name;
    rest = Math.floor(rest / 26);
  } while (rest > 0);
  return `Racer${name}`;
};
/** Shopper n's own address, from 10.0.0.0/8. */
const addressOf = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

type RaceOutcome = {
  car: Target;
  holdMs: number[];
  statuses: Map<number, number>;
  payMs: number | null;
  paidState: string | null;
  problems: string[];
};

let shopperCount = 0;

/** `racers` shoppers hold one car at once; once all are answered the winner pays with the test card. */
async function race(agent: Agent, port: number, target: Target): Promise<RaceOutcome> {
  const host = `${target.site.slug}.localhost`;
  const path = `/api/cars/${target.car.slug}/reservations`;
  const shoppers = Array.from({ length: racers }, () => shopperCount++);
  const holdMs: number[] = [];
  const problems: string[] = [];
  const answers = await Promise.all(
    shoppers.map(async (n) => {
      const body = JSON.stringify({
        first_name: nameOf(n),
        last_name: 'Bench',
        email: `racer${n}@example.com`,
        phone: target.phone,
        terms_accepted: true,
      });
      const t0 = performance.now();
      const answer = await call(
        agent,
        port,
        'POST',
        path,
        { host, 'content-type': 'application/json', 'x-forwarded-for': addressOf(n), 'user-agent': 'checkout-bench' },
        body,
      ).catch((error: unknown): Answer => ({ status: 0, body: String(error) }));
      holdMs.push(performance.now() - t0);
      return answer;
    }),
  );
  const statuses = new Map<number, number>();
  for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
  const winners = answers.filter((answer) => answer.status === 201);
  if (winners.length !== 1) problems.push(`${target.site.slug}/${target.car.slug}: ${winners.length} winners`);
  if ((statuses.get(409) ?? 0) !== racers - 1)
    problems.push(
      `${target.site.slug}/${target.car.slug}: ${statuses.get(409) ?? 0} refusals (409) of ${racers - 1}; answers ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
  const odd = answers.find((answer) => answer.status !== 201 && answer.status !== 409);
  if (odd) problems.push(`${target.site.slug}/${target.car.slug}: e.g. ${odd.status} ${odd.body.slice(0, 200)}`);
  let payMs: number | null = null;
  let paidState: string | null = null;
  const winner = winners[0];
  if (winner) {
    const held = JSON.parse(winner.body) as { reservation: { id: number }; token: string };
    const t0 = performance.now();
    const paid = await call(
      agent,
      port,
      'POST',
      `/api/reservations/${held.reservation.id}/test-payment`,
      {
        host,
        'content-type': 'application/json',
        'x-reservation-token': held.token,
        'x-forwarded-for': addressOf(shoppers[0]!),
        'user-agent': 'checkout-bench',
      },
      JSON.stringify({ card_number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' }),
    ).catch((error: unknown): Answer => ({ status: 0, body: String(error) }));
    payMs = performance.now() - t0;
    paidState = paid.status === 200 ? (JSON.parse(paid.body) as { reservation: { state: string } }).reservation.state : null;
    if (paidState !== 'reserved')
      problems.push(`${target.site.slug}/${target.car.slug}: the winner's payment answered ${paid.status} ${paid.body.slice(0, 200)}`);
  }
  return { car: target, holdMs, statuses, payMs, paidState, problems };
}

/** What the store says after the run: reservations, dealer leads and cars marked reserved. */
async function storeChecks(db: PlatformDb, targets: Target[]): Promise<{ lines: string[]; problems: string[] }> {
  const byState = await db
    .selectFrom('reservations')
    .select(['state', (eb) => eb.fn.countAll().as('n')])
    .groupBy('state')
    .execute();
  const reservations = byState.reduce((sum, row) => sum + Number(row.n), 0);
  const reserved = Number(byState.find((row) => row.state === 'reserved')?.n ?? 0);
  const perCar = await db
    .selectFrom('reservations')
    .select(['car_id', (eb) => eb.fn.countAll().as('n')])
    .groupBy('car_id')
    .execute();
  const carsWithOne = perCar.filter((row) => Number(row.n) === 1).length;
  const leads = Number(
    (
      await db
        .selectFrom('leads')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('category', '=', reservationLeadCategory)
        .executeTakeFirst()
    )?.n ?? 0,
  );
  const linked = Number(
    (
      await db
        .selectFrom('reservations')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('lead_id', 'is not', null)
        .executeTakeFirst()
    )?.n ?? 0,
  );
  let carsReserved = 0;
  for (const target of targets) if ((await findCarById(db, target.car.id))?.car.reserved) carsReserved += 1;
  const want = targets.length;
  const problems: string[] = [];
  if (reservations !== want || reserved !== want)
    problems.push(`store: ${reservations} reservations (${reserved} reserved), expected ${want} reserved`);
  if (carsWithOne !== want) problems.push(`store: ${carsWithOne} cars with exactly one reservation, expected ${want}`);
  if (leads !== want || linked !== want)
    problems.push(`store: ${leads} '${reservationLeadCategory}' leads (${linked} linked to their reservation), expected ${want}`);
  if (carsReserved !== want) problems.push(`store: ${carsReserved} of the ${want} cars marked reserved`);
  return {
    lines: [
      `reservations in the store: ${reservations} (${byState.map((row) => `${row.n} ${row.state}`).join(', ') || 'none'}), ${carsWithOne} of ${want} cars with exactly one`,
      `'${reservationLeadCategory}' leads: ${leads} (${linked} reservations linked to theirs)`,
      `cars marked reserved: ${carsReserved} of ${want}`,
    ],
    problems,
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

type Result = {
  engine: string;
  holds: number;
  wallSeconds: number;
  paid: number;
  hold: { p50: number; p95: number; p99: number; max: number };
  pay: { p50: number; p99: number };
  winnersOk: number;
  problems: string[];
};

async function runEngine(engine: Engine): Promise<Result> {
  const name = engine === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const work = mkdtempSync(join(tmpdir(), `checkout-bench-${engine}-`));
  let server: Server | null = null;
  try {
    process.stderr.write(`[checkout-bench] starting the ${engine} server...\n`);
    server = await startServer(engine, work);
    const targets = await pickCars(server.db, carCount);
    const sites = new Set(targets.map((target) => target.site.slug));
    process.stderr.write(
      `[checkout-bench] ${engine}: ${targets.length} cars on ${sites.size} sites, ${racers} racers each, ${parallelCars} car(s) at a time\n`,
    );
    const agent = new Agent({ keepAlive: true, maxSockets: parallelCars * racers + parallelCars });
    const outcomes: RaceOutcome[] = [];
    let next = 0;
    const started = performance.now();
    // `parallelCars` lanes, each racing its next car as soon as its last one is paid.
    await Promise.all(
      Array.from({ length: Math.min(parallelCars, targets.length) }, async () => {
        while (next < targets.length) {
          const target = targets[next++]!;
          outcomes.push(await race(agent, server!.port, target));
          if (outcomes.length % 10 === 0 || outcomes.length === targets.length)
            process.stderr.write(`\r[checkout-bench] ${engine}: ${outcomes.length}/${targets.length} cars`);
        }
      }),
    );
    const wallSeconds = (performance.now() - started) / 1000;
    process.stderr.write('\n');
    agent.destroy();
    const holdMs = outcomes.flatMap((outcome) => outcome.holdMs).sort((a, b) => a - b);
    const payMs = outcomes.flatMap((outcome) => (outcome.payMs === null ? [] : [outcome.payMs])).sort((a, b) => a - b);
    const paid = outcomes.filter((outcome) => outcome.paidState === 'reserved').length;
    const winnersOk = outcomes.filter((outcome) => outcome.statuses.get(201) === 1 && outcome.statuses.get(409) === racers - 1).length;
    const store = await storeChecks(server.db, targets);
    const problems = [...outcomes.flatMap((outcome) => outcome.problems), ...store.problems];
    console.log(
      [
        `${name}:`,
        `  races with exactly 1 winner (201) and ${racers - 1} refusals (409): ${winnersOk} of ${targets.length}`,
        `  winners paid and reserved: ${paid} of ${targets.length}`,
        ...store.lines.map((line) => `  ${line}`),
        ...problems.slice(0, 20).map((problem) => `  FAILED ${problem}`),
        ...(problems.length > 20 ? [`  ... and ${problems.length - 20} more`] : []),
      ].join('\n'),
    );
    return {
      engine: name,
      holds: holdMs.length,
      wallSeconds,
      paid,
      hold: {
        p50: percentile(holdMs, 50),
        p95: percentile(holdMs, 95),
        p99: percentile(holdMs, 99),
        max: holdMs[holdMs.length - 1] ?? NaN,
      },
      pay: { p50: percentile(payMs, 50), p99: percentile(payMs, 99) },
      winnersOk,
      problems,
    };
  } finally {
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

async function main() {
  const results: Result[] = [];
  for (const engine of engines) results.push(await runEngine(engine));
  const ms = (value: number) => value.toFixed(1);
  const rate = (value: number) => (value >= 100 ? Math.round(value).toLocaleString('en-AU') : value.toFixed(1));
  const lanes =
    parallelCars === 1
      ? 'cars raced in sequence'
      : `${parallelCars} cars racing at a time (up to ${parallelCars * racers} holds in flight)`;
  console.log(
    [
      '',
      `Reserve-a-car races over HTTP (loopback; ${carCount} cars × ${racers} racers; ${lanes}; the winner pays with the test card once its race is answered; server ${useBuilt ? 'built' : 'from source'} in its own process)`,
      '',
      '| engine | hold attempts | wall s | hold attempts/s | reservations/s | hold p50 ms | hold p95 ms | hold p99 ms | hold max ms | pay p50 ms | pay p99 ms | races right | checks |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
      ...results.map(
        (r) =>
          `| ${r.engine} | ${r.holds} | ${r.wallSeconds.toFixed(2)} | ${rate(r.holds / r.wallSeconds)} | ${rate(r.paid / r.wallSeconds)} | ${ms(r.hold.p50)} | ${ms(r.hold.p95)} | ${ms(r.hold.p99)} | ${ms(r.hold.max)} | ${ms(r.pay.p50)} | ${ms(r.pay.p99)} | ${r.winnersOk}/${carCount} | ${r.problems.length === 0 ? 'pass' : `FAIL (${r.problems.length})`} |`,
      ),
      '',
    ].join('\n'),
  );
  if (results.some((r) => r.problems.length > 0)) process.exit(1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
