import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createDealerKey, listDealerKeys, revokeDealerKey } from '@dealer/db/dealer-key-store';
import { findSiteIdBySlug } from '@dealer/db/site-store';
import type { PlatformContext } from '../../platform-context';
import { orEmpty, platformLevel, refusals, siteParam } from './admin-schemas';

const dealerKeyBodySchema = z.object({
  site: z.string({ error: 'site is required' }).min(1, 'site is required'),
  label: z.string({ error: 'label must be text' }).trim().max(100, 'label must be at most 100 characters').default(''),
});
const dealerKeyQuerySchema = z.object({ site: siteParam });
const dealerKeyParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'the dealer key id must be a number' })
    .int('the dealer key id must be a whole number')
    .positive('the dealer key id must be positive'),
});

/** Dealer keys, each opening one site's admin routes: made, listed and revoked with the platform key only. */
export function adminDealerKeyRoutes(scope: FastifyInstance, ctx: PlatformContext) {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  /** Makes a dealer key for a site; the key is in this answer only (only its hash is kept). */
  app.post(
    '/api/admin/dealer-keys',
    {
      config: platformLevel('dealer key'),
      schema: {
        body: orEmpty(dealerKeyBodySchema),
        response: { 201: z.object({ dealer_key: z.looseObject({ id: z.number() }), key: z.string() }), ...refusals },
      },
    },
    async (request, reply) => {
      const { site, label } = request.body;
      const siteId = await findSiteIdBySlug(ctx.db, site);
      if (siteId === null) return reply.code(404).send({ message: `No site with slug ${site}.` });
      const created = await createDealerKey(ctx.db, { id: siteId, slug: site }, label);
      return reply.code(201).header('Cache-Control', 'no-store').send({ dealer_key: created.dealerKey, key: created.key });
    },
  );

  /** The dealer keys of a site (or of every site), revoked ones with when; never the keys themselves. */
  app.get(
    '/api/admin/dealer-keys',
    {
      config: platformLevel('dealer key'),
      schema: {
        querystring: dealerKeyQuerySchema,
        response: { 200: z.object({ dealer_keys: z.array(z.looseObject({ id: z.number() })) }), ...refusals },
      },
    },
    async (request, reply) => {
      const { site } = request.query;
      const siteId = site === undefined ? null : await findSiteIdBySlug(ctx.db, site);
      if (site !== undefined && siteId === null) return reply.code(404).send({ message: `No site with slug ${site}.` });
      return reply.header('Cache-Control', 'no-store').send({ dealer_keys: await listDealerKeys(ctx.db, siteId) });
    },
  );

  /** Revokes a dealer key: it opens nothing from the next request on. */
  app.delete(
    '/api/admin/dealer-keys/:id',
    {
      config: platformLevel('dealer key'),
      schema: {
        params: dealerKeyParamsSchema,
        response: { 200: z.object({ dealer_key: z.looseObject({ id: z.number() }) }), ...refusals },
      },
    },
    async (request, reply) => {
      const revoked = await revokeDealerKey(ctx.db, request.params.id);
      if (!revoked) return reply.code(404).send({ message: `No dealer key with id ${request.params.id}.` });
      return reply.header('Cache-Control', 'no-store').send({ dealer_key: revoked });
    },
  );
}
