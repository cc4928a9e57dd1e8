import type { PlatformConfig } from './config';
import type { DatabaseEngine } from '@dealer/db/database-engine';
import type { PlatformDb } from '@dealer/db/database';
import type { LeadPipeline } from '@dealer/leads/lead-pipeline';
import type { AccountServices } from './accounts/account-services';
import type { AdEventOutbox } from './ads/ad-event-outbox';
import type { ConsoleServices } from './console/console-services';
import type { ChatService } from './chat/chat-service';
import type { EventRetention } from './events/event-retention';
import type { ReservationService } from './payments/reservation-service';
import type { RemoteRegistry } from './remotes/remote-registry';
import type { StockIndexer } from './search/indexer';
import type { InProcessSearch } from './search/in-process-search';
import type { InProcessMeili } from './search/meili-client';
import type { SiteCache } from './tenancy/site-cache';
import type { EmbeddedSearchEngine } from '@dealer/search-engine/search-engine';
import type { IntervalLoop } from './interval-loop';
import type { RelayLog } from './relay-log';
import type { FeedImports } from './stock/feed-import';

/**
 * The platform's services, built once by createPlatform (platform.ts) and given to every route
 * group. The background loops among them are started and stopped only by workers.ts.
 */
export type PlatformContext = {
  config: PlatformConfig;
  db: PlatformDb;
  /** Which SQL the store speaks (SQLite or PostgreSQL). */
  dialect: DatabaseEngine;
  /** Says nothing until buildApp points it at the server's logger. */
  log: RelayLog;
  registry: RemoteRegistry;
  /** The tenancy cache: a site by its id or a request's host, shared by the routes and the workers. */
  sites: SiteCache;
  /** The embedded engine behind `/meili` (empty when search runs on a real Meilisearch). */
  search: EmbeddedSearchEngine;
  /** The embedded engine's API answered in process, for the indexer before the server listens (attached to the app by its builder). */
  inProcessMeili: InProcessMeili;
  /** `/meili/multi-search` answered in process, for the pages the server renders (attached by the `/meili` routes). */
  inProcessSearch: InProcessSearch;
  /** Keeps the search index in step with the store, on whichever engine serves search. */
  indexer: StockIndexer;
  /** The lead pipeline: the service behind /api/leads and the lead outbox worker. */
  leads: LeadPipeline;
  checkout: ReservationService;
  /** Runs run-out holds off and finishes paid reservations (checkout.sweep) every 30 s. */
  checkoutSweep: IntervalLoop;
  chat: ChatService;
  /** Sign-in, the shoppers' mail outbox and the garage alert sweep. */
  accounts: AccountServices;
  /** Forwards stored ad events to the Conversions API. */
  adEvents: AdEventOutbox;
  /** Deletes events and ad events past their retention, hourly. */
  eventRetention: EventRetention;
  /** The dealer console: its users' sign-in and mail outbox, and the live feed of new leads. */
  console: ConsoleServices;
  /** Inventory feed imports (issue 24), applied in the background one per site at a time. */
  feeds: FeedImports;
  /** Pulls the feeds whose scheduled time has come, every minute. */
  feedSchedule: IntervalLoop;
};

export const siteDeps = (ctx: PlatformContext) => ({
  db: ctx.db,
  registry: ctx.registry,
  publicOriginSuffix: ctx.config.publicOriginSuffix,
  searchKeySecret: ctx.config.searchKeySecret,
  meilisearch: ctx.config.meilisearch,
  remotesBaseUrl: ctx.config.remotesBaseUrl,
  leadsMockMode: ctx.config.leads.mockMode,
  previewSecret: ctx.config.leads.tokenSecret,
  sites: ctx.sites,
});
