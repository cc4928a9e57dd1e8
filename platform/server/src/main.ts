import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, keepGeneratedKeys, loadConfig } from './config';
import { migrateToLatest, openDatabase } from '@dealer/db/database';
import { listSiteSlugs } from '@dealer/db/site-store';
import { seedDemoContentIfMissing, seedDemoDataIfEmpty } from '@dealer/demo/seed-database';
import { buildApp } from './app';
import { createPlatform } from './platform';
import { outboxDir } from '@dealer/leads/delivery-config';

async function main() {
  // React, which the shell's server render requires at run time, runs its development build unless
  // NODE_ENV says production: several times slower, and not what shoppers get. The server is built
  // without a compile-time NODE_ENV, so this is the one place that decides it.
  process.env.NODE_ENV ??= 'production';
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
  keepGeneratedKeys(config);

  const { db, engine } = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  await migrateToLatest(db, engine);
  const seeded = await seedDemoDataIfEmpty(db);
  // A store seeded before sites had pages gets the demo sites' pages once.
  if (!seeded) await seedDemoContentIfMissing(db);
  const platform = createPlatform(config, { db, engine });
  const { indexer } = platform;
  // Its background work, the lead outbox included, starts once it listens and stops when it closes (workers.ts).
  const app = await buildApp(platform, { leadOutbox: true });
  platform.inProcessMeili.attach(app);

  const indexAll = async () => {
    const { sites, cars } = await indexer.indexAllSites();
    return `${cars} cars of ${sites} sites indexed`;
  };
  // The embedded engine starts empty: fill it before listening. A real Meilisearch keeps its index
  // between starts, so the sites serve at once and the index is brought up to date behind them
  // (a Meilisearch that is down must not keep the sites offline).
  const indexed = config.meilisearch ? 'indexing in the background' : await indexAll();

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
    `Dealer console: http://console.localhost:${config.port}/ (demo sign-in: operator@dealer-platform.localhost, or staff@<site>.localhost and site-admin@<site>.localhost; the code is e-mailed${config.leads.delivery.smtpUrl ? '' : ` into ${join(outboxDir(config.dataDir), 'console-mail')}`})`,
    // Behind a proxy that is not listed, every shopper shares the proxy's address and its per-IP limits.
    config.http.trustedProxies.length > 0
      ? `Client addresses: X-Forwarded-For and X-Forwarded-Proto believed from ${config.http.trustedProxies.join(', ')} (TRUSTED_PROXIES)`
      : 'Client addresses: the connection’s own (no TRUSTED_PROXIES; set it behind a load balancer or reverse proxy)',
    // The cap counts sockets, so an unlisted proxy (one address for every shopper) would reach it at once.
    config.http.maxConnectionsPerAddress > 0
      ? `Connections: at most ${config.http.maxConnectionsPerAddress} open per client address (HTTP_MAX_CONNECTIONS_PER_ADDRESS)${config.http.trustedProxies.length > 0 ? ', the trusted proxies exempt' : '; a proxy in front must be in TRUSTED_PROXIES'}`
      : 'Connections: no cap per client address (HTTP_MAX_CONNECTIONS_PER_ADDRESS=0)',
    config.adminKeyGenerated
      ? `Admin key (generated, kept in ${join(config.dataDir, 'admin-key')}): ${config.adminKey}`
      : 'Admin key: from PLATFORM_ADMIN_KEY',
    `Leads: delivered through the outbox${config.leads.delivery.worker ? '' : ' (worker off in this process: LEAD_DELIVERY_WORKER)'}; ADF files of adf-file sites in ${outboxDir(config.dataDir)}${config.leads.mockMode ? '; mock mode on (/mock/leads)' : ''}`,
    `Search: ${config.meilisearch ? `Meilisearch at ${config.meilisearch.url}` : 'embedded engine at /meili'}, ${indexed}`,
    config.meilisearch
      ? 'Search keys: tenant tokens signed with MEILISEARCH_SEARCH_KEY'
      : `Search admin key: ${config.searchAdminKeyGenerated ? `generated, kept in ${join(config.dataDir, 'search-admin-key')}` : 'from SEARCH_ADMIN_KEY'}`,
    '',
  ];
  console.log(lines.join('\n'));
  if (config.meilisearch) {
    indexAll().then(
      (done) => app.log.info(`Search: ${done}`),
      (error: unknown) => app.log.error({ err: error }, 'Search index NOT updated; searches show the stock as Meilisearch last had it'),
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
