import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditPage } from '@dealer/db/console-lead-store';
import type { PlatformContext } from '../../platform-context';
import { nextCursor, page, pageParams, refusals } from '../admin/admin-schemas';
import type { ConsoleRequests } from './console-access';

/** `GET /api/console/sites/:site/audit`: every change made to the site through the console, newest first (`audit.read`). */
export function consoleAuditRoutes(scope: FastifyInstance, ctx: PlatformContext, { siteOf }: ConsoleRequests) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/console/sites/:site/audit',
    {
      config: { console: 'audit.read' },
      schema: {
        params: z.object({ site: z.string() }),
        querystring: z.object(pageParams),
        response: { 200: page('entries'), ...refusals },
      },
    },
    async (request, reply) => {
      const found = await auditPage(ctx.db, siteOf(request).id, { after: request.query.cursor, limit: request.query.limit });
      return reply.send({ entries: found.entries, next_cursor: nextCursor(found.next) });
    },
  );
}
