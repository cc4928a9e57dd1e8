import { join } from 'node:path';
import type { LeadDeliveryTargetSetting, SiteConfig } from '@dealer/contracts/site';
import type { DeliveryTarget } from './delivery-targets';

/** Locally (and wherever a site names none) leads are written as ADF/XML files into DATA_DIR/outbox/. */
export const defaultDeliveryTargets: readonly LeadDeliveryTargetSetting[] = [{ kind: 'adf-file' }];

/** The site's delivery targets, as data. */
export function deliveryTargetsOf(site: Pick<SiteConfig, 'secrets'>): readonly LeadDeliveryTargetSetting[] {
  return site.secrets.lead_delivery ?? defaultDeliveryTargets;
}

export type DeliveryEnvironment = { dataDir: string; smtpUrl: string | null; emailFrom: string };

export const outboxDir = (dataDir: string) => join(dataDir, 'outbox');

/**
 * A target as data, made deliverable at delivery time: the outbox folder, the site's webhook
 * secret, the platform's SMTP server. What is missing is said, so the dealer's log shows why.
 */
export function resolveDeliveryTarget(
  setting: LeadDeliveryTargetSetting,
  site: Pick<SiteConfig, 'secrets'>,
  env: DeliveryEnvironment,
): { ok: true; target: DeliveryTarget } | { ok: false; detail: string } {
  switch (setting.kind) {
    case 'adf-file':
      return { ok: true, target: { kind: 'adf-file', dir: outboxDir(env.dataDir) } };
    case 'webhook': {
      const secret = site.secrets.lead_webhook_secret;
      if (!secret) return { ok: false, detail: 'the site has no lead_webhook_secret to sign the webhook with' };
      return { ok: true, target: { kind: 'webhook', url: setting.url, secret } };
    }
    case 'adf-http':
      return { ok: true, target: { kind: 'adf-http', url: setting.url } };
    case 'adf-email':
      if (!env.smtpUrl) return { ok: false, detail: 'SMTP_URL is not set, so ADF e-mail cannot be sent' };
      return { ok: true, target: { kind: 'adf-email', to: setting.to, from: setting.from ?? env.emailFrom, smtpUrl: env.smtpUrl } };
  }
}
