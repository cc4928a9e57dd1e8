import type { SiteConfig } from '@dealer/contracts/site';
import type { DatabaseEngine } from '@dealer/db/database-engine';
import type { PlatformDb } from '@dealer/db/database';
import { LeadService } from './lead-service';
import type { LeadsConfig } from './lead-settings';
import { OutboxWorker, type Deliver } from './outbox-worker';
import { assertOutsideStaticRoots, uploadsRoot } from './uploads';

/** What the lead pipeline needs of the platform: the store, where files go, the lead settings and how to find a site. */
export type LeadPipelineDeps = {
  db: PlatformDb;
  engine: DatabaseEngine;
  /** DATA_DIR: uploads and ADF files are kept under it. */
  dataDir: string;
  /** Directories served as static files; the uploads directory must not be inside one. */
  staticRoots: readonly string[];
  leads: LeadsConfig;
  /** A site's config by id, for the outbox worker. */
  siteOf: (siteId: number) => Promise<SiteConfig | null>;
  deliver?: Deliver;
  log?: ConstructorParameters<typeof OutboxWorker>[0]['log'];
};

/** The lead pipeline of one server process: the service behind the routes and the outbox worker. */
export type LeadPipeline = { service: LeadService; worker: OutboxWorker };

export function createLeadPipeline(deps: LeadPipelineDeps): LeadPipeline {
  const { db, engine, dataDir, leads } = deps;
  assertOutsideStaticRoots(uploadsRoot(dataDir), deps.staticRoots);
  const worker = new OutboxWorker({
    db,
    dataDir,
    delivery: leads.delivery,
    fileLinkSecret: leads.tokenSecret,
    siteOf: deps.siteOf,
    deliver: deps.deliver,
    log: deps.log,
  });
  const service = new LeadService({ db, engine, dataDir, leads, onEnqueued: () => worker.nudge() });
  return { service, worker };
}
