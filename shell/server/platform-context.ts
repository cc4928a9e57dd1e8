import type { PlatformConfig } from './config';
import type { DatabaseEngine, PlatformDb } from './db/database';
import type { RemoteRegistry } from './remotes/remote-registry';
import type { EmbeddedSearchEngine } from './search/search-engine';

/** What every route group is given: configuration, the store, remotes and search. */
export type PlatformContext = {
  config: PlatformConfig;
  db: PlatformDb;
  engine: DatabaseEngine;
  registry: RemoteRegistry;
  search: EmbeddedSearchEngine;
};

export const siteDeps = (ctx: PlatformContext) => ({
  db: ctx.db,
  registry: ctx.registry,
  publicOriginSuffix: ctx.config.publicOriginSuffix,
  searchKeySecret: ctx.config.searchKeySecret,
  remotesBaseUrl: ctx.config.remotesBaseUrl,
});
