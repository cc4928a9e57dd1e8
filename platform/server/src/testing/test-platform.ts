import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { exposedModules, federationName, remoteNames, type RemoteName } from '@dealer/contracts/remote-modules';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase } from '@dealer/db/database';
import type { PlatformContext } from '../platform-context';
import { createPlatform } from '../platform';
import type { RemoteManifest } from '../remotes/remote-registry';
import { seedDemoDataIfEmpty } from '@dealer/demo/seed-database';
import { createTestSchema, type TestSchema } from '@dealer/testing/postgres';
import type { Deliver } from '@dealer/leads/outbox-worker';

export const testAdminKey = 'test-admin-key-0123456789';
export const testSearchKeySecret = 'test-search-key-secret-0123456789';
export const testSearchAdminKey = 'test-search-admin-key-0123456789';
/** The version every fake remote publishes as its latest. */
export const testRemoteVersion = '1.0.0-test';

export type TestPlatform = {
  app: FastifyInstance;
  ctx: PlatformContext;
  /** The instant (unix seconds) the demo data was generated for. */
  seededAt: number;
  close(): Promise<void>;
};

/** The exposes of one remote, by the name its pages are loaded with (`SearchPage`, ...). */
const exposesOf = (remote: RemoteName): string[] =>
  Object.values(exposedModules)
    .filter((module) => module.startsWith(`${remote}/`))
    .map((module) => module.slice(remote.length + 1));

/** A minimal mf-manifest.json: a remote entry plus one chunk per exposed module. */
export function fakeManifest(remote: RemoteName): RemoteManifest {
  return {
    name: federationName(remote),
    metaData: { remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' } },
    exposes: exposesOf(remote).map((expose) => ({
      name: expose,
      path: `./${expose}`,
      assets: { js: { sync: [`static/js/${expose}.js`], async: [] }, css: { sync: [], async: [] } },
    })),
  };
}

/** Publishes a fake build of every remote, as `remote:publish` lays them out. */
export async function writeFakeRemotes(dir: string, version = testRemoteVersion) {
  for (const remote of remoteNames) {
    await mkdir(join(dir, remote, version), { recursive: true });
    await writeFile(join(dir, remote, version, 'mf-manifest.json'), JSON.stringify(fakeManifest(remote)));
    await writeFile(join(dir, remote, version, 'remoteEntry.js'), '/* fake remote entry */');
    await writeFile(join(dir, remote, 'latest'), version);
  }
}

/**
 * The whole platform over a throwaway store: demo data seeded, search indexed (through the
 * indexer, as at start), the app built but not listening (use `app.inject`, or `app.listen`).
 * `env` adds to or overrides the test configuration (e.g. MEILISEARCH_URL for a real Meilisearch).
 * `close()` removes everything it made.
 */
export async function createTestPlatform(
  opts: {
    engine?: 'sqlite' | 'postgres';
    remotesDir?: string;
    env?: NodeJS.ProcessEnv;
    /** Lead delivery in place of the real targets (the lead outbox worker is not started: tests run it). */
    deliver?: Deliver;
  } = {},
): Promise<TestPlatform> {
  const root = await mkdtemp(join(tmpdir(), 'dealer-platform-test-'));
  const dataDir = join(root, 'data');
  const shellClientDir = join(root, 'client');
  const remotesDir = opts.remotesDir ?? join(root, 'remotes');
  let schema: TestSchema | null = null;
  let ctx: PlatformContext | null = null;
  let app: FastifyInstance | null = null;

  const close = async () => {
    await app?.close();
    await ctx?.db.destroy();
    await schema?.drop();
    await rm(root, { recursive: true, force: true });
  };

  try {
    await mkdir(shellClientDir, { recursive: true });
    await writeFile(join(shellClientDir, 'assets.json'), JSON.stringify({ js: ['main.test.js'], css: [] }));
    await writeFile(join(shellClientDir, 'main.test.js'), '/* fake shell */');
    if (!opts.remotesDir) await writeFakeRemotes(remotesDir);
    if (opts.engine === 'postgres') schema = await createTestSchema();

    const config = loadConfig(
      {
        DATA_DIR: dataDir,
        PLATFORM_ADMIN_KEY: testAdminKey,
        SEARCH_KEY_SECRET: testSearchKeySecret,
        SEARCH_ADMIN_KEY: testSearchAdminKey,
        REMOTES_DIR: remotesDir,
        SHELL_CLIENT_DIR: shellClientDir,
        LOG_LEVEL: 'silent',
        // app.inject comes from 127.0.0.1: trusted as a proxy, so a test gives each shopper an address with X-Forwarded-For.
        TRUSTED_PROXIES: '127.0.0.1',
        // Pages render on the test's own thread, where a test's shell render can see the test (render threads have tests of their own).
        RENDER_THREADS: '0',
        ...(schema ? { DATABASE_URL: schema.databaseUrl } : {}),
        ...opts.env,
      },
      root,
    );
    const { db, engine } = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, pgSearchPath: schema?.schema });
    ctx = createPlatform(config, { db, engine }, { deliver: opts.deliver });
    await migrateToLatest(db, engine);
    const seededAt = Math.floor(Date.now() / 1000);
    await seedDemoDataIfEmpty(db, seededAt);
    // The test runs the lead outbox by hand; the other loops start if it listens, as in production.
    app = await buildApp(ctx, { logger: false });
    ctx.inProcessMeili.attach(app);
    await app.ready();
    await ctx.indexer.indexAllSites();
    return { app, ctx, seededAt, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

/** A request to one dealer's site, addressed as the browser would locally: `Host: <slug>.localhost:3000`. */
export function siteRequest(
  app: FastifyInstance,
  slug: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS',
  url: string,
  opts: { headers?: Record<string, string>; payload?: InjectOptions['payload'] } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({ method, url, headers: { ...opts.headers, host: `${slug}.localhost:3000` }, payload: opts.payload });
}
