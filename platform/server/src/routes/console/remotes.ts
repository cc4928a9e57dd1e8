import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loadSiteConfig } from '@dealer/db/site-store';
import type { PlatformContext } from '../../platform-context';
import { refusals } from '../admin/admin-schemas';
import type { ConsoleRequests } from './console-access';

/**
 * `GET /api/console/sites/:site/remotes`: the remote entries the site runs (each remote on, at its
 * pinned version or the latest), so the console loads a domain's dealer screen at the site's version.
 */
export function consoleRemoteRoutes(scope: FastifyInstance, ctx: PlatformContext, { siteOf }: ConsoleRequests) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/console/sites/:site/remotes',
    {
      config: { console: 'dashboard.read' },
      schema: {
        params: z.object({ site: z.string() }),
        response: { 200: z.object({ remotes: z.array(z.object({ name: z.string(), entry: z.string() })) }), ...refusals },
      },
    },
    async (request, reply) => {
      const config = await loadSiteConfig(ctx.db, siteOf(request).id);
      const origin = `${request.protocol}://${(request.headers.host ?? '').toLowerCase()}`;
      const resolved = ctx.registry.resolve(config?.remotes ?? [], ctx.config.remotesBaseUrl ?? origin);
      return reply.send({ remotes: resolved.map((remote) => ({ name: remote.name, entry: remote.entryUrl })) });
    },
  );
}
