/**
 * The server-side ad event outbox (issue 11): `POST /api/fb-events` stores one row per site and
 * browser event id in `ad_events` (hashed, see ad-user-data.ts; @dealer/db/ad-event-store), and
 * the one outbox worker (@dealer/db/outbox-worker) forwards it to the Meta Conversions API with
 * retries, one event at a time, as it sends shoppers' mail.
 *
 * Bounded: an event's payload (the hashes, the client's address and browser) is erased once it is
 * sent or given up; an event still unsent when Meta would no longer take it (event_time over 7 days
 * old) is given up unsent; and rows that are over are dropped whole after AD_EVENTS_RETENTION_DAYS
 * (at least 7 days, longer than Meta's 48-hour deduplication window the kept event id is for) by the
 * event retention sweep (event-retention.ts).
 */
import type { SiteConfig } from '@dealer/contracts/site';
import { claimDueAdEvents, recordAdEventAttempts, type ClaimedAdEvent } from '@dealer/db/ad-event-store';
import type { PlatformDb } from '@dealer/db/database';
import { Outbox } from '@dealer/db/outbox-worker';
import type { Log } from '@dealer/db/worker-log';
import { deliverAdEvent, type AdDeliveryResult, type AdEventTarget, type ConversionsApiEvent } from './conversions-api';

const day = 24 * 60 * 60 * 1000;

/** Meta refuses events whose event_time is more than 7 days old: an event is given up a little before. */
export const adEventMaxAgeMs = 7 * day - 60 * 60 * 1000;

export type AdEventOutboxOptions = {
  db: PlatformDb;
  siteOf: (siteId: number) => Promise<SiteConfig | null>;
  /** Where sites without a Conversions API token get their events written (DATA_DIR). */
  dataDir: string;
  /** The Graph API's base URL (FACEBOOK_GRAPH_URL). */
  graphUrl: string;
  backoffMs: readonly number[];
  maxAttempts: number;
  leaseMs: number;
  /** How often the worker looks for due events besides being nudged. */
  pollMs?: number;
  batchSize?: number;
  timeoutMs?: number;
  deliver?: (eventRowId: number, event: ConversionsApiEvent, target: AdEventTarget) => Promise<AdDeliveryResult>;
  log?: Log;
  now?: () => number;
};

export class AdEventOutbox extends Outbox<ClaimedAdEvent> {
  constructor(opts: AdEventOutboxOptions) {
    const { db } = opts;
    const deliver = opts.deliver ?? deliverAdEvent;
    super(
      {
        name: 'ad events',
        rowName: 'ad event',
        table: 'ad_events',
        // One at a time: a slow Graph API is not asked for a batch at once.
        lanes: 1,
        claim: (claim) => claimDueAdEvents(db, claim),
        async send(row, _batch, { now }) {
          if (now - row.created_at > adEventMaxAgeMs)
            return { outcome: 'expired', detail: 'too old for the Conversions API (event_time over 7 days ago)' };
          const resolved = await targetOf(opts, row.site_id);
          if (!resolved.ok) return { outcome: 'rejected', detail: resolved.detail };
          return deliver(row.id, JSON.parse(row.payload) as ConversionsApiEvent, resolved.target);
        },
        record: (token, attempts, now) => recordAdEventAttempts(db, token, attempts, now),
        about: (row) => ({ adEventId: row.id, siteId: row.site_id, eventId: row.event_id }),
      },
      {
        db,
        backoffMs: opts.backoffMs,
        maxAttempts: opts.maxAttempts,
        leaseMs: opts.leaseMs,
        pollMs: opts.pollMs ?? 2_000,
        batchSize: opts.batchSize ?? 20,
        log: opts.log,
        now: opts.now,
      },
    );
  }
}

/** Where a site's events go: the Graph API with its token, or, without one, a file (the local default). */
async function targetOf(
  opts: AdEventOutboxOptions,
  siteId: number,
): Promise<{ ok: true; target: AdEventTarget } | { ok: false; detail: string }> {
  const site = await opts.siteOf(siteId);
  if (!site) return { ok: false, detail: `site ${siteId} no longer exists` };
  const pixelId = site.third_party.facebook_pixel;
  if (!pixelId) return { ok: false, detail: 'the site no longer has a facebook_pixel' };
  const accessToken = site.secrets.facebook_capi_token;
  const target: AdEventTarget = accessToken
    ? { kind: 'graph', graphUrl: opts.graphUrl, pixelId, accessToken, timeoutMs: opts.timeoutMs }
    : { kind: 'file', dataDir: opts.dataDir, siteSlug: site.slug };
  return { ok: true, target };
}
