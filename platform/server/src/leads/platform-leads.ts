import type { DatabaseEngine } from '@dealer/db/database-engine';
import type { PlatformDb } from '@dealer/db/database';
import { createLeadPipeline, type LeadPipeline, type LeadPipelineDeps } from '@dealer/leads/lead-pipeline';
import type { PlatformConfig } from '../config';
import { SiteCache } from '../tenancy/site-cache';

/** The lead pipeline of this server process: @dealer/leads' service and outbox worker, and the site cache the routes find a request's site with. */
export type PlatformLeads = LeadPipeline & { sites: SiteCache };

export function createPlatformLeads(deps: { db: PlatformDb; engine: DatabaseEngine; config: PlatformConfig; deliver?: LeadPipelineDeps['deliver']; log?: LeadPipelineDeps['log'] }): PlatformLeads {
  const { db, config } = deps;
  const sites = new SiteCache(db, config.publicOriginSuffix);
  const pipeline = createLeadPipeline({
    db,
    engine: deps.engine,
    dataDir: config.dataDir,
    staticRoots: [config.shellClientDir, config.remotesDir],
    leads: config.leads,
    siteOf: (siteId) => sites.forId(siteId),
    deliver: deps.deliver,
    log: deps.log,
  });
  return { ...pipeline, sites };
}
