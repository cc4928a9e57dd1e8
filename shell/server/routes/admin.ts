import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CarChangeConflict, carChangeSchema, updateCar } from '../db/car-store';
import { listEvents } from '../db/event-store';
import { listLeads } from '../db/lead-store';
import { findSiteIdBySlug } from '../db/site-store';
import type { PlatformContext } from '../platform-context';

const leadQuerySchema = z.object({
  site: z.string().min(1, 'site is required'),
  since: z.coerce.number().int().nonnegative().optional(),
  status: z.string().optional(),
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

  app.get('/api/admin/leads', async (request, reply) => {
    const found = await siteFromQuery(request, reply, leadQuerySchema);
    if (!found) return reply;
    const leads = await listLeads(ctx.db, found.siteId, { since: found.query.since, status: found.query.status });
    return reply.header('Cache-Control', 'no-store').send({ leads });
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
