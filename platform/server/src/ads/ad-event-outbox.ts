/**
 * The server-side ad event outbox (issue 11): `POST /api/fb-events` stores one row per site and
 * browser event id in `ad_events` (hashed, see ad-user-data.ts), and this worker forwards it to the
 * Meta Conversions API with retries, as the shoppers' mail outbox does (mail-outbox.ts): due rows
 * are claimed with a token and a lease, so several servers never send one event twice at once.
 *
 * Bounded: an event's payload (the hashes, the client's address and browser) is erased once it is
 * sent or given up; an event still unsent when Meta would no longer take it (event_time over 7 days
 * old) is given up unsent; and rows that are over are dropped whole after AD_EVENTS_RETENTION_DAYS
 * (at least 7 days, longer than Meta's 48-hour deduplication window the kept event id is for) by the
 * event retention sweep (event-retention.ts).
 */
import { randomBytes } from 'node:crypto';
import type { SiteConfig } from '@dealer/contracts/site';
import type { PlatformDb } from '@dealer/db/database';
import { deliverAdEvent, graphEventsEndpoint, type AdDeliveryResult, type AdEventTarget, type ConversionsApiEvent } from './conversions-api';
import { claimDueRows } from '@dealer/db/due-rows';
import { holdingLeases } from '@dealer/db/outbox-lease';
import { PollLoop } from '@dealer/db/poll-loop';
import { afterAttempt } from '@dealer/db/outbox-attempt';

const day = 24 * 60 * 60 * 1000;

/** Meta refuses events whose event_time is more than 7 days old: an event is given up a little before. */
export const adEventMaxAgeMs = 7 * day - 60 * 60 * 1000;


/** Stores an event, due now, unless the site already has one with its event id. Returns its row id, or null for a repeat. */
export async function enqueueAdEvent(db: PlatformDb, siteId: number, event: ConversionsApiEvent, now: number): Promise<number | null> {
  const row = await db
    .insertInto('ad_events')
    .values({
      site_id: siteId,
      event_id: event.event_id,
      event_name: event.event_name,
      payload: JSON.stringify(event),
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['site_id', 'event_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

/**
 * Deletes up to `limit` of the oldest events that came before `before` and are over (sent or
 * given up: one still to send is left to the outbox, which gives it up once too old). Returns how
 * many: fewer than `limit` means none older is left.
 */
export async function deleteFinishedAdEventsBefore(db: PlatformDb, before: number, limit: number): Promise<number> {
  const oldest = db.selectFrom('ad_events').select('id').where('created_at', '<', before).where('status', 'in', ['sent', 'dead', 'expired']).orderBy('created_at').limit(limit);
  const result = await db.deleteFrom('ad_events').where('id', 'in', oldest).executeTakeFirst();
  return Number(result.numDeletedRows);
}

type ClaimedEvent = { id: number; site_id: number; event_id: string; payload: string; attempts: number; created_at: number };

async function claimDueEvents(db: PlatformDb, token: string, now: number, leaseMs: number, limit: number): Promise<ClaimedEvent[]> {
  const rows = await claimDueRows(db, { table: 'ad_events', columns: ['id', 'site_id', 'event_id', 'payload', 'attempts', 'created_at'], token, now, leaseMs, limit });
  return rows.map((row) => ({ ...row, id: Number(row.id), attempts: Number(row.attempts), created_at: Number(row.created_at) }));
}

type Log = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };

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

const silent: Log = { info() {}, warn() {}, error() {} };

export class AdEventOutbox {
  private readonly loop: PollLoop;
  private readonly log: Log;
  private readonly now: () => number;

  constructor(private readonly opts: AdEventOutboxOptions) {
    this.log = opts.log ?? silent;
    this.now = opts.now ?? Date.now;
    this.loop = new PollLoop({
      runOnce: () => this.runOnce(),
      batchSize: opts.batchSize ?? 20,
      pollMs: opts.pollMs ?? 2_000,
      onError: (error) => this.log.error({ err: error }, 'ad events: a poll failed; trying again at the next one'),
    });
  }

  start() {
    this.loop.start();
  }

  stop() {
    return this.loop.stop();
  }

  /** An event was stored: send it now rather than at the next poll. */
  nudge() {
    this.loop.nudge();
  }

  /**
   * Claims and sends one batch of due events, one after the other, holding the batch's lease while
   * it sends (a slow Graph API must not let another server take an event and send it again);
   * returns how many were claimed.
   */
  async runOnce(): Promise<number> {
    const token = randomBytes(12).toString('base64url');
    const { db, leaseMs } = this.opts;
    const events = await claimDueEvents(db, token, this.now(), leaseMs, this.opts.batchSize ?? 20);
    if (events.length === 0) return 0;
    const onRenewalError = (error: unknown) => this.log.warn({ err: error }, 'ad events: could not renew the lease of a batch; trying again shortly');
    const lease = { db, table: 'ad_events', token, leaseMs, now: this.now, onRenewalError } as const;
    await holdingLeases(lease, events.map((event) => event.id), async (held) => {
      for (const event of events) {
        if (!held.has(event.id)) continue;
        await this.attempt(event, token);
        held.delete(event.id);
      }
    });
    return events.length;
  }

  private async target(siteId: number): Promise<{ ok: true; target: AdEventTarget; site: SiteConfig } | { ok: false; detail: string }> {
    const site = await this.opts.siteOf(siteId);
    if (!site) return { ok: false, detail: `site ${siteId} no longer exists` };
    const pixelId = site.third_party.facebook_pixel;
    if (!pixelId) return { ok: false, detail: 'the site no longer has a facebook_pixel' };
    const accessToken = site.secrets.facebook_capi_token;
    const target: AdEventTarget = accessToken
      ? { kind: 'graph', graphUrl: this.opts.graphUrl, pixelId, accessToken, timeoutMs: this.opts.timeoutMs }
      : { kind: 'file', dataDir: this.opts.dataDir, siteSlug: site.slug };
    return { ok: true, target, site };
  }

  private async attempt(row: ClaimedEvent, token: string) {
    const now = this.now();
    let result: AdDeliveryResult | { outcome: 'expired'; detail: string };
    let where = '';
    if (now - row.created_at > adEventMaxAgeMs) result = { outcome: 'expired', detail: 'too old for the Conversions API (event_time over 7 days ago)' };
    else {
      const resolved = await this.target(row.site_id);
      if (!resolved.ok) result = { outcome: 'rejected', detail: resolved.detail };
      else {
        const { target } = resolved;
        where = target.kind === 'graph' ? graphEventsEndpoint(target.graphUrl, target.pixelId) : 'file';
        const event = JSON.parse(row.payload) as ConversionsApiEvent;
        result = await (this.opts.deliver ?? deliverAdEvent)(row.id, event, target).catch((error: unknown) => ({
          outcome: 'retry' as const,
          detail: error instanceof Error ? error.message : String(error),
        }));
      }
    }
    const { over, fields } = afterAttempt(result, row.attempts, this.opts, now);
    const { status, attempts } = fields;
    await this.opts.db
      .updateTable('ad_events')
      .set({
        ...fields,
        // The hashes and the client's address are not kept once the event is no longer to be sent.
        ...(over ? { payload: '' } : {}),
      })
      .where('id', '=', row.id)
      .where('claim_token', '=', token)
      .execute();
    const about = { adEventId: row.id, siteId: row.site_id, eventId: row.event_id, attempts, to: where || undefined, detail: result.detail };
    if (status === 'dead') this.log.warn(about, result.outcome === 'rejected' ? 'ad event refused; not retried' : 'ad event given up after its last attempt');
    else if (status === 'expired') this.log.warn(about, 'ad event given up unsent: too old for the Conversions API');
    else if (status === 'failed') this.log.info(about, 'ad event not sent; will retry');
  }
}
