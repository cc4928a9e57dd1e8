import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { carSchema, carSlugPattern, type Car } from '@dealer/contracts/car';
import { publicSiteConfigSchema, type SiteConfig } from '@dealer/contracts/site';
import { findCarBySlug } from '@dealer/db/car-store';
import type { PlatformDb } from '@dealer/db/database';
import { isCarOnSite } from '../search/site-search';
import type { PlatformContext } from '../platform-context';
import { freshSiteContext } from '../tenancy/site-plugin';
import { refusalSchema } from '../http/zod-schemas';
import { siteConfigPath, siteConfigVersion } from '../document/site-config-url';

export const carNotFoundMessage = 'This vehicle is no longer available.';

/**
 * The car a shopper may see at this slug on this site, or null: a slug with other characters
 * than SPEC §5 allows, a car of another site, one the site's search would not list (hidden,
 * filtered out, sold before the sold-cars window).
 */
export async function findCarOnSite(
  db: PlatformDb,
  site: SiteConfig,
  slug: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<Car | null> {
  if (!carSlugPattern.test(slug)) return null;
  const car = await findCarBySlug(db, site.id, slug);
  return car && isCarOnSite(site, car, nowSeconds) ? car : null;
}

const carAnswers = { 200: carSchema, '4xx': refusalSchema };

export async function siteRoutes(scope: FastifyInstance, ctx: PlatformContext) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.get('/api/health', { schema: { response: { 200: z.object({ status: z.literal('ok') }) } } }, async () => ({ status: 'ok' as const }));

  // `v`: the version a server-rendered page names (document/site-config-url.ts). While it is the
  // site's current config, the browser keeps the answer for good (a change makes a new address);
  // any other version, or none, is answered with the current config, asked afresh each time.
  const siteQuery = z.object({ v: z.string().max(64).optional() });
  app.get(
    siteConfigPath,
    { config: { site: 'fresh' }, schema: { querystring: siteQuery, response: { 200: publicSiteConfigSchema, '4xx': refusalSchema } } },
    async (request, reply) => {
      const { publicConfig } = await freshSiteContext(request);
      const version = siteConfigVersion(publicConfig);
      const current = request.query.v === version;
      return reply
        .header('ETag', `"${version}"`)
        .header('Cache-Control', current ? 'public, max-age=31536000, immutable' : 'no-cache')
        .send(publicConfig);
    },
  );

  app.get(
    '/api/cars/:slug',
    { config: { site: 'fresh' }, schema: { params: z.object({ slug: z.string() }), response: carAnswers } },
    async (request, reply) => {
      // SPEC §5: a slug with other characters gives an empty result.
      const car = await findCarOnSite(ctx.db, request.site, request.params.slug);
      if (!car) return reply.code(404).send({ message: carNotFoundMessage });
      return car;
    },
  );

  /**
   * SPEC §7 car detail call: `GET {api}/websites/{websiteId}/cars/{slug}.json`, the same car as
   * `/api/cars/:slug`. The website id must be the site the request's host serves: one site's
   * pages can never read another's stock by naming its id. Any mismatch is a plain 404.
   */
  app.get(
    '/api/websites/:websiteId/cars/:file',
    { config: { site: 'fresh' }, schema: { params: z.object({ websiteId: z.string(), file: z.string() }), response: carAnswers } },
    async (request, reply) => {
      const { site } = request;
      const { websiteId, file } = request.params;
      const slug = file.endsWith('.json') ? file.slice(0, -'.json'.length) : null;
      const sameSite = /^\d{1,15}$/.test(websiteId) && Number(websiteId) === site.id;
      const car = sameSite && slug ? await findCarOnSite(ctx.db, site, slug) : null;
      if (!car) return reply.code(404).send({ message: carNotFoundMessage });
      return car;
    },
  );
}
