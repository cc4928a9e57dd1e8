import type { Car } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';

/**
 * A shopper's upload as delivered. `name` is the shopper's (cleaned) file name; `url` a signed,
 * expiring download link that needs no admin key (null when the worker has no secret to sign with).
 */
export type DeliverableFile = { id: number; name: string; contentType: string; size: number; absolutePath: string; url: string | null };

/** A lead as the outbox worker hands it to a delivery target (an ADF document, a webhook, an e-mail): with its site, its car and its files. */
export type DeliverableLead = {
  id: number;
  site: SiteConfig;
  payload: Record<string, unknown>;
  car: Car | null;
  createdAt: number /* ms */;
  files: DeliverableFile[];
};
