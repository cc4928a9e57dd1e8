import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { SiteConfig } from '@dealer/contracts/site';
import { assembleLead, type AssembledLead } from '@dealer/rules/lead-payload';
import type { StepSkip } from '@dealer/rules/multi-step';
import type { LeadsConfig } from './lead-settings';
import type { DatabaseEngine } from '@dealer/db/database-engine';
import type { PlatformDb } from '@dealer/db/database';
import {
  findLeadForUpdate,
  idempotencyColumn,
  insertLead,
  insertLeadFiles,
  saveLeadUpdate,
  type StoredLead,
  type WithinLeadTransaction,
} from '@dealer/db/lead-store';
import {
  BookingLimitReached,
  BookingTaken,
  claimBooking,
  claimCar,
  leadsHoldingSeats,
  releaseBookings,
  type SeatLimits,
} from '@dealer/db/booking-store';
import { bookingMessages } from '@dealer/rules/booking-slots';
import { bookingRequestOf, overLimitRefusal, type BookingRequest } from './bookings';
import { ClientHolds } from './client-holds';
import { deliveryTargetsOf } from './delivery-config';
import { isRecord } from './is-record';
import { checkLeadShape, hasContactDetails, maxLeadNesting, nestedDeeperThan, tooDeepMessage, validateLead } from './lead-schema';
import { RateLimiter, retryAfterText, spamVerdict, withoutTrapFields } from './spam';
import { diskFileOps, discardReceived, placeLeadFiles, syncReceived, uploadsRoot, type DurableFileOps, type ReceivedFile } from './uploads';

/** What a lead call answers: SPEC §7 "reads id or error message". */
export type LeadReply =
  | { status: 200 | 201; body: { id: number; lead_id: number; update_token: string } }
  | { status: number; body: { message: string; fields?: Record<string, string> }; headers?: Record<string, string> };

export const checkFieldsMessage = 'Please check the highlighted fields.';

/** Fields that steer the pipeline and are never stored in the lead itself. */
const controlFields = ['update_token'] as const;

/** Objects with their keys sorted, so the same body hashes the same whatever order its keys came in. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** sha256 of the normalised create request: the lead's fields and the contents of its files. */
export function requestHash(lead: unknown, files: readonly Pick<ReceivedFile, 'sha256'>[] = []): string {
  return createHash('sha256')
    .update(JSON.stringify({ lead: canonical(lead), files: files.map((file) => file.sha256) }))
    .digest('base64url');
}

/** The update token of a lead: an HMAC of its id and random salt under the platform's secret. Never stored. */
export function updateTokenOf(secret: string, leadId: number, salt: string): string {
  return createHmac('sha256', secret).update(`lead-update:${leadId}:${salt}`).digest('base64url');
}

/** Constant time whatever the given token's length (both sides are hashed to 32 bytes first). */
export function tokenMatches(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

/** What the server writes into a lead that holds a seat (dropped from anything a browser sends). */
const bookingFields = ['booking_time', 'booking_location_id'] as const;

/** A booking time refused: 400 (not a time offered), 409 (just taken, or the shopper's limit) or 429 (the address's), the message beside the field. */
function bookingRefusal(refused: Extract<BookingRequest, { kind: 'refused' }>): LeadReply {
  return { status: refused.status, body: { message: refused.message, fields: { [refused.field]: refused.message } } };
}

/**
 * The body's lead when it is one object no deeper than any form nests its answers, checked before
 * anything walks it recursively (hashing, assembling, storing); otherwise the 400 to answer.
 */
function leadOfBody(lead: unknown): { ok: true; lead: Record<string, unknown> } | { ok: false; reply: LeadReply } {
  if (!isRecord(lead))
    return {
      ok: false,
      reply: { status: 400, body: { message: checkFieldsMessage, fields: { lead: 'The enquiry must be sent as { "lead": { ... } }.' } } },
    };
  if (nestedDeeperThan(lead, maxLeadNesting))
    return { ok: false, reply: { status: 400, body: { message: checkFieldsMessage, fields: { lead: tooDeepMessage } } } };
  return { ok: true, lead };
}

/**
 * Saves of existing leads per client and site. A multi-step form saves once per step; a person
 * does not save 60 times in 10 minutes, while each save renews a held booking time.
 */
export const updateRateLimit = { max: 60, windowMs: 10 * 60_000 } as const;

/** Booking times one client (IP and site) may hold at once with partial leads. */
export const maxHoldsPerClient = 3;

/** A client already holds `maxHoldsPerClient` times: the lead's transaction is rolled back. */
class HoldLimitReached extends Error {
  constructor(readonly retryAfterMs: number) {
    super('booking hold limit reached');
  }
}

type Trx = Parameters<WithinLeadTransaction>[0];

/** A partial save (SPEC §4): lead_status 'Incomplete' or form_completed false. Everything else completes the lead. */
export const isPartialSave = (values: Record<string, unknown>) => values.lead_status === 'Incomplete' || values.form_completed === false;

export type CreateRequest = {
  site: SiteConfig;
  /** The body's `lead` (undefined when the body had none). */
  lead: unknown;
  files?: readonly ReceivedFile[];
  idempotencyKey: string | null;
  userAgent: string;
  /** The client as per-address limits count it (`clientAddressKey`: an IPv6 client is its /64). */
  ip: string;
  mock: boolean;
  /**
   * A lead the platform itself raises (a paid reservation), not a form post: no per-address rate
   * limit and no spam traps, which a browser's timing or a shared server address could trip.
   */
  trusted?: boolean;
  /**
   * Runs inside the lead's insert transaction once its id is known, so what it writes (a chat's
   * conversation) is committed with the lead or not at all. Not run when a retry is answered with
   * the lead stored before.
   */
  withinTransaction?: WithinLeadTransaction;
  now?: number;
};

export type UpdateRequest = {
  site: SiteConfig;
  id: number;
  lead: unknown;
  token: string | null;
  userAgent: string;
  /** The client as per-address limits count it (`clientAddressKey`: an IPv6 client is its /64). */
  ip: string;
  mock: boolean;
  now?: number;
};

/**
 * The lead pipeline's front half: checks, assembles and saves a lead (with its delivery jobs, in
 * one transaction) before answering. The outbox worker does the rest.
 */
export class LeadService {
  readonly rateLimiter: RateLimiter;
  readonly updateRateLimiter: RateLimiter;
  readonly holds: ClientHolds;
  private readonly seatLimits: SeatLimits;

  constructor(
    private readonly deps: {
      db: PlatformDb;
      engine: DatabaseEngine;
      dataDir: string;
      leads: LeadsConfig;
      /** Told when deliveries were enqueued, so the worker need not wait for its next poll. */
      onEnqueued?: () => void;
      /** How uploads are made durable (the disk; a test records the order of the calls). */
      fileOps?: DurableFileOps;
    },
  ) {
    this.rateLimiter = new RateLimiter(deps.leads.rateLimit.max, deps.leads.rateLimit.windowMs);
    // LEADS_RATE_LIMIT=0 trusts every client (a benchmark, a test run from one address): all per-client limits are off.
    const perClient = deps.leads.rateLimit.max > 0;
    this.updateRateLimiter = new RateLimiter(perClient ? updateRateLimit.max : 0, updateRateLimit.windowMs);
    this.holds = new ClientHolds(perClient ? maxHoldsPerClient : 0);
    const limits = deps.leads.bookingLimits;
    this.seatLimits = { engine: deps.engine, ...limits, perAddressPerDay: perClient ? limits.perAddressPerDay : 0 };
  }

  /**
   * Counts a partial lead's hold against its client, inside the lead's transaction. At the cap the
   * diary is asked which of the client's counted leads still hold a time (others were completed,
   * dropped or ran out) before the lead is refused.
   */
  private async countHold(trx: Trx, client: string, leadId: number, heldUntil: number, now: number) {
    if (this.holds.tryHold(client, leadId, heldUntil, now).ok) return;
    const counted = this.holds.leadsOf(client, now);
    this.holds.keepOnly(client, await leadsHoldingSeats(trx, counted, now));
    const retried = this.holds.tryHold(client, leadId, heldUntil, now);
    if (!retried.ok) throw new HoldLimitReached(retried.retryAfterMs);
  }

  private tooManyHolds(field: string, retryAfterMs: number): LeadReply {
    const message = `Your connection is already holding ${maxHoldsPerClient} booking times on this site. Please finish one of those bookings, try again in ${retryAfterText(retryAfterMs)}, or call the dealership.`;
    return {
      status: 429,
      body: { message, fields: { [field]: message } },
      headers: { 'Retry-After': String(Math.ceil(retryAfterMs / 1000)) },
    };
  }

  private reply(lead: { id: number }, salt: string | null, status: 200 | 201): LeadReply {
    return {
      status,
      body: { id: lead.id, lead_id: lead.id, update_token: salt ? updateTokenOf(this.deps.leads.tokenSecret, lead.id, salt) : '' },
    };
  }

  /** SPEC §3 assembly over what the browser sent; the server's own values (user agent, site) win. */
  private assemble(site: SiteConfig, values: Record<string, unknown>, userAgent: string, hasFiles: boolean): AssembledLead {
    const stepNumber = typeof values.step_number === 'number' ? values.step_number : undefined;
    const skippedSteps = Array.isArray(values.skipped_steps) ? (values.skipped_steps as StepSkip[]) : undefined;
    const assembled = assembleLead({
      values: withoutTrapFields(values),
      site,
      page: {
        url: typeof values.url === 'string' ? values.url : '',
        userAgent: userAgent.slice(0, 1000),
        visitedPages: Array.isArray(values.visited_pages) ? (values.visited_pages as string[]) : [],
        linkedQueryParams: isRecord(values.linked_query_params) ? (values.linked_query_params as Record<string, string>) : {},
      },
      stepNumber,
      skippedSteps,
      hasFiles,
    });
    for (const field of controlFields) delete assembled[field];
    return assembled;
  }

  async create(request: CreateRequest): Promise<LeadReply> {
    const now = request.now ?? Date.now();
    const files = request.files ?? [];
    const { site } = request;
    let keep = false;
    try {
      const body = leadOfBody(request.lead);
      if (!body.ok) return body.reply;
      // A retry of a saved create is answered as before, whatever the checks below say now, and
      // is not counted against the rate limit: only new leads are.
      const replayed = await this.replay(request);
      if (replayed) return replayed;
      const hash = requestHash(body.lead, files);

      const shape = checkLeadShape(body.lead);
      if (!shape.ok) return { status: 400, body: { message: checkFieldsMessage, fields: shape.fields } };
      const values = shape.values;
      const complete = !isPartialSave(values);
      const hasFiles = files.length > 0 || values.has_files === true;
      const assembled = this.assemble(site, values, request.userAgent, hasFiles);
      if (files.length) assembled.files = files.map((file) => ({ name: file.originalName, content_type: file.type.mime, size: file.size }));
      const valid = validateLead(assembled, site, complete);
      if (!valid.ok) return { status: 400, body: { message: checkFieldsMessage, fields: valid.fields } };

      const limited = request.trusted
        ? ({ ok: true } as const)
        : this.rateLimiter.take(`${request.mock ? 'mock' : 'api'}|${site.id}|${request.ip}`, now);
      if (!limited.ok) {
        const seconds = Math.ceil(limited.retryAfterMs / 1000);
        return {
          status: 429,
          body: {
            message: `Too many enquiries have been sent from your connection. Please try again in ${retryAfterText(limited.retryAfterMs)}, or call the dealership.`,
          },
          headers: { 'Retry-After': String(seconds) },
        };
      }

      const verdict = request.trusted ? ({ spam: false } as const) : spamVerdict(values, now, this.deps.leads.minFillMs);
      // The location as the shopper chose it (the assembled lead's may be the site's primary one).
      const booking = await bookingRequestOf(
        this.deps.db,
        site,
        { ...assembled, location: values.location, location_id: values.location_id },
        { now, complete, client: request.trusted ? null : request.ip },
      );
      if (booking.kind === 'refused') return bookingRefusal(booking);
      // Mock and suspected-spam leads never take a seat in the dealer's diary, nor does a lead the
      // dealer could not answer: without an email or phone the time is kept as asked, and taken
      // when a later step brings them. Only a lead holding a seat says it is booked: the booking
      // fields are the server's, never the shopper's.
      const takesSeat = booking.kind === 'book' && !request.mock && !verdict.spam && hasContactDetails(assembled, site);
      for (const field of bookingFields) delete assembled[field];
      if (takesSeat) Object.assign(assembled, booking.fields);
      const tokenSalt = randomBytes(16).toString('base64url');
      const uploads = uploadsRoot(this.deps.dataDir);
      const fileOps = this.deps.fileOps ?? diskFileOps;
      await syncReceived(files, fileOps);
      let placedDir: string | null = null;
      const result = await insertLead(
        this.deps.db,
        {
          siteId: site.id,
          category: typeof assembled.category === 'string' ? assembled.category : '',
          leadStatus: typeof values.lead_status === 'string' && values.lead_status ? values.lead_status : 'New',
          payload: assembled,
          idempotencyKey: request.idempotencyKey,
          requestHash: hash,
          tokenSalt,
          formCompleted: complete,
          hasFiles,
          spamReason: verdict.spam ? verdict.reason : null,
          mock: request.mock,
        },
        request.mock ? [] : deliveryTargetsOf(site),
        now,
        async (trx, leadId) => {
          if (request.withinTransaction) await request.withinTransaction(trx, leadId);
          if (takesSeat) {
            if (booking.booking.heldUntil !== null)
              await this.countHold(trx, `${site.id}|${request.ip}`, leadId, booking.booking.heldUntil, now);
            await claimBooking(trx, { siteId: site.id, leadId, ...booking.booking }, now, this.seatLimits);
            if (booking.car) await claimCar(trx, { siteId: site.id, leadId, ...booking.car, heldUntil: booking.booking.heldUntil }, now);
          }
          if (!files.length) return;
          placedDir = join(uploads, site.slug, String(leadId));
          const placed = await placeLeadFiles(uploads, site.slug, leadId, files, fileOps);
          await insertLeadFiles(
            trx,
            placed.map(({ path, file }) => ({
              leadId,
              siteId: site.id,
              path,
              contentType: file.type.mime,
              size: file.size,
              originalName: file.originalName,
            })),
            now,
          );
        },
      ).catch(async (error: unknown) => {
        if (placedDir) await rm(placedDir, { recursive: true, force: true });
        if (error instanceof BookingTaken || error instanceof HoldLimitReached || error instanceof BookingLimitReached) return error;
        throw error;
      });
      const field = booking.kind === 'book' ? booking.field : 'dateTime';
      if (result instanceof BookingTaken) return bookingRefusal({ kind: 'refused', status: 409, field, message: bookingMessages.taken });
      if (result instanceof HoldLimitReached) return this.tooManyHolds(field, result.retryAfterMs);
      if (result instanceof BookingLimitReached) return bookingRefusal(overLimitRefusal(site, field, result));

      if (!result.created) {
        if (result.requestHash !== null && result.requestHash !== hash) return this.keyReused();
        return this.reply(result.lead, result.tokenSalt, 200);
      }
      keep = true;
      if (complete && !verdict.spam && !request.mock) this.deps.onEnqueued?.();
      return this.reply(result.lead, tokenSalt, 201);
    } finally {
      if (!keep) await discardReceived(files);
    }
  }

  /**
   * The answer to a retried create (the first result, or a 422 for another body under its key),
   * looked up before any other check, so a shopper's retry is never refused by the rate limit or a
   * rule changed since, nor counted. Null: not a retry. (Two creates racing with one key find
   * each other through the insert itself.)
   */
  private async replay(request: Pick<CreateRequest, 'site' | 'lead' | 'files' | 'idempotencyKey' | 'mock'>): Promise<LeadReply | null> {
    if (!request.idempotencyKey) return null;
    const key = idempotencyColumn(request.idempotencyKey, request.mock);
    const row = await this.deps.db
      .selectFrom('leads')
      .select(['id', 'request_hash', 'token_salt'])
      .where('site_id', '=', request.site.id)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
    if (!row) return null;
    if (row.request_hash !== null && row.request_hash !== requestHash(request.lead, request.files ?? [])) {
      await discardReceived(request.files ?? []);
      return this.keyReused();
    }
    await discardReceived(request.files ?? []);
    return this.reply({ id: Number(row.id) }, row.token_salt, 200);
  }

  private keyReused(): LeadReply {
    return {
      status: 422,
      body: {
        message:
          'This Idempotency-Key was already used for a different enquiry. Send the same enquiry again, or use a new key for a new one.',
      },
    };
  }

  /**
   * SPEC §4 "a lead with an id is updated": only with the update token its create returned, and
   * only from the site that owns it (another site's lead is not found). The new values are laid
   * over the stored ones and assembled again; completing a partial lead enqueues its deliveries.
   */
  async update(request: UpdateRequest): Promise<LeadReply> {
    const now = request.now ?? Date.now();
    const { site } = request;
    // Counted first: every save renews a held time, so an unlimited stream of them would hold it for ever.
    const limited = this.updateRateLimiter.take(`${request.mock ? 'mock' : 'api'}|${site.id}|${request.ip}`, now);
    if (!limited.ok) {
      return {
        status: 429,
        body: {
          message: `Too many changes to enquiries have been sent from your connection. Please try again in ${retryAfterText(limited.retryAfterMs)}, or call the dealership.`,
        },
        headers: { 'Retry-After': String(Math.ceil(limited.retryAfterMs / 1000)) },
      };
    }
    const notFound: LeadReply = { status: 404, body: { message: `No lead ${request.id} was found on this site.` } };
    const body = leadOfBody(request.lead);
    if (!body.ok) return body.reply;
    const stored = await findLeadForUpdate(this.deps.db, request.id);
    if (!stored || stored.site_id !== site.id || stored.mock !== request.mock) return notFound;
    if (!request.token)
      return { status: 403, body: { message: 'This lead can only be changed with the update token returned when it was created.' } };
    if (!stored.token_salt || !tokenMatches(request.token, updateTokenOf(this.deps.leads.tokenSecret, stored.id, stored.token_salt))) {
      return { status: 403, body: { message: 'The update token does not match this lead.' } };
    }

    const shape = checkLeadShape(body.lead);
    if (!shape.ok) return { status: 400, body: { message: checkFieldsMessage, fields: shape.fields } };
    const values = shape.values;
    const complete = !isPartialSave(values);
    // Earlier steps' answers stay; the steering fields come from this request alone.
    const previous = { ...stored.payload };
    for (const field of ['lead_status', 'form_completed', 'skipped_steps', 'step_number', 'lead_id']) delete previous[field];
    const merged = { ...previous, ...values };
    const hasFiles = stored.has_files || values.has_files === true;
    const assembled = this.assemble(site, merged, request.userAgent, hasFiles);
    const valid = validateLead(assembled, site, complete);
    if (!valid.ok) return { status: 400, body: { message: checkFieldsMessage, fields: valid.fields } };
    // A lead completed before keeps its seat confirmed whatever a later partial save says.
    const booking = await bookingRequestOf(
      this.deps.db,
      site,
      { ...assembled, location: merged.location, location_id: merged.location_id },
      { now, complete: complete || stored.completed_at !== null, leadId: stored.id, leadStartedAt: stored.created_at, client: request.ip },
    );
    if (booking.kind === 'refused') return bookingRefusal(booking);
    for (const field of bookingFields) delete assembled[field];
    // As on create: a seat only for a lead the dealer could answer; one that loses its email and phone gives its seat back.
    const holdsSeat = booking.kind === 'book' && !stored.suspected_spam && hasContactDetails(assembled, site);
    if (holdsSeat && !request.mock) Object.assign(assembled, booking.fields);
    const diary: WithinLeadTransaction | undefined = request.mock
      ? undefined
      : holdsSeat
        ? async (trx, leadId) => {
            if (booking.booking.heldUntil !== null)
              await this.countHold(trx, `${site.id}|${request.ip}`, leadId, booking.booking.heldUntil, now);
            await claimBooking(trx, { siteId: site.id, leadId, ...booking.booking }, now, this.seatLimits);
            if (booking.car) await claimCar(trx, { siteId: site.id, leadId, ...booking.car, heldUntil: booking.booking.heldUntil }, now);
            else await trx.deleteFrom('car_holds').where('lead_id', '=', leadId).execute();
          }
        : (trx, leadId) => releaseBookings(trx, leadId);

    const saved: StoredLead | null | BookingTaken | HoldLimitReached | BookingLimitReached = await saveLeadUpdate(
      this.deps.db,
      {
        id: stored.id,
        siteId: site.id,
        category: typeof assembled.category === 'string' ? assembled.category : stored.category,
        leadStatus:
          typeof values.lead_status === 'string' && values.lead_status
            ? values.lead_status
            : complete
              ? stored.lead_status === 'Incomplete'
                ? 'New'
                : stored.lead_status
              : 'Incomplete',
        payload: assembled,
        formCompleted: complete,
        hasFiles,
      },
      request.mock ? [] : deliveryTargetsOf(site),
      now,
      diary,
    ).catch((error: unknown) => {
      if (error instanceof BookingTaken || error instanceof HoldLimitReached || error instanceof BookingLimitReached) return error;
      throw error;
    });
    const field = booking.kind === 'book' ? booking.field : 'dateTime';
    if (saved instanceof BookingTaken) return bookingRefusal({ kind: 'refused', status: 409, field, message: bookingMessages.taken });
    if (saved instanceof HoldLimitReached) return this.tooManyHolds(field, saved.retryAfterMs);
    if (saved instanceof BookingLimitReached) return bookingRefusal(overLimitRefusal(site, field, saved));
    if (!saved) return notFound;
    if (complete && stored.completed_at === null && saved.completed_at !== null && !saved.suspected_spam && !saved.mock)
      this.deps.onEnqueued?.();
    return this.reply(saved, stored.token_salt, 200);
  }
}
