import type { DatabaseEngine } from '@dealer/db/database-engine';
import type { PlatformDb } from '@dealer/db/database';
import { createLeadPipeline } from '@dealer/leads/lead-pipeline';
import type { Deliver } from '@dealer/leads/outbox-worker';
import { EmbeddedSearchEngine } from '@dealer/search-engine/search-engine';
import { createAccountServices } from './accounts/account-services';
import { AdEventOutbox } from './ads/ad-event-outbox';
import { ChatService } from './chat/chat-service';
import { createConsoleServices } from './console/console-services';
import type { PlatformConfig } from './config';
import { EventRetention } from './events/event-retention';
import { PaymentProviders } from './payments/payment-providers';
import { checkoutSweepMs, ReservationService } from './payments/reservation-service';
import type { PlatformContext } from './platform-context';
import { RemoteRegistry } from './remotes/remote-registry';
import { StockIndexer } from './search/indexer';
import { InProcessSearch } from './search/in-process-search';
import { InProcessMeili, indexerClient } from './search/meili-client';
import { SiteCache } from './tenancy/site-cache';
import { IntervalLoop } from './interval-loop';
import { RelayLog } from './relay-log';
import { FeedImports, feedScheduleMs } from './stock/feed-import';

/**
 * Every service of one server process, each built once over one store, wired to the others here
 * and nowhere else. Nothing starts: workers.ts runs the loops, buildApp serves the routes.
 * `deliver` replaces the lead delivery targets (tests).
 */
export function createPlatform(
  config: PlatformConfig,
  store: { db: PlatformDb; engine: DatabaseEngine },
  opts: { deliver?: Deliver } = {},
): PlatformContext {
  const { db, engine: dialect } = store;
  const log = new RelayLog();
  const { delivery } = config.leads;
  const sites = new SiteCache(db, config.publicOriginSuffix);
  const siteOf = (siteId: number) => sites.forId(siteId);
  // The indexer speaks Meilisearch's API: to the real server when configured, else to this
  // platform's own /meili, answered in process so the index is full before the first visitor.
  const inProcessMeili = new InProcessMeili();
  const indexer = new StockIndexer(
    db,
    indexerClient(config, () => inProcessMeili.client(config.searchAdminKey)),
  );
  const leads = createLeadPipeline({
    db,
    engine: dialect,
    dataDir: config.dataDir,
    staticRoots: [config.shellClientDir, config.remotesDir],
    leads: config.leads,
    siteOf,
    deliver: opts.deliver,
    log,
  });
  const checkout = new ReservationService({
    db,
    engine: dialect,
    holdsPerPerson: config.reservations.holdsPerPerson,
    indexer,
    leads: leads.service,
    providers: new PaymentProviders(config.payments),
    siteOf,
    log,
  });
  const feeds = new FeedImports({ db, dialect, indexer, sites, allowPrivateAddresses: config.feeds.allowPrivateAddresses, log });
  return {
    config,
    db,
    dialect,
    log,
    registry: new RemoteRegistry(config.remotesDir),
    sites,
    search: new EmbeddedSearchEngine(),
    inProcessMeili,
    inProcessSearch: new InProcessSearch(),
    indexer,
    leads,
    checkout,
    checkoutSweep: new IntervalLoop('checkout sweep', () => checkout.sweep(), checkoutSweepMs, log),
    chat: new ChatService({ db, leads: leads.service, tokenSecret: config.leads.tokenSecret, pollsPerMinute: config.chat.pollsPerMinute }),
    accounts: createAccountServices({ db, dialect, config, siteOf, log }),
    // Its retries follow the lead outbox's settings (LEAD_DELIVERY_BACKOFF_MS, _MAX_ATTEMPTS, _LEASE_MS).
    adEvents: new AdEventOutbox({
      db,
      siteOf,
      dataDir: config.dataDir,
      graphUrl: config.adEvents.graphUrl,
      backoffMs: delivery.backoffMs,
      maxAttempts: delivery.maxAttempts,
      leaseMs: delivery.leaseMs,
      log,
    }),
    console: createConsoleServices({ db, dialect, config, log }),
    eventRetention: new EventRetention({
      db,
      dataDir: config.dataDir,
      eventsRetentionDays: config.events.retentionDays,
      adEventsRetentionDays: config.adEvents.retentionDays,
      log,
    }),
    feeds,
    feedSchedule: new IntervalLoop('feed schedule', () => feeds.pullDue(), feedScheduleMs, log),
  };
}
