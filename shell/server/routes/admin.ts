import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
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

/** Dealer and operator access, behind the platform admin bearer key. */
export async function adminRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const expected = Buffer.from(ctx.config.adminKey);
  const authorised = (request: FastifyRequest) => {
    const given = Buffer.from((request.headers.authorization ?? '').replace(/^Bearer\s+/i, ''));
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  async function siteFromQuery<T extends { site: string }>(request: FastifyRequest, reply: FastifyReply, schema: z.ZodType<T>) {
    if (!authorised(request)) {
      await reply.code(401).header('WWW-Authenticate', 'Bearer').send({ message: 'A valid admin key is required (Authorization: Bearer <PLATFORM_ADMIN_KEY>).' });
      return null;
    }
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
}
