import type { SiteConfig } from '@dealer/contracts/site';
import type { DatabaseEngine } from '@dealer/db/database-engine';
import type { PlatformDb } from '@dealer/db/database';
import type { Log } from '@dealer/db/worker-log';
import type { PlatformConfig } from '../config';
import { GarageAlertSweep } from './garage-alert-sweep';
import { MailOutbox } from './mail-outbox';
import { SignInService } from './sign-in';

/** What the account and garage routes stand on: sign-in, the shoppers' mail outbox and the alert sweep. */
export type AccountServices = { signIn: SignInService; mail: MailOutbox; alerts: GarageAlertSweep };

/** The mail outbox retries as the lead outbox does (LEAD_DELIVERY_BACKOFF_MS, _MAX_ATTEMPTS, _LEASE_MS). */
export function createAccountServices(deps: {
  db: PlatformDb;
  dialect: DatabaseEngine;
  config: PlatformConfig;
  siteOf: (siteId: number) => Promise<SiteConfig | null>;
  log: Log;
}): AccountServices {
  const { db, config, siteOf, log } = deps;
  const { delivery } = config.leads;
  const mail = new MailOutbox({
    db,
    transport: { dataDir: config.dataDir, smtpUrl: delivery.smtpUrl, from: config.accounts.emailFrom },
    siteOf,
    backoffMs: delivery.backoffMs,
    maxAttempts: delivery.maxAttempts,
    leaseMs: delivery.leaseMs,
    log,
  });
  return {
    mail,
    signIn: new SignInService({
      db,
      engine: deps.dialect,
      serverSecret: config.leads.tokenSecret,
      mail,
      smtpConfigured: delivery.smtpUrl !== null,
      log,
      limits: config.accounts.signInCodes,
    }),
    alerts: new GarageAlertSweep({ db, siteOf, mail, serverSecret: config.leads.tokenSecret, log }),
  };
}
