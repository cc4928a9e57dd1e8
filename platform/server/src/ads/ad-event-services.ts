import type { Log } from '@dealer/db/worker-log';
import type { PlatformContext } from '../platform-context';
import { AdEventOutbox } from './ad-event-outbox';

const byContext = new WeakMap<PlatformContext, AdEventOutbox>();

/**
 * One ad event outbox per platform context: the route and whoever drives it by hand (a test) share
 * it. Its retries follow the lead outbox's settings (LEAD_DELIVERY_BACKOFF_MS, _MAX_ATTEMPTS,
 * _LEASE_MS); the route starts it once the server listens, in the process that runs the lead
 * outbox worker (LEAD_DELIVERY_WORKER).
 */
export function adEventOutboxOf(ctx: PlatformContext, log?: Log): AdEventOutbox {
  const known = byContext.get(ctx);
  if (known) return known;
  const { delivery } = ctx.config.leads;
  const outbox = new AdEventOutbox({
    db: ctx.db,
    siteOf: (siteId) => ctx.leads.sites.forId(siteId),
    dataDir: ctx.config.dataDir,
    graphUrl: ctx.config.adEvents.graphUrl,
    backoffMs: delivery.backoffMs,
    maxAttempts: delivery.maxAttempts,
    leaseMs: delivery.leaseMs,
    log,
  });
  byContext.set(ctx, outbox);
  return outbox;
}
