import { silentLog, type Log } from '@dealer/db/worker-log';
import type { PlatformContext } from '../platform-context';
import { GarageAlertSweep } from './garage-alert-sweep';
import { MailOutbox } from './mail-outbox';
import { SignInService } from './sign-in';

/** What the account and garage routes stand on: sign-in, the shoppers' mail outbox and the alert sweep. */
export type AccountServices = { signIn: SignInService; mail: MailOutbox; alerts: GarageAlertSweep };

const byContext = new WeakMap<PlatformContext, AccountServices>();

/**
 * One set per platform context: the routes and whoever drives the background work by hand (a
 * test running the outbox or a sweep) share it. The mail worker and the alert sweep are started
 * by the routes once the server listens, in the process that runs the lead outbox worker.
 */
export function accountServicesOf(ctx: PlatformContext, log?: Log): AccountServices {
  const known = byContext.get(ctx);
  if (known) return known;
  const { delivery } = ctx.config.leads;
  const siteOf = (siteId: number) => ctx.leads.sites.forId(siteId);
  const mail = new MailOutbox({
    db: ctx.db,
    transport: { dataDir: ctx.config.dataDir, smtpUrl: delivery.smtpUrl, from: ctx.config.accounts.emailFrom },
    siteOf,
    backoffMs: delivery.backoffMs,
    maxAttempts: delivery.maxAttempts,
    leaseMs: delivery.leaseMs,
    log: log ?? silentLog,
  });
  const services: AccountServices = {
    mail,
    signIn: new SignInService({
      db: ctx.db,
      engine: ctx.engine,
      serverSecret: ctx.config.leads.tokenSecret,
      mail,
      smtpConfigured: delivery.smtpUrl !== null,
      log: log ?? silentLog,
      limits: ctx.config.accounts.signInCodes,
    }),
    alerts: new GarageAlertSweep({ db: ctx.db, siteOf, mail, log: log ?? silentLog }),
  };
  byContext.set(ctx, services);
  return services;
}
