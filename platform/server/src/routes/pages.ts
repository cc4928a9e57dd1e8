/**
 * `GET /api/pages?path=/about`: a content page as the site shows it (issue 24), for the shell's
 * navigation from page to page (the first page arrives with its document as `#route-data`).
 * The same answer as the document: 404 for a page never written, unpublished, or an ended offer.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { resolveRoute } from '@dealer/rules/routes';
import { contentForRoute } from '../content/content-route';
import { keptSearchLandingFor, landingAnswer } from '../content/search-landing';
import type { PlatformContext } from '../platform-context';
import { freshSiteContext } from '../tenancy/site-plugin';
import { refusalSchema } from '../http/zod-schemas';

export const pageNotFoundMessage = 'There is no page at this address.';
export const landingNotFoundMessage = 'This site has no search page at this address.';

const query = z.object({
  path: z
    .string()
    .max(2000, 'A page address is at most 2,000 characters.')
    .regex(/^\/(?!\/)/, 'A page address starts with one slash, such as /about.'),
});

export async function pageRoutes(scope: FastifyInstance, ctx: PlatformContext) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/pages',
    { config: { site: 'fresh' }, schema: { querystring: query, response: { 200: z.unknown(), '4xx': refusalSchema } } },
    async (request, reply) => {
      const context = await freshSiteContext(request);
      const url = new URL(request.query.path, context.origin);
      const match = resolveRoute(context.site, url.pathname, url.searchParams);
      const content = await contentForRoute(ctx.db, context.site, match, url, { drafts: context.previewDrafts === true, now: Date.now() });
      // Someone previewing drafts is answered what nobody else may keep.
      reply.header('Cache-Control', context.preview ? 'private, no-store' : 'no-cache');
      if (!content?.page) return reply.code(404).send({ message: pageNotFoundMessage });
      return content.page;
    },
  );

  // A search landing page's title, intro and filters (mf-search shows them over the filtered stock).
  app.get(
    '/api/search-pages/:slug',
    {
      config: { site: 'fresh' },
      schema: { params: z.object({ slug: z.string().max(120) }), response: { 200: z.unknown(), '4xx': refusalSchema } },
    },
    async (request, reply) => {
      const context = await freshSiteContext(request);
      const landing = await keptSearchLandingFor(ctx.db, context.site, request.params.slug, { drafts: context.previewDrafts === true });
      reply.header('Cache-Control', context.preview ? 'private, no-store' : 'no-cache');
      if (!landing) return reply.code(404).send({ message: landingNotFoundMessage });
      return landingAnswer(landing);
    },
  );
}
