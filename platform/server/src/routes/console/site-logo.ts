import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SiteConfig } from '@dealer/contracts/site';
import { drawnLogoPath } from '@dealer/rules/wordmark';
import { insertAudit } from '@dealer/db/console-lead-store';
import { saveSiteImage } from '@dealer/db/site-image-store';
import { changeSiteConfig } from '@dealer/db/site-store';
import { ImageRefused, processLogo, siteImageUrl, uploadMaxBytes } from '../../images/site-images';
import type { PlatformContext } from '../../platform-context';
import { refusals } from '../admin/admin-schemas';
import type { ConsoleRequests } from './console-access';

/** The wordmark the platform draws from the site's name and colour, the logo of a site that has not uploaded one. */
export const drawnLogo = (slug: string): SiteConfig['logo'] => ({
  url: drawnLogoPath(slug),
  thumb: drawnLogoPath(slug),
  banner: null,
});

/**
 * A site's logo (`settings.write`):
 * - `PUT /api/console/sites/:site/logo`: the picture as the body (PNG, JPEG or WebP, at most 2 MB),
 *   processed (site-images.ts) and shown in the site's header from the shoppers' next page;
 * - `DELETE /api/console/sites/:site/logo`: back to the drawn wordmark.
 * Both audited with the logo's address before and after.
 */
export function consoleSiteLogoRoutes(scope: FastifyInstance, ctx: PlatformContext, { userOf, siteOf }: ConsoleRequests) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const params = z.object({ site: z.string() });
  const logoAnswer = z.object({ logo: z.string(), uploaded: z.boolean() });

  async function setLogo(siteId: number, logo: SiteConfig['logo'], user: { id: number; email: string }) {
    const now = Date.now();
    // On the site as it is now, so a settings save or the stock summary written meanwhile stays.
    const saved = await changeSiteConfig(ctx.db, ctx.dialect, siteId, (current) => ({ site: { ...current, logo }, result: null }), now);
    if (!saved) return null;
    const current = saved.before;
    if (current.logo.url !== logo.url)
      await insertAudit(
        ctx.db,
        {
          siteId,
          userId: user.id,
          userEmail: user.email,
          action: 'settings.write',
          target: 'logo',
          before: { logo: current.logo.url },
          after: { logo: logo.url },
        },
        now,
      );
    ctx.sites.clear();
    return { logo: logo.url, uploaded: logo.url !== drawnLogo(current.slug).url };
  }

  app.put(
    '/api/console/sites/:site/logo',
    {
      bodyLimit: uploadMaxBytes,
      config: { console: 'settings.write' },
      schema: {
        params,
        body: z.instanceof(Buffer, { error: 'Upload a PNG, JPEG or WebP picture.' }),
        response: { 200: logoAnswer, ...refusals },
      },
    },
    async (request, reply) => {
      const site = siteOf(request);
      let image;
      try {
        image = await processLogo(request.body, site.id, Date.now());
      } catch (error) {
        if (error instanceof ImageRefused) return reply.code(400).send({ message: error.message, fields: { logo: error.message } });
        throw error;
      }
      await saveSiteImage(ctx.db, image);
      const url = siteImageUrl(image.hash);
      const answer = await setLogo(site.id, { url, thumb: url, banner: null }, userOf(request));
      return answer ? reply.send(answer) : reply.code(404).send({ message: 'There is no such site.' });
    },
  );

  app.delete(
    '/api/console/sites/:site/logo',
    { config: { console: 'settings.write' }, schema: { params, response: { 200: logoAnswer, ...refusals } } },
    async (request, reply) => {
      const site = siteOf(request);
      const answer = await setLogo(site.id, drawnLogo(site.slug), userOf(request));
      return answer ? reply.send(answer) : reply.code(404).send({ message: 'There is no such site.' });
    },
  );
}
