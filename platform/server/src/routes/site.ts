import type { FastifyInstance } from 'fastify';
import { carSlugPattern, type Car } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';
import { findCarBySlug } from '@dealer/db/car-store';
import type { PlatformDb } from '@dealer/db/database';
import { isCarOnSite } from '../search/site-search';
import type { PlatformContext } from '../platform-context';
import { siteDeps } from '../platform-context';
import { requireSite } from '../tenancy/site-context';

export const carNotFoundMessage = 'This vehicle is no longer available.';

/**
 * The car a shopper may see at this slug on this site, or null: a slug with other characters
 * than SPEC §5 allows, a car of another site, one the site's search would not list (hidden,
 * filtered out, sold before the sold-cars window).
 */
export async function findCarOnSite(db: PlatformDb, site: SiteConfig, slug: string, nowSeconds = Math.floor(Date.now() / 1000)): Promise<Car | null> {
  if (!carSlugPattern.test(slug)) return null;
  const car = await findCarBySlug(db, site.id, slug);
  return car && isCarOnSite(site, car, nowSeconds) ? car : null;
}

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
    // SPEC §5: a slug with other characters gives an empty result.
    const car = await findCarOnSite(ctx.db, resolved.site, request.params.slug);
    if (!car) return reply.code(404).send({ message: carNotFoundMessage });
    return car;
  });

  /**
   * SPEC §7 car detail call: `GET {api}/websites/{websiteId}/cars/{slug}.json`, the same car as
   * `/api/cars/:slug`. The website id must be the site the request's host serves: one site's
   * pages can never read another's stock by naming its id. Any mismatch is a plain 404.
   */
  app.get<{ Params: { websiteId: string; file: string } }>('/api/websites/:websiteId/cars/:file', async (request, reply) => {
    const resolved = await requireSite(request, reply, siteDeps(ctx));
    if (!resolved) return reply;
    const { websiteId, file } = request.params;
    const slug = file.endsWith('.json') ? file.slice(0, -'.json'.length) : null;
    const sameSite = /^\d{1,15}$/.test(websiteId) && Number(websiteId) === resolved.site.id;
    const car = sameSite && slug ? await findCarOnSite(ctx.db, resolved.site, slug) : null;
    if (!car) return reply.code(404).send({ message: carNotFoundMessage });
    return car;
  });
}
