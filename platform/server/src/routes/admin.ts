import { createReadStream, ReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { refusalSchema, type RequestPart, type SchemaRefusal } from '../http/zod-schemas';
import { z } from 'zod';
import { chatLimits } from '@dealer/contracts/chat';
import type { ChatService } from '../chat/chat-service';
import { chatFieldErrors, lineTextSchema, messageTextSchema } from '../chat/chat-text';
import { bookingPage, eventPage } from '@dealer/db/admin-pages';
import { releaseBooking } from '@dealer/db/booking-store';
import { CarChangeConflict, carChangeSchema, updateCar } from '@dealer/db/car-store';
import { createDealerKey, listDealerKeys, revokeDealerKey } from '@dealer/db/dealer-key-store';
import { findLead, listLeadFiles, releaseLead } from '@dealer/db/lead-store';
import { listDeliveryLog, listJobs, retryDeadJobs, summariseDelivery } from '@dealer/db/outbox-store';
import { decodeCursor, encodeCursor, pageSizes, type PagePosition } from '@dealer/db/page-cursor';
import { findSiteIdBySlug, listSiteSlugs } from '@dealer/db/site-store';
import { deliveryTargetsOf } from '@dealer/leads/delivery-config';
import { leadsCsvPages } from '@dealer/leads/lead-csv';
import { leadFileName } from '@dealer/leads/lead-file-links';
import { eachLeadPage, listLeadPage } from '@dealer/leads/lead-listing';
import { storedFilePath } from '@dealer/leads/lead-file-store';
import { sendCheckoutResult } from './checkout';
import type { PlatformContext } from '../platform-context';
import { dealerView, type ReservationService } from '../payments/reservation-service';
import { findReservation, reservationPage } from '@dealer/db/reservation-store';
import { adminAccessChecker, type AdminAccess } from './admin-access';
import { attachmentHeader } from './lead-files';

const deliveryStates = ['delivered', 'pending', 'retrying', 'dead', 'held_as_spam', 'incomplete', 'mock', 'not_configured'] as const;
/** The site a listing is of: required with the platform key, a dealer key's own site when absent. */
const siteParam = z.string({ error: 'site must be given once' }).min(1, 'site is required').optional();
/** A page of a listing: `limit` rows after the `cursor` the previous page ended with (see @dealer/db page-cursor.ts). */
const pageParams = {
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(pageSizes.max, `limit must be at most ${pageSizes.max}`)
    .default(pageSizes.default),
  cursor: z
    .string({ error: 'cursor must be given once' })
    .optional()
    .transform((cursor, context): PagePosition | null => {
      if (cursor === undefined) return null;
      const position = decodeCursor(cursor);
      if (!position) context.addIssue({ code: 'custom', message: 'is not a cursor this listing handed out; start again from the first page (no cursor)' });
      return position;
    }),
};
const leadFilterSchema = z.object({
  site: siteParam,
  since: z.coerce.number().int().nonnegative().optional(),
  /** A lead status ('New', 'Incomplete'...) or 'suspected_spam'. */
  status: z.string().optional(),
  /** Where delivery stands, e.g. 'dead' for the dead letters. */
  delivery: z.enum(deliveryStates, { error: `delivery must be one of ${deliveryStates.join(', ')}` }).optional(),
  /** Mock-mode leads: left out by default, 'only' or 'include'. */
  mock: z.enum(['only', 'include'], { error: 'mock must be only or include' }).optional(),
});
const leadQuerySchema = leadFilterSchema.extend(pageParams);
const leadParamsSchema = z.object({ id: z.coerce.number({ error: 'the lead id must be a number' }).int('the lead id must be a whole number').positive('the lead id must be positive') });
const bookingQuerySchema = z.object({
  site: siteParam,
  from: z.coerce.number().int().nonnegative().optional(),
  to: z.coerce.number().int().nonnegative().optional(),
  ...pageParams,
});
const bookingParamsSchema = z.object({
  id: z.coerce.number({ error: 'the booking id must be a number' }).int('the booking id must be a whole number').positive('the booking id must be positive'),
});
const eventQuerySchema = z.object({ site: siteParam, category: z.string().optional(), ...pageParams });
const reservationQuerySchema = z.object({ site: siteParam, ...pageParams });
const reservationParamsSchema = z.object({
  id: z.coerce.number({ error: 'the reservation id must be a number' }).int('the reservation id must be a whole number').positive('the reservation id must be positive'),
});
const dealerKeyBodySchema = z.object({
  site: z.string({ error: 'site is required' }).min(1, 'site is required'),
  label: z.string({ error: 'label must be text' }).trim().max(100, 'label must be at most 100 characters').default(''),
});
const dealerKeyQuerySchema = z.object({ site: siteParam });
const dealerKeyParamsSchema = z.object({
  id: z.coerce.number({ error: 'the dealer key id must be a number' }).int('the dealer key id must be a whole number').positive('the dealer key id must be positive'),
});
const chatQuerySchema = z.object({
  site: siteParam,
  /** Only the conversations whose latest message is the shopper's (true), or the dealer's (false). */
  awaiting_reply: z
    .enum(['true', 'false'], { error: 'awaiting_reply must be true or false' })
    .optional()
    .transform((value) => (value === undefined ? undefined : value === 'true')),
  /** Mock-mode conversations: left out by default, 'only' or 'include'. */
  mock: z.enum(['only', 'include'], { error: 'mock must be only or include' }).optional(),
  ...pageParams,
});
const chatParamsSchema = z.object({
  id: z.coerce.number({ error: 'the conversation id must be a number' }).int('the conversation id must be a whole number').positive('the conversation id must be positive'),
});
const chatReplySchema = z.strictObject({
  body: messageTextSchema,
  author_name: lineTextSchema('author_name', chatLimits.authorNameMax).nullish(),
});
/** A reply of 1,000 characters (up to 4 bytes each in UTF-8) and who wrote it. */
const chatReplyBodyLimit = 8 * 1024;
const carParamsSchema = z.object({ id: z.coerce.number({ error: 'the car id must be a number' }).int('the car id must be a whole number').positive('the car id must be positive') });

/** Field → message, for the dealer's screen to show each next to its field; unknown fields are named too. */
function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) fields[key] ??= `${key} is not something that can be changed on a car`;
      continue;
    }
    fields[issue.path.join('.') || 'body'] ??= issue.message;
  }
  return fields;
}

const dealerKeyRefusal = 'This needs the platform admin key: a dealer key opens only its own site\'s leads, files, bookings and events.';

/** A query's problems in one line: `field: message; field: message`. */
const queryMessage = (error: z.ZodError) => error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');

const nextCursor = (next: PagePosition | null) => (next ? encodeCursor(next) : null);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An admin route: a dealer key opens it for its own site (`'site'`), or only the platform key does (`'platform'`). */
    adminAccess?: 'site' | 'platform';
  }
}

const checkFields = 'Please check the highlighted fields.';

/** The admin API's answer to a request its schema refuses, in the words it always used. */
function adminRefusal(what: string, bodyFields: (error: z.ZodError) => Record<string, string> = fieldErrors) {
  return (error: z.ZodError, part: RequestPart): SchemaRefusal => {
    if (part === 'params') return { status: 400, body: { message: `Please check the ${what} id.`, fields: { id: error.issues[0]!.message } } };
    if (part === 'querystring') return { status: 400, body: { message: queryMessage(error) } };
    return { status: 400, body: { message: checkFields, fields: bodyFields(error) } };
  };
}

/** A body left out is an empty one (nothing to change, no fields given). */
const orEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((body) => body ?? {}, schema);

const page = (rows: string) => z.object({ [rows]: z.array(z.looseObject({})), next_cursor: z.string().nullable() });
const refusals = { '4xx': refusalSchema, '5xx': refusalSchema };
const leadFileParamsSchema = leadParamsSchema.extend({ fileId: z.string() });

/**
 * Dealer and operator access. The platform admin key opens every route; a dealer key opens the
 * routes of its own site only (another site's listing is a 403, another site's lead a 404, as if
 * it did not exist), and none of the platform's own (car changes, dealer keys). Each route says
 * which in `config.adminAccess`; the key is checked before the request's parameters are judged.
 */
export async function adminRoutes(scope: FastifyInstance, ctx: PlatformContext, checkout: ReservationService, chat: ChatService) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const checkAccess = adminAccessChecker(ctx.db, ctx.config.adminKey);
  const accesses = new WeakMap<FastifyRequest, AdminAccess>();

  app.addHook('preValidation', async (request, reply) => {
    const need = request.routeOptions.config.adminAccess;
    if (!need) return;
    const check = await checkAccess(request);
    if (!check.ok) return reply.code(401).header('WWW-Authenticate', 'Bearer').send({ message: check.message });
    if (need === 'platform' && check.access.kind !== 'platform') return reply.code(403).send({ message: dealerKeyRefusal });
    accesses.set(request, check.access);
  });
  const accessOf = (request: FastifyRequest) => {
    const access = accesses.get(request);
    if (!access) throw new Error(`${request.method} ${request.url}: an admin route without config.adminAccess.`);
    return access;
  };

  const siteLevel = (what: string) => ({ adminAccess: 'site' as const, schemaError: adminRefusal(what) });
  const platformLevel = (what: string) => ({ adminAccess: 'platform' as const, schemaError: adminRefusal(what) });

  /** The site a listing is of: the dealer key's own, or the one `site` names (required with the platform key); null once refused. */
  async function siteOf(request: FastifyRequest, reply: FastifyReply, slug: string | undefined): Promise<{ siteId: number; slug: string } | null> {
    const access = accessOf(request);
    if (access.kind === 'dealer') {
      if (slug === undefined || slug === access.site) return { siteId: access.siteId, slug: access.site };
      await reply.code(403).send({ message: `This dealer key opens ${access.site} only, not ${slug}.` });
      return null;
    }
    if (slug === undefined) {
      await reply.code(400).send({ message: 'site: site is required' });
      return null;
    }
    const siteId = await findSiteIdBySlug(ctx.db, slug);
    if (siteId === null) {
      await reply.code(404).send({ message: `No site with slug ${slug}.` });
      return null;
    }
    return { siteId, slug };
  }

  const leadFilter = (query: z.infer<typeof leadFilterSchema>) => ({
    since: query.since,
    status: query.status,
    delivery: query.delivery,
    mock: query.mock === 'only' ? true : query.mock === 'include' ? ('all' as const) : false,
  });

  /** A page of a site's leads, newest first, each with where its delivery stands. Update tokens are never stored, so never listed. */
  app.get('/api/admin/leads', { config: siteLevel('lead'), schema: { querystring: leadQuerySchema, response: { 200: page('leads'), ...refusals } } }, async (request, reply) => {
    const found = await siteOf(request, reply, request.query.site);
    if (!found) return reply;
    const { limit, cursor } = request.query;
    const leads = await listLeadPage(ctx.db, found.siteId, leadFilter(request.query), { after: cursor, limit });
    return reply.header('Cache-Control', 'no-store').send({ leads: leads.leads, next_cursor: nextCursor(leads.next) });
  });

  /** Every lead of the filter as CSV, written a page at a time as it is read. */
  app.get('/api/admin/leads.csv', { config: siteLevel('lead'), schema: { querystring: leadFilterSchema, response: { 200: z.instanceof(Readable), ...refusals } } }, async (request, reply) => {
    const found = await siteOf(request, reply, request.query.site);
    if (!found) return reply;
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header('Cache-Control', 'no-store')
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="leads-${found.slug.replace(/[^a-z0-9-]/gi, '')}-${day}.csv"`)
      .send(Readable.from(leadsCsvPages(eachLeadPage(ctx.db, found.siteId, leadFilter(request.query)))));
  });

  /** One lead by id, if the key opens its site; null (404 sent) if it does not exist (or is another dealer's). */
  async function leadOf(request: FastifyRequest, reply: FastifyReply, id: number) {
    const access = accessOf(request);
    const lead = await findLead(ctx.db, id);
    if (!lead || (access.kind === 'dealer' && lead.site_id !== access.siteId)) {
      await reply.code(404).send({ message: `No lead with id ${id}.` });
      return null;
    }
    return lead;
  }
  const leadRoute = <R extends z.ZodType>(answer: R) => ({ config: siteLevel('lead'), schema: { params: leadParamsSchema, response: { 200: answer, ...refusals } } });

  const siteSlugOf = async (siteId: number) => (await listSiteSlugs(ctx.db)).find((site) => site.id === siteId)?.slug ?? null;

  /** The delivery log of a lead: its jobs (one per target) and one row per attempt, with what the target said. */
  app.get(
    '/api/admin/leads/:id/deliveries',
    leadRoute(z.object({ lead_id: z.number(), site: z.string().nullable(), delivery: z.unknown(), jobs: z.array(z.looseObject({})), log: z.array(z.looseObject({})) })),
    async (request, reply) => {
      const lead = await leadOf(request, reply, request.params.id);
      if (!lead) return reply;
      const [jobs, log] = await Promise.all([listJobs(ctx.db, lead.id), listDeliveryLog(ctx.db, lead.id)]);
      return reply.header('Cache-Control', 'no-store').send({
        lead_id: lead.id,
        site: await siteSlugOf(lead.site_id),
        delivery: summariseDelivery(lead, jobs),
        jobs: jobs.map(({ target, ...job }) => ({ ...job, target: target.kind })),
        log,
      });
    },
  );

  /** Releases a lead held as suspected spam: it is marked genuine and, when complete, its deliveries are enqueued. */
  app.post('/api/admin/leads/:id/release', leadRoute(z.object({ lead: z.looseObject({}), enqueued: z.number() })), async (request, reply) => {
    const lead = await leadOf(request, reply, request.params.id);
    if (!lead) return reply;
    const result = await releaseLead(ctx.db, lead.id, async (siteId) => {
      const site = await ctx.leads.sites.forId(siteId);
      return site ? deliveryTargetsOf(site) : [];
    });
    if (!result) return reply.code(404).send({ message: `No lead with id ${lead.id}.` });
    if (!result.released) return reply.code(409).send({ message: `Lead ${lead.id} is not held as suspected spam.` });
    if (result.enqueued > 0) ctx.leads.worker.nudge();
    return reply.header('Cache-Control', 'no-store').send({ lead: result.lead, enqueued: result.enqueued });
  });

  /** Gives a lead's dead deliveries another round of attempts (after the dealer fixed a target). */
  app.post('/api/admin/leads/:id/retry', leadRoute(z.object({ lead_id: z.number(), retried: z.number() })), async (request, reply) => {
    const lead = await leadOf(request, reply, request.params.id);
    if (!lead) return reply;
    const retried = await retryDeadJobs(ctx.db, lead.id);
    if (retried === 0) return reply.code(409).send({ message: `Lead ${lead.id} has no dead deliveries to retry.` });
    ctx.leads.worker.nudge();
    return reply.header('Cache-Control', 'no-store').send({ lead_id: lead.id, retried });
  });

  /** A lead's uploaded files, listed, and one downloaded (as an attachment, never rendered inline). */
  app.get('/api/admin/leads/:id/files', leadRoute(z.object({ files: z.array(z.looseObject({ id: z.number() })) })), async (request, reply) => {
    const lead = await leadOf(request, reply, request.params.id);
    if (!lead) return reply;
    const files = await listLeadFiles(ctx.db, lead.id);
    return reply.header('Cache-Control', 'no-store').send({ files: files.map(({ path: _path, ...file }) => file) });
  });

  /**
   * The download goes by the stored name's extension, the type the upload sniffed, never the
   * shopper's own: a PDF sent as `invoice.html` is saved as `invoice.html.pdf`, not opened as a page.
   */
  app.get(
    '/api/admin/leads/:id/files/:fileId',
    { config: siteLevel('lead'), schema: { params: leadFileParamsSchema, response: { 200: z.instanceof(ReadStream), ...refusals } } },
    async (request, reply) => {
      const lead = await leadOf(request, reply, request.params.id);
      if (!lead) return reply;
      const file = (await listLeadFiles(ctx.db, lead.id)).find((entry) => String(entry.id) === request.params.fileId);
      const path = file ? storedFilePath(ctx.config.dataDir, file.path) : null;
      const size = path ? await stat(path).then((info) => (info.isFile() ? info.size : null), () => null) : null;
      if (!file || !path || size === null) return reply.code(404).send({ message: `Lead ${lead.id} has no file ${request.params.fileId}.` });
      return reply
        .header('Cache-Control', 'no-store')
        .header('Content-Type', file.content_type)
        .header('Content-Length', size)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Disposition', attachmentHeader(leadFileName(file.original_name, path)))
        .send(createReadStream(path));
    },
  );

  /** The site's diary, soonest first: confirmed test drives and service drop-offs and live holds, from now (or `from`) for 30 days (or to `to`), epoch ms. */
  app.get('/api/admin/bookings', { config: siteLevel('booking'), schema: { querystring: bookingQuerySchema, response: { 200: page('bookings'), ...refusals } } }, async (request, reply) => {
    const found = await siteOf(request, reply, request.query.site);
    if (!found) return reply;
    const now = Date.now();
    const from = request.query.from ?? now;
    const { limit, cursor } = request.query;
    const bookings = await bookingPage(ctx.db, found.siteId, { from, to: request.query.to ?? from + 30 * 86_400_000, now }, { after: cursor, limit });
    return reply.header('Cache-Control', 'no-store').send({ bookings: bookings.bookings, next_cursor: nextCursor(bookings.next) });
  });

  /**
   * The dealer gives a booking's seat back (the shopper called to cancel, or one address filled the
   * diary): others may book the time at once. The lead stays as it was. Logged with the key that did it.
   */
  app.post(
    '/api/admin/bookings/:id/release',
    { config: siteLevel('booking'), schema: { params: bookingParamsSchema, response: { 200: z.object({ booking: z.looseObject({ id: z.number() }) }), ...refusals } } },
    async (request, reply) => {
      const access = accessOf(request);
      const { id } = request.params;
      // A dealer key releases only its own site's bookings: another's is as if it did not exist.
      const released = await releaseBooking(ctx.db, { id, siteId: access.kind === 'dealer' ? access.siteId : null });
      if (!released) return reply.code(404).send({ message: `No booking with id ${id}.` });
      request.log.info({ bookingId: id, leadId: released.lead_id, by: access.kind === 'dealer' ? `dealer key ${access.keyId}` : 'platform key' }, 'booking released by the dealer');
      return reply.header('Cache-Control', 'no-store').send({ booking: released });
    },
  );

  /** A page of the site's event log (remote failures, analytics), newest first. */
  app.get('/api/admin/events', { config: siteLevel('event'), schema: { querystring: eventQuerySchema, response: { 200: page('events'), ...refusals } } }, async (request, reply) => {
    const found = await siteOf(request, reply, request.query.site);
    if (!found) return reply;
    const { limit, cursor, category } = request.query;
    const events = await eventPage(ctx.db, found.siteId, category, { after: cursor, limit });
    return reply.header('Cache-Control', 'no-store').send({ events: events.events, next_cursor: nextCursor(events.next) });
  });

  /** A page of the site's reservations, newest first: who, which car, the deposit, its payment and refund references, the lead raised. */
  app.get(
    '/api/admin/reservations',
    { config: siteLevel('reservation'), schema: { querystring: reservationQuerySchema, response: { 200: page('reservations'), ...refusals } } },
    async (request, reply) => {
      const found = await siteOf(request, reply, request.query.site);
      if (!found) return reply;
      const reservations = await reservationPage(ctx.db, found.siteId, { after: request.query.cursor, limit: request.query.limit });
      return reply.header('Cache-Control', 'no-store').send({ reservations: reservations.reservations.map(dealerView), next_cursor: nextCursor(reservations.next) });
    },
  );

  /** The dealer gives a reserved car back: the deposit is refunded through the provider that took it, and the car is free again. */
  app.post(
    '/api/admin/reservations/:id/release',
    { config: siteLevel('reservation'), schema: { params: reservationParamsSchema, response: { 200: z.object({ reservation: z.looseObject({ id: z.number() }) }), ...refusals } } },
    async (request, reply) => {
      const access = accessOf(request);
      const { id } = request.params;
      const found = await findReservation(ctx.db, id);
      // A dealer key sees only its own site's reservations: another's is as if it did not exist.
      if (!found || (access.kind === 'dealer' && found.site_id !== access.siteId)) return reply.code(404).send({ message: `No reservation with id ${id}.` });
      const answer = await checkout.release(found.site_id, found.id);
      return sendCheckoutResult(reply.header('Cache-Control', 'no-store'), answer, 200);
    },
  );

  /**
   * The site's chat conversations (issue 11), latest activity first, each with its latest message;
   * `awaiting_reply=true` for those the dealer has yet to answer. A conversation whose lead is held
   * as suspected spam shows once the lead is released.
   */
  app.get('/api/admin/chats', { config: siteLevel('conversation'), schema: { querystring: chatQuerySchema, response: { 200: page('threads'), ...refusals } } }, async (request, reply) => {
    const found = await siteOf(request, reply, request.query.site);
    if (!found) return reply;
    const { limit, cursor, awaiting_reply: awaitingReply, mock } = request.query;
    const threads = await chat.dealerThreads(found.siteId, { awaitingReply, mock: mock === 'only' ? true : mock === 'include' ? 'all' : false }, { after: cursor, limit });
    return reply.header('Cache-Control', 'no-store').send({ threads: threads.threads, next_cursor: nextCursor(threads.next) });
  });

  /** The site a key opens by id (null: every site). */
  const chatSiteOf = (request: FastifyRequest) => {
    const access = accessOf(request);
    return access.kind === 'dealer' ? access.siteId : null;
  };

  const noChat = (id: number) => ({ message: `No chat conversation with id ${id}.` });

  /** One conversation whole, oldest message first; another dealer's is a 404, as if it did not exist. */
  app.get(
    '/api/admin/chats/:id',
    { config: siteLevel('conversation'), schema: { params: chatParamsSchema, response: { 200: z.object({ thread: z.looseObject({ id: z.number() }), messages: z.array(z.looseObject({})) }), ...refusals } } },
    async (request, reply) => {
      const found = await chat.dealerThread(request.params.id, chatSiteOf(request));
      if (!found) return reply.code(404).send(noChat(request.params.id));
      return reply.header('Cache-Control', 'no-store').send(found);
    },
  );

  /** The dealer's answer `{ body, author_name? }`: 201 `{ message }`, seen by the shopper's next poll; 409 once the conversation is full. */
  app.post(
    '/api/admin/chats/:id/replies',
    {
      bodyLimit: chatReplyBodyLimit,
      config: { adminAccess: 'site', schemaError: adminRefusal('conversation', (error) => chatFieldErrors(error, (key) => `${key} is not a field of a reply.`)) },
      schema: { params: chatParamsSchema, body: chatReplySchema, response: { 201: z.object({ message: z.looseObject({ id: z.number() }) }), ...refusals } },
    },
    async (request, reply) => {
      const { id } = request.params;
      const result = await chat.reply(id, chatSiteOf(request), { body: request.body.body, authorName: request.body.author_name || null });
      switch (result.kind) {
        case 'not-found':
          return reply.code(404).send(noChat(id));
        case 'full':
          return reply.code(409).send({ message: `Conversation ${id} has reached its ${chatLimits.messagesPerThread} messages: please call or e-mail the shopper to carry on.` });
        case 'sent':
          return reply.code(201).header('Cache-Control', 'no-store').send({ message: result.message });
      }
    },
  );

  /** Makes a dealer key for a site; the key is in this answer only (only its hash is kept). */
  app.post(
    '/api/admin/dealer-keys',
    { config: platformLevel('dealer key'), schema: { body: orEmpty(dealerKeyBodySchema), response: { 201: z.object({ dealer_key: z.looseObject({ id: z.number() }), key: z.string() }), ...refusals } } },
    async (request, reply) => {
      const { site, label } = request.body;
      const siteId = await findSiteIdBySlug(ctx.db, site);
      if (siteId === null) return reply.code(404).send({ message: `No site with slug ${site}.` });
      const created = await createDealerKey(ctx.db, { id: siteId, slug: site }, label);
      return reply.code(201).header('Cache-Control', 'no-store').send({ dealer_key: created.dealerKey, key: created.key });
    },
  );

  /** The dealer keys of a site (or of every site), revoked ones with when; never the keys themselves. */
  app.get(
    '/api/admin/dealer-keys',
    { config: platformLevel('dealer key'), schema: { querystring: dealerKeyQuerySchema, response: { 200: z.object({ dealer_keys: z.array(z.looseObject({ id: z.number() })) }), ...refusals } } },
    async (request, reply) => {
      const { site } = request.query;
      const siteId = site === undefined ? null : await findSiteIdBySlug(ctx.db, site);
      if (site !== undefined && siteId === null) return reply.code(404).send({ message: `No site with slug ${site}.` });
      return reply.header('Cache-Control', 'no-store').send({ dealer_keys: await listDealerKeys(ctx.db, siteId) });
    },
  );

  /** Revokes a dealer key: it opens nothing from the next request on. */
  app.delete(
    '/api/admin/dealer-keys/:id',
    { config: platformLevel('dealer key'), schema: { params: dealerKeyParamsSchema, response: { 200: z.object({ dealer_key: z.looseObject({ id: z.number() }) }), ...refusals } } },
    async (request, reply) => {
      const revoked = await revokeDealerKey(ctx.db, request.params.id);
      if (!revoked) return reply.code(404).send({ message: `No dealer key with id ${request.params.id}.` });
      return reply.header('Cache-Control', 'no-store').send({ dealer_key: revoked });
    },
  );

  /**
   * A dealer's change to one car (price, status, sold, reserved, tag...): saved in the store and
   * pushed to search before the answer, so the next search on the site shows it.
   */
  app.patch(
    '/api/admin/cars/:id',
    {
      config: platformLevel('car'),
      schema: { params: carParamsSchema, body: orEmpty(carChangeSchema), response: { 200: z.object({ car: z.looseObject({ id: z.number() }), searchUpdated: z.boolean() }), ...refusals } },
    },
    async (request, reply) => {
      const { id } = request.params;
      let updated;
      try {
        updated = await updateCar(ctx.db, id, request.body);
      } catch (error) {
        if (error instanceof CarChangeConflict) return reply.code(400).send({ message: checkFields, fields: error.fields });
        throw error;
      }
      if (!updated) return reply.code(404).send({ message: `No car with id ${id}.` });
      let searchUpdated = true;
      try {
        await ctx.indexer.indexCar(updated.siteId, updated.car);
      } catch (error) {
        // The store has the change; search catches up at the next full indexing (platform start).
        searchUpdated = false;
        request.log.error({ err: error, carId: updated.car.id }, 'car saved but not pushed to search');
      }
      return reply.header('Cache-Control', 'no-store').send({ car: updated.car, searchUpdated });
    },
  );
}
