import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { newSiteSchema } from '@dealer/contracts/new-site';
import { insertAudit } from '@dealer/db/console-lead-store';
import { siteTemplateDefaults } from '@dealer/rules/site-templates';
import type { PlatformContext } from '../../platform-context';
import { createSite, SiteRefused, slugOrigin } from '../../sites/create-site';
import { checkFields, refusals } from '../admin/admin-schemas';
import { fieldErrors } from '../auth';
import type { ConsoleRequests } from './console-access';

/**
 * Opening a dealer site from the console (`sites.create`, operators only; issue 24 onboarding):
 * - `GET /api/console/site-templates`: the kinds of site to choose from;
 * - `POST /api/console/sites` with a `NewSite`: the site made from its template, serving at once at
 *   its host; audited. A taken address or domain, or a bad field, comes back beside its field.
 */
export function consoleSiteRoutes(scope: FastifyInstance, ctx: PlatformContext, { userOf }: ConsoleRequests) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const schemaError = (error: z.ZodError) => ({ status: 400, body: { message: checkFields, fields: fieldErrors(error) } });

  app.get(
    '/api/console/site-templates',
    {
      config: { console: 'sites.create' },
      schema: { response: { 200: z.object({ templates: z.array(z.object({ id: z.string(), label: z.string() })) }), ...refusals } },
    },
    async (_request, reply) =>
      reply.send({ templates: Object.entries(siteTemplateDefaults).map(([id, template]) => ({ id, label: template.label })) }),
  );

  app.post(
    '/api/console/sites',
    {
      bodyLimit: 256 * 1024,
      config: { console: 'sites.create', schemaError },
      schema: {
        body: newSiteSchema,
        response: { 201: z.object({ id: z.number(), slug: z.string(), name: z.string(), url: z.string() }), ...refusals },
      },
    },
    async (request, reply) => {
      const user = userOf(request);
      try {
        const site = await createSite(ctx.db, request.body, slugOrigin(ctx.config.publicOriginSuffix, ctx.config.port));
        await insertAudit(
          ctx.db,
          {
            siteId: site.id,
            userId: user.id,
            userEmail: user.email,
            action: 'sites.create',
            target: 'site',
            before: null,
            after: { slug: site.slug, name: site.name, template: site.template, domain_name: site.domain_name },
          },
          Date.now(),
        );
        ctx.sites.clear();
        return reply.code(201).send({ id: site.id, slug: site.slug, name: site.name, url: site.url });
      } catch (error) {
        if (error instanceof SiteRefused) return reply.code(400).send({ message: checkFields, fields: error.fields });
        throw error;
      }
    },
  );
}
