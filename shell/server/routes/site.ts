import type { FastifyInstance } from 'fastify';
import { carSlugPattern } from '@dealer/contracts/car';
import { findCarBySlug } from '../db/car-store';
import { isCarOnSite } from '../search/site-search';
import type { PlatformContext } from '../platform-context';
import { siteDeps } from '../platform-context';
import { requireSite } from '../tenancy/site-context';

export async function siteRoutes(app: FastifyInstance, ctx: PlatformContext) {
  app.get('/api/health', async () => ({ status: 'ok' }));

  app.get('/api/site', async (request, reply) => {
    const resolved = await requireSite(request, reply, siteDeps(ctx));
    if (!resolved) return reply;
    return reply.header('Cache-Control', 'no-cache').send(resolved.publicConfig);
  });

  app.get<{ Params: { slug: string } }>('/api/cars/:slug', async (request, reply) => {
    const resolved = await requireSite(request, reply, siteDeps(ctx));
    if (!resolved) return reply;
    const { slug } = request.params;
    // SPEC §5: a slug with other characters gives an empty result.
    const car = carSlugPattern.test(slug) ? await findCarBySlug(ctx.db, resolved.site.id, slug) : null;
    if (!car || !isCarOnSite(resolved.site, car, Math.floor(Date.now() / 1000))) {
      return reply.code(404).send({ message: 'This vehicle is no longer available.' });
    }
    return car;
  });
}
