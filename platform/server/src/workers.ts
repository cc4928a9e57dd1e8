import type { PlatformContext } from './platform-context';

/**
 * Every background loop of the platform, started once the server listens. The checkout sweep
 * always runs (run-out holds are also let go lazily per car, paid reservations finished after a
 * crash); the outboxes and sweeps run only in the process that delivers (LEAD_DELIVERY_WORKER), so
 * a fleet of web servers can leave them to one. `leadOutbox: false` leaves the lead outbox to
 * whoever runs it by hand (a test).
 */
export function startWorkers(platform: PlatformContext, opts: { leadOutbox: boolean }) {
  const { config } = platform;
  platform.checkoutSweep.start();
  if (!config.leads.delivery.worker) return;
  // Leads are committed before they are answered; the worker delivers what is due, also what was
  // left undelivered by a previous run.
  if (opts.leadOutbox) platform.leads.worker.start();
  platform.accounts.mail.start();
  platform.console.mail.start();
  platform.accounts.alerts.start(config.accounts.alertIntervalMs);
  platform.adEvents.start();
  platform.eventRetention.start();
  platform.feedSchedule.start();
}

/** Stops every loop, also one a test started by hand, each after the batch it has in hand. */
export async function stopWorkers(platform: PlatformContext) {
  await Promise.all([
    platform.checkoutSweep.stop(),
    platform.leads.worker.stop(),
    // The alert sweep writes mail: stopped before the mail outbox.
    platform.accounts.alerts.stop().then(() => platform.accounts.mail.stop()),
    platform.adEvents.stop(),
    platform.console.mail.stop(),
    platform.eventRetention.stop(),
    // The schedule's pull under way first, then any import still applying (stopped between batches).
    platform.feedSchedule.stop().then(() => platform.feeds.stop()),
  ]);
}
