/**
 * Durability: a load of lead creates while the BUILT server is killed with SIGKILL several times
 * and restarted. Every create that got a 2xx must be in the database afterwards (with its delivery
 * job), and no Idempotency-Key may have produced two leads: a create whose answer was lost to a
 * kill is sent again with the same key until it is answered.
 *
 * Runs `platform/server/dist/main.cjs` (built by `npm run build` / `npm test`, which builds first);
 * skipped, saying so, when it is not built or is older than the server sources (a stale bundle
 * would test old code). LEADS_DURABILITY_FROM_SOURCE=1 runs platform/server/src/main.ts through tsx
 * instead (for working on the pipeline without a build). About 20 s.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '@dealer/testing/free-port';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const builtServer = join(root, 'platform', 'server', 'dist', 'main.cjs');
const fromSource = process.env.LEADS_DURABILITY_FROM_SOURCE === '1';
const sourceServer = join(root, 'platform', 'server', 'src', 'main.ts');

/** The newest source the server bundle is built from (tests aside). */
function newestSourceMtime(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  for (const pkg of readdirSync(join(root, 'platform')))
    if (existsSync(join(root, 'platform', pkg, 'src'))) walk(join(root, 'platform', pkg, 'src'));
  for (const pkg of readdirSync(join(root, 'shared')))
    if (existsSync(join(root, 'shared', pkg, 'src'))) walk(join(root, 'shared', pkg, 'src'));
  return newest;
}

const built = existsSync(builtServer);
const stale = built && !fromSource && statSync(builtServer).mtimeMs < newestSourceMtime();
const available = fromSource || (built && !stale);
const skipReason = stale
  ? `SKIPPED: the built server ${builtServer} is older than the server sources; run "npm run build" (or set LEADS_DURABILITY_FROM_SOURCE=1)`
  : `SKIPPED: needs the built server at ${builtServer}; run "npm run build" first (or set LEADS_DURABILITY_FROM_SOURCE=1)`;

const kills = 4;
const clients = 8;
const loadMs = 14_000;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

type Answer = { key: string; id: number; status: number };

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** node:http, since fetch will not send a Host header of our choosing (the site is picked by it). */
function call(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((done, fail) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent, timeout: 5_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        try {
          done({ status: res.statusCode ?? 0, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} });
        } catch (error) {
          fail(error);
        }
      });
      res.on('error', fail);
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', fail);
    req.end(body);
  });
}

describe.runIf(available)('lead durability across SIGKILL (built server)', () => {
  const work = mkdtempSync(join(tmpdir(), 'lead-durability-'));
  let child: ChildProcess | null = null;
  let output = '';
  afterAll(() => {
    child?.kill('SIGKILL');
    agent.destroy();
    rmSync(work, { recursive: true, force: true });
  });

  it('keeps every acknowledged create and never makes two leads of one key', async () => {
    const port = await freePort();
    const dataDir = join(work, 'data');
    const clientDir = join(work, 'client');
    mkdirSync(clientDir, { recursive: true });
    writeFileSync(join(clientDir, 'assets.json'), JSON.stringify({ js: [], css: [] }));
    mkdirSync(join(work, 'remotes'), { recursive: true });
    const env = {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      REMOTES_DIR: join(work, 'remotes'),
      SHELL_CLIENT_DIR: clientDir,
      PLATFORM_ADMIN_KEY: 'durability-admin-key-0123456789',
      LOG_LEVEL: 'error',
      LEADS_RATE_LIMIT: '0',
      DATABASE_URL: '',
      MEILISEARCH_URL: '',
    };
    delete (env as Record<string, string | undefined>).DATABASE_URL;
    delete (env as Record<string, string | undefined>).MEILISEARCH_URL;
    const host = 'ridgeline-trucks.localhost';

    let up = false;
    const start = async () => {
      const args = fromSource ? ['--import', 'tsx', sourceServer] : ['--enable-source-maps', builtServer];
      child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
      child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) while starting:\n${output}`);
        try {
          const res = await call(port, 'GET', '/api/health', { host });
          if (res.status === 200) {
            up = true;
            return;
          }
        } catch {
          // not listening yet
        }
        await sleep(50);
      }
      throw new Error(`the server did not start within 20 s:\n${output}`);
    };
    const kill = async () => {
      const dying = child!;
      up = false;
      const exited = new Promise((done) => dying.once('exit', done));
      dying.kill('SIGKILL');
      await exited;
    };

    await start();
    // A build from before the lead pipeline would make this test's findings meaningless: say so.
    const probe = await call(port, 'POST', '/api/leads', { host, 'content-type': 'application/json' }, JSON.stringify({ lead: {} }));
    const probeCreate = await call(
      port,
      'POST',
      '/api/leads',
      { host, 'content-type': 'application/json', 'idempotency-key': 'durability-probe' },
      JSON.stringify({ lead: { category: 'General Enquiry', name: 'Probe', email: 'probe@example.com', phone: '0411222333' } }),
    );
    expect(probe.status).toBe(400);
    expect(typeof probeCreate.json.update_token, `${builtServer} predates the lead pipeline: rebuild it ("npm run build")`).toBe('string');

    const answers: Answer[] = [{ key: 'durability-probe', id: probeCreate.json.id as number, status: probeCreate.status }];
    const acknowledged = new Map<string, number>([['durability-probe', probeCreate.json.id as number]]);
    let sent = 0;
    let lostAnswers = 0;
    let next = 0;
    const stopAt = Date.now() + loadMs;

    /** Sends one create until it is answered: a lost answer (the server died) is sent again with the same key. */
    const createUntilAnswered = async (key: string, name: string): Promise<Answer> => {
      const body = JSON.stringify({
        lead: {
          category: 'General Enquiry',
          name,
          email: `${name.toLowerCase()}@example.com`,
          phone: '0411222333',
          message: `Durability ${key}`,
        },
      });
      for (let attempt = 0; ; attempt++) {
        if (!up) {
          await sleep(25);
          continue;
        }
        sent += 1;
        try {
          const res = await call(port, 'POST', '/api/leads', { host, 'content-type': 'application/json', 'idempotency-key': key }, body);
          if (res.status >= 500) throw new Error(`server error ${res.status}`);
          if (res.status !== 200 && res.status !== 201) throw new Error(`unexpected ${res.status}: ${String(res.json.message)}`);
          return { key, id: res.json.id as number, status: res.status };
        } catch (error) {
          if ((error as Error).message.startsWith('unexpected')) throw error;
          lostAnswers += 1;
          if (attempt > 400)
            throw new Error(`no answer for ${key} after ${attempt} attempts: ${(error as Error).message}\n${output}`, { cause: error });
          await sleep(20);
        }
      }
    };

    const client = async (index: number) => {
      while (Date.now() < stopAt) {
        const n = next++;
        // Every seventh create is a deliberate retry of one already answered: same key, same body.
        const candidates = n % 7 === 6 ? [...acknowledged.keys()].filter((key) => key.startsWith('durable-')) : [];
        const earlier = candidates[Math.floor(Math.random() * candidates.length)];
        const key = earlier ?? `durable-${index}-${n}`;
        const name = `Shopper${key.replace(/\D/g, '').slice(0, 12)}`.replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!);
        const answer = await createUntilAnswered(key, name);
        answers.push(answer);
        const first = acknowledged.get(key);
        if (first === undefined) acknowledged.set(key, answer.id);
        else expect(answer.id, `a retry of ${key} answered another lead`).toBe(first);
      }
    };

    const killer = async () => {
      for (let round = 0; round < kills; round++) {
        await sleep(1_200 + Math.random() * 1_200);
        await kill();
        await sleep(100);
        await start();
      }
    };

    await Promise.all([killer(), ...Array.from({ length: clients }, (_, index) => client(index))]);
    await kill();

    const db = new SQLite(join(dataDir, 'platform.sqlite'), { readonly: true });
    try {
      const rows = db.prepare('SELECT id, idempotency_key AS key FROM leads WHERE idempotency_key IS NOT NULL').all() as {
        id: number;
        key: string;
      }[];
      const byKey = new Map<string, number[]>();
      for (const row of rows) byKey.set(row.key, [...(byKey.get(row.key) ?? []), row.id]);
      const jobs = new Set(
        (db.prepare('SELECT DISTINCT lead_id FROM lead_delivery_jobs').all() as { lead_id: number }[]).map((row) => row.lead_id),
      );

      // No key made two leads.
      expect([...byKey.values()].filter((ids) => ids.length > 1)).toEqual([]);
      // Every 2xx is in the database, under its key, with its delivery job.
      for (const answer of answers) {
        expect(byKey.get(answer.key), `lead of ${answer.key} (answered ${answer.status} id ${answer.id})`).toEqual([answer.id]);
        expect(jobs.has(answer.id), `delivery job of lead ${answer.id}`).toBe(true);
      }
      // And nothing else: every create was sent until answered, so every stored lead was acknowledged.
      expect(byKey.size).toBe(acknowledged.size);
      expect(acknowledged.size).toBeGreaterThan(200);
      expect(answers.some((answer) => answer.status === 200)).toBe(true);
      console.log(
        `durability: ${acknowledged.size} leads acknowledged (${answers.length} answers, ${sent} requests, ${lostAnswers} lost to ${kills} SIGKILLs and resent), ${rows.length} leads stored`,
      );
    } finally {
      db.close();
    }
  }, 60_000);
});

if (!available) {
  describe('lead durability across SIGKILL', () => {
    it.skip(skipReason, () => {});
  });
}
