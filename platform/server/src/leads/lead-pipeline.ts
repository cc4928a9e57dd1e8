import type { PlatformConfig } from '../config';
import type { PlatformDb } from '../db/database';
import { LeadService } from './lead-service';
import { OutboxWorker, type Deliver } from './outbox-worker';
import { SiteCache } from './site-cache';
import { assertOutsideStaticRoots, uploadsRoot } from './uploads';

/** The lead pipeline of one server process: the service behind the routes, its site cache and the outbox worker. */
export type LeadPipeline = { service: LeadService; worker: OutboxWorker; sites: SiteCache };

export function createLeadPipeline(
  deps: { db: PlatformDb; config: PlatformConfig; deliver?: Deliver; log?: ConstructorParameters<typeof OutboxWorker>[0]['log'] },
): LeadPipeline {
  const { db, config } = deps;
  assertOutsideStaticRoots(uploadsRoot(config.dataDir), [config.shellClientDir, config.remotesDir]);
  const sites = new SiteCache(db, config.publicOriginSuffix);
  const worker = new OutboxWorker({
    db,
    dataDir: config.dataDir,
    delivery: config.leads.delivery,
    fileLinkSecret: config.leads.tokenSecret,
    siteOf: (siteId) => sites.forId(siteId),
    deliver: deps.deliver,
    log: deps.log,
  });
  const service = new LeadService({ db, dataDir: config.dataDir, leads: config.leads, onEnqueued: () => worker.nudge() });
  return { service, worker, sites };
}
