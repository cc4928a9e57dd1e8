import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CarChangeConflict, carChangeSchema, updateCar } from '../db/car-store';
import { listEvents } from '../db/event-store';
import { listBookings } from '../db/booking-store';
import { createReadStream } from 'node:fs';
import { findLead, listLeadFiles, releaseLead } from '../db/lead-store';
import { listDeliveryLog, listJobs, retryDeadJobs, summariseDelivery } from '../db/outbox-store';
import { findSiteIdBySlug, listSiteSlugs } from '../db/site-store';
import { deliveryTargetsOf } from '../leads/delivery-config';
import { leadsCsv } from '../leads/lead-csv';
import { listLeadsWithDelivery } from '../leads/lead-listing';
import { storedFilePath } from '../leads/lead-file-store';
import type { PlatformContext } from '../platform-context';

const deliveryStates = ['delivered', 'pending', 'retrying', 'dead', 'held_as_spam', 'incomplete', 'mock', 'not_configured'] as const;
const leadQuerySchema = z.object({
  site: z.string().min(1, 'site is required'),
  since: z.coerce.number().int().nonnegative().optional(),
  /** A lead status ('New', 'Incomplete'...) or 'suspected_spam'. */
  status: z.string().optional(),
  /** Where delivery stands, e.g. 'dead' for the dead letters. */
  delivery: z.enum(deliveryStates, { error: `delivery must be one of ${deliveryStates.join(', ')}` }).optional(),
  /** Mock-mode leads: left out by default, 'only' or 'include'. */
  mock: z.enum(['only', 'include'], { error: 'mock must be only or include' }).optional(),
});
const leadParamsSchema = z.object({ id: z.coerce.number({ error: 'the lead id must be a number' }).int('the lead id must be a whole number').positive('the lead id must be positive') });
const bookingQuerySchema = z.object({
  site: z.string().min(1, 'site is required'),
  from: z.coerce.number().int().nonnegative().optional(),
  to: z.coerce.number().int().nonnegative().optional(),
});
const eventQuerySchema = z.object({ site: z.string().min(1, 'site is required'), category: z.string().optional() });
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

/** Dealer and operator access, behind the platform admin bearer key. */
export async function adminRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const expected = Buffer.from(ctx.config.adminKey);
  const authorised = (request: FastifyRequest) => {
    const given = Buffer.from((request.headers.authorization ?? '').replace(/^Bearer\s+/i, ''));
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  async function refuseUnlessAdmin(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    if (authorised(request)) return false;
    await reply.code(401).header('WWW-Authenticate', 'Bearer').send({ message: 'A valid admin key is required (Authorization: Bearer <PLATFORM_ADMIN_KEY>).' });
    return true;
  }

  async function siteFromQuery<T extends { site: string }>(request: FastifyRequest, reply: FastifyReply, schema: z.ZodType<T>) {
    if (await refuseUnlessAdmin(request, reply)) return null;
    const parsed = schema.safeParse(request.query);
    if (!parsed.success) {
      await reply.code(400).send({ message: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ') });
      return null;
    }
    const siteId = await findSiteIdBySlug(ctx.db, parsed.data.site);
    if (siteId === null) {
      await reply.code(404).send({ message: `No site with slug ${parsed.data.site}.` });
      return null;
    }
    return { siteId, query: parsed.data };
  }

  const leadFilter = (query: z.infer<typeof leadQuerySchema>) => ({
    since: query.since,
    status: query.status,
    delivery: query.delivery,
    mock: query.mock === 'only' ? true : query.mock === 'include' ? ('all' as const) : false,
  });

  /** A site's leads, each with where its delivery stands. Update tokens are never stored, so never listed. */
  app.get('/api/admin/leads', async (request, reply) => {
    const found = await siteFromQuery(request, reply, leadQuerySchema);
    if (!found) return reply;
    const leads = await listLeadsWithDelivery(ctx.db, found.siteId, leadFilter(found.query));
    return reply.header('Cache-Control', 'no-store').send({ leads });
  });

  app.get('/api/admin/leads.csv', async (request, reply) => {
    const found = await siteFromQuery(request, reply, leadQuerySchema);
    if (!found) return reply;
    const leads = await listLeadsWithDelivery(ctx.db, found.siteId, leadFilter(found.query));
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header('Cache-Control', 'no-store')
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="leads-${found.query.site.replace(/[^a-z0-9-]/gi, '')}-${day}.csv"`)
      .send(leadsCsv(leads));
  });

  /** One lead by id from the path, for the admin key holder; 404 if it does not exist. */
  async function leadFromParams(request: FastifyRequest, reply: FastifyReply) {
    if (await refuseUnlessAdmin(request, reply)) return null;
    const params = leadParamsSchema.safeParse(request.params);
    if (!params.success) {
      await reply.code(400).send({ message: 'Please check the lead id.', fields: { id: params.error.issues[0]!.message } });
      return null;
    }
    const lead = await findLead(ctx.db, params.data.id);
    if (!lead) {
      await reply.code(404).send({ message: `No lead with id ${params.data.id}.` });
      return null;
    }
    return lead;
  }

  const siteSlugOf = async (siteId: number) => (await listSiteSlugs(ctx.db)).find((site) => site.id === siteId)?.slug ?? null;

  /** The delivery log of a lead: its jobs (one per target) and one row per attempt, with what the target said. */
  app.get('/api/admin/leads/:id/deliveries', async (request, reply) => {
    const lead = await leadFromParams(request, reply);
    if (!lead) return reply;
    const [jobs, log] = await Promise.all([listJobs(ctx.db, lead.id), listDeliveryLog(ctx.db, lead.id)]);
    return reply.header('Cache-Control', 'no-store').send({
      lead_id: lead.id,
      site: await siteSlugOf(lead.site_id),
      delivery: summariseDelivery(lead, jobs),
      jobs: jobs.map(({ target, ...job }) => ({ ...job, target: target.kind })),
      log,
    });
  });

  /** Releases a lead held as suspected spam: it is marked genuine and, when complete, its deliveries are enqueued. */
  app.post('/api/admin/leads/:id/release', async (request, reply) => {
    const lead = await leadFromParams(request, reply);
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
  app.post('/api/admin/leads/:id/retry', async (request, reply) => {
    const lead = await leadFromParams(request, reply);
    if (!lead) return reply;
    const retried = await retryDeadJobs(ctx.db, lead.id);
    if (retried === 0) return reply.code(409).send({ message: `Lead ${lead.id} has no dead deliveries to retry.` });
    ctx.leads.worker.nudge();
    return reply.header('Cache-Control', 'no-store').send({ lead_id: lead.id, retried });
  });

  /** A lead's uploaded files, listed, and one downloaded (as an attachment, never rendered inline). */
  app.get('/api/admin/leads/:id/files', async (request, reply) => {
    const lead = await leadFromParams(request, reply);
    if (!lead) return reply;
    const files = await listLeadFiles(ctx.db, lead.id);
    return reply.header('Cache-Control', 'no-store').send({ files: files.map(({ path: _path, ...file }) => file) });
  });

  app.get<{ Params: { id: string; fileId: string } }>('/api/admin/leads/:id/files/:fileId', async (request, reply) => {
    const lead = await leadFromParams(request, reply);
    if (!lead) return reply;
    const file = (await listLeadFiles(ctx.db, lead.id)).find((entry) => String(entry.id) === request.params.fileId);
    if (!file) return reply.code(404).send({ message: `Lead ${lead.id} has no file ${request.params.fileId}.` });
    const path = storedFilePath(ctx.config.dataDir, file.path);
    if (!path) return reply.code(404).send({ message: `Lead ${lead.id} has no file ${request.params.fileId}.` });
    const name = file.original_name.replace(/[^\w.\- ]/g, '_');
    return reply
      .header('Cache-Control', 'no-store')
      .header('Content-Type', file.content_type)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Disposition', `attachment; filename="${name}"`)
      .send(createReadStream(path));
  });

  /** The site's diary: confirmed test drives and service drop-offs and live holds, from now (or `from`) for 30 days (or to `to`), epoch ms. */
  app.get('/api/admin/bookings', async (request, reply) => {
    const found = await siteFromQuery(request, reply, bookingQuerySchema);
    if (!found) return reply;
    const now = Date.now();
    const from = found.query.from ?? now;
    const bookings = await listBookings(ctx.db, found.siteId, { from, to: found.query.to ?? from + 30 * 86_400_000, now });
    return reply.header('Cache-Control', 'no-store').send({ bookings });
  });

  app.get('/api/admin/events', async (request, reply) => {
    const found = await siteFromQuery(request, reply, eventQuerySchema);
    if (!found) return reply;
    return reply.header('Cache-Control', 'no-store').send({ events: await listEvents(ctx.db, found.siteId, found.query.category) });
  });

  /**
   * A dealer's change to one car (price, status, sold, reserved, tag...): saved in the store and
   * pushed to search before the answer, so the next search on the site shows it.
   */
  app.patch<{ Params: { id: string } }>('/api/admin/cars/:id', async (request, reply) => {
    if (await refuseUnlessAdmin(request, reply)) return reply;
    const params = carParamsSchema.safeParse(request.params);
    if (!params.success) return reply.code(400).send({ message: 'Please check the car id.', fields: { id: params.error.issues[0]!.message } });
    const change = carChangeSchema.safeParse(request.body ?? {});
    if (!change.success) return reply.code(400).send({ message: 'Please check the highlighted fields.', fields: fieldErrors(change.error) });
    let updated;
    try {
      updated = await updateCar(ctx.db, params.data.id, change.data);
    } catch (error) {
      if (error instanceof CarChangeConflict) return reply.code(400).send({ message: 'Please check the highlighted fields.', fields: error.fields });
      throw error;
    }
    if (!updated) return reply.code(404).send({ message: `No car with id ${params.data.id}.` });
    let searchUpdated = true;
    try {
      await ctx.indexer.indexCar(updated.siteId, updated.car);
    } catch (error) {
      // The store has the change; search catches up at the next full indexing (platform start).
      searchUpdated = false;
      request.log.error({ err: error, carId: updated.car.id }, 'car saved but not pushed to search');
    }
    return reply.header('Cache-Control', 'no-store').send({ car: updated.car, searchUpdated });
  });
}
