import type { DatabaseEngine } from '@dealer/db/database-engine';
import type { PlatformDb } from '@dealer/db/database';
import type { Log } from '@dealer/db/worker-log';
import type { PlatformConfig } from '../config';
import { ConsoleMailOutbox } from './console-mail-outbox';
import { ConsoleSignIn } from './console-sign-in';
import { LeadFeed } from './lead-feed';

/** A console route as registered: its method, URL and what `config.console` says it needs. */
export type ConsoleRoute = { method: string; url: string; access: string | undefined };

/**
 * What the console routes stand on: its users' sign-in and their mail outbox (retried as the lead
 * outbox is), and the list of console routes as the server registered them (the authorization
 * matrix test walks it, so a route without a policy entry fails).
 */
export type ConsoleServices = { signIn: ConsoleSignIn; mail: ConsoleMailOutbox; leadFeed: LeadFeed; routes: ConsoleRoute[] };

export function createConsoleServices(deps: {
  db: PlatformDb;
  dialect: DatabaseEngine;
  config: PlatformConfig;
  log: Log;
}): ConsoleServices {
  const { db, config, log } = deps;
  const { delivery } = config.leads;
  const mail = new ConsoleMailOutbox({
    db,
    transport: { dataDir: config.dataDir, smtpUrl: delivery.smtpUrl, from: config.accounts.emailFrom },
    backoffMs: delivery.backoffMs,
    maxAttempts: delivery.maxAttempts,
    leaseMs: delivery.leaseMs,
    log,
  });
  const signIn = new ConsoleSignIn({
    db,
    engine: deps.dialect,
    serverSecret: config.leads.tokenSecret,
    mail,
    smtpConfigured: delivery.smtpUrl !== null,
    codesPerHour: config.accounts.consoleCodesPerHour,
    log,
  });
  return { signIn, mail, leadFeed: new LeadFeed(db, 500, log), routes: [] };
}
