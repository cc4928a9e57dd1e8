import type { PlatformConfig } from './config';
import type { DatabaseEngine } from '@dealer/db/database-engine';
import type { PlatformDb } from '@dealer/db/database';
import type { PlatformLeads } from './leads/platform-leads';
import type { RemoteRegistry } from './remotes/remote-registry';
import type { StockIndexer } from './search/indexer';
import type { EmbeddedSearchEngine } from '@dealer/search-engine/search-engine';

/** What every route group is given: configuration, the store, remotes, search and its indexer. */
export type PlatformContext = {
  config: PlatformConfig;
  db: PlatformDb;
  engine: DatabaseEngine;
  registry: RemoteRegistry;
  /** The embedded engine behind `/meili` (empty when search runs on a real Meilisearch). */
  search: EmbeddedSearchEngine;
  /** Keeps the search index in step with the store, on whichever engine serves search. */
  indexer: StockIndexer;
  /** The lead pipeline: the service behind /api/leads and the outbox worker (started by main.ts, stopped when the app closes). */
  leads: PlatformLeads;
};

export const siteDeps = (ctx: PlatformContext) => ({
  db: ctx.db,
  registry: ctx.registry,
  publicOriginSuffix: ctx.config.publicOriginSuffix,
  searchKeySecret: ctx.config.searchKeySecret,
  meilisearch: ctx.config.meilisearch,
  remotesBaseUrl: ctx.config.remotesBaseUrl,
  leadsMockMode: ctx.config.leads.mockMode,
});
