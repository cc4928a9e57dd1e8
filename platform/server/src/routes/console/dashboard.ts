import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dashboardOf } from '@dealer/db/console-dashboard-store';
import { loadSiteConfig } from '@dealer/db/site-store';
import type { PlatformContext } from '../../platform-context';
import { refusals } from '../admin/admin-schemas';
import type { ConsoleRequests } from './console-access';

/**
 * `GET /api/console/sites/:site/dashboard?days=30` (`dashboard.read`): leads per day by form and by
 * location (with the locations' names), the funnel from the site's event log, the most viewed cars
 * and lead delivery health, over the last 7 to 90 days.
 */
export function consoleDashboardRoutes(scope: FastifyInstance, ctx: PlatformContext, { siteOf }: ConsoleRequests) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/console/sites/:site/dashboard',
    {
      config: { console: 'dashboard.read' },
      schema: {
        params: z.object({ site: z.string() }),
        querystring: z.object({ days: z.coerce.number().int().min(7, 'days is 7 to 90').max(90, 'days is 7 to 90').default(30) }),
        response: { 200: z.looseObject({}), ...refusals },
      },
    },
    async (request, reply) => {
      const site = siteOf(request);
      const now = Date.now();
      const today = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T00:00:00Z`);
      const since = today - (request.query.days - 1) * 86_400_000;
      const [figures, config] = await Promise.all([dashboardOf(ctx.db, ctx.dialect, site.id, since, now), loadSiteConfig(ctx.db, site.id)]);
      const locations = Object.fromEntries((config?.locations ?? []).map((location) => [String(location.id), location.name]));
      return reply.send({ ...figures, locations });
    },
  );
}
