import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { eventPage } from '@dealer/db/admin-pages';
import type { PlatformContext } from '../../platform-context';
import type { AdminRequests } from './admin-access';
import { nextCursor, page, pageParams, refusals, siteLevel, siteParam } from './admin-schemas';

const eventQuerySchema = z.object({ site: siteParam, category: z.string().optional(), ...pageParams });

/** A site's event log. */
export function adminEventRoutes(scope: FastifyInstance, ctx: PlatformContext, { siteOf }: AdminRequests) {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  /** A page of the site's event log (remote failures, analytics), newest first. */
  app.get(
    '/api/admin/events',
    { config: siteLevel('event'), schema: { querystring: eventQuerySchema, response: { 200: page('events'), ...refusals } } },
    async (request, reply) => {
      const found = await siteOf(request, reply, request.query.site);
      if (!found) return reply;
      const { limit, cursor, category } = request.query;
      const events = await eventPage(ctx.db, found.siteId, category, { after: cursor, limit });
      return reply.header('Cache-Control', 'no-store').send({ events: events.events, next_cursor: nextCursor(events.next) });
    },
  );
}
