/**
 * The platform server as the benches run it: its own process on a free port, from source (tsx) or
 * built, on a store the bench prepared; a dealer console user signed in over HTTP (code by mail,
 * read from `console_mail`); the server's memory read from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PlatformDb } from '@dealer/db/database';
import { testDatabaseUrl } from '@dealer/testing/postgres';
import { freePort } from '@dealer/testing/free-port';
import { openStore, type StoreAddress } from './console-data';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

export type Server = { port: number; pid: number; output: () => string; stop(): Promise<void> };

export async function startPlatform(opts: {
  work: string;
  store: StoreAddress;
  /** A site whose host the health check asks. */
  slug: string;
  useBuilt: boolean;
  nodeFlags?: string[];
  env?: NodeJS.ProcessEnv;
}): Promise<Server> {
  const { work, store, slug, useBuilt, nodeFlags = [] } = opts;
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
    DATA_DIR: store.dataDir,
    REMOTES_DIR: join(work, 'remotes'),
    SHELL_CLIENT_DIR: clientDir,
    PLATFORM_ADMIN_KEY: 'bench-admin-key-0123456789',
    LOG_LEVEL: 'warn',
    // One client address sends every create and sign-in: the per-IP limits would stop it.
    LEADS_RATE_LIMIT: '0',
    HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0',
    ...opts.env,
  };
  delete env.DATABASE_URL;
  delete env.MEILISEARCH_URL;
  delete env.SMTP_URL;
  if (store.searchPath) {
    const url = new URL(testDatabaseUrl);
    url.searchParams.set('options', `-c search_path=${store.searchPath}`);
    env.DATABASE_URL = url.toString();
  }
  const argv = useBuilt
    ? [...nodeFlags, '--enable-source-maps', join(root, 'platform/server/dist/main.cjs')]
    : [...nodeFlags, '--import', 'tsx', join(root, 'platform/server/src/main.ts')];
  const child: ChildProcess = spawn(process.execPath, argv, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const server: Server = {
    port,
    pid: child.pid!,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(5000)]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
  const agent = new Agent({ keepAlive: false });
  const deadline = Date.now() + 120_000;
  try {
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`the server exited while starting:\n${output}`);
      const health = await call(agent, port, 'GET', '/api/health', { host: `${slug}.localhost:${port}` }).catch(() => null);
      if (health?.status === 200) return server;
      await sleep(100);
    }
    throw new Error(`the server did not start in 120 s:\n${output}`);
  } catch (error) {
    await server.stop();
    throw error;
  } finally {
    agent.destroy();
  }
}

export type Answer = { status: number; body: string; headers: IncomingMessage['headers'] };

export function call(
  agent: Agent,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((done, fail) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(body);
  });
}

export type Console = { port: number; agent: Agent; headers: Record<string, string>; base: string };

/** The newest sign-in code mailed to the address: from the mail's body, or its subject once the outbox worker sent it (which erases the body). */
async function mailedCode(db: PlatformDb, email: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const row = await db
      .selectFrom('console_mail')
      .select(['body', 'subject'])
      .where('email', '=', email)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    const code = row?.body.match(/^\s{4}(\d{6})$/m)?.[1] ?? row?.subject.match(/(\d{6})\s*$/)?.[1];
    if (code) return code;
    await sleep(50);
  }
  throw new Error(`no sign-in code mailed to ${email}`);
}

export async function signInToConsole(port: number, store: StoreAddress, email: string, slug: string): Promise<Console> {
  const host = `console.localhost:${port}`;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const post = (path: string, body: object) =>
    call(agent, port, 'POST', path, { host, origin: `http://${host}`, 'content-type': 'application/json' }, JSON.stringify(body));
  const asked = await post('/api/console/auth/code', { email });
  if (asked.status !== 202) throw new Error(`asking a code for ${email}: ${asked.status} ${asked.body}`);
  const { db } = openStore(store);
  let code: string;
  try {
    code = await mailedCode(db, email);
  } finally {
    await db.destroy();
  }
  const verified = await post('/api/console/auth/verify', { email, code });
  if (verified.status !== 200) throw new Error(`verifying ${email}: ${verified.status} ${verified.body}`);
  const cookie = [verified.headers['set-cookie']]
    .flat()
    .find((c) => c?.startsWith('dc_session='))
    ?.split(';')[0];
  if (!cookie) throw new Error('the verify answer set no dc_session cookie');
  return { port, agent, headers: { host, cookie }, base: `/api/console/sites/${slug}` };
}

/** The server's resident memory now and at its highest so far (kB), from /proc; null elsewhere. */
export function memoryOf(pid: number): { rss: number; hwm: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return null;
  }
}
