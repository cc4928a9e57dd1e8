import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './config';
import { migrateToLatest, openDatabase } from './db/database';
import { listSiteSlugs } from './db/site-store';
import { RemoteRegistry } from './remotes/remote-registry';
import { EmbeddedSearchEngine } from './search/search-engine';
import { seedDemoDataIfEmpty } from './seed/seed-database';
import { buildApp } from './app';

/** Locally a generated admin key is kept under DATA_DIR so restarts and the CLI agree on it. */
function localAdminKey(dataDir: string): string {
  const file = join(dataDir, 'admin-key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  return '';
}

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  mkdirSync(config.dataDir, { recursive: true });
  if (config.adminKeyGenerated) {
    const kept = localAdminKey(config.dataDir);
    if (kept) config.adminKey = kept;
    else writeFileSync(join(config.dataDir, 'admin-key'), config.adminKey, { mode: 0o600 });
  }

  const { db, engine } = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  await migrateToLatest(db, engine);
  const seeded = await seedDemoDataIfEmpty(db);
  const search = new EmbeddedSearchEngine();
  await search.reindexAll(db);
  const registry = new RemoteRegistry(config.remotesDir);
  const app = await buildApp({ config, db, engine, registry, search });

  const close = async () => {
    await app.close();
    await db.destroy();
    process.exit(0);
  };
  process.once('SIGINT', close);
  process.once('SIGTERM', close);

  await app.listen({ port: config.port, host: config.host });
  const sites = await listSiteSlugs(db);
  const lines = [
    '',
    `Dealer platform on http://localhost:${config.port} (${engine}${seeded ? ', demo data seeded' : ''})`,
    ...sites.map((site) => `  http://${site.slug}.localhost:${config.port}/`),
    config.adminKeyGenerated ? `Admin key (generated, kept in ${join(config.dataDir, 'admin-key')}): ${config.adminKey}` : 'Admin key: from PLATFORM_ADMIN_KEY',
    '',
  ];
  console.log(lines.join('\n'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
