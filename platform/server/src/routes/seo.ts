import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { garagePath, resolveRoute, searchPathFor, vehiclePath } from '@dealer/rules/routes';
import { routeOwner } from '@dealer/rules/route-modules';
import { remoteOfModule } from '@dealer/contracts/remote-modules';
import type { NavLink } from '@dealer/contracts/site';
import { listSiteCars } from '@dealer/db/car-store';
import { listPublishedContent } from '@dealer/db/content-store';
import { contentPath } from './console/content';
import { canonicalOrigin, renderRobots, trimPath, renderSitemap, sitemapDate, sitemapUrlLimit, type SitemapEntry } from '../document/seo';
import { isCarOnSite } from '../search/site-search';
import type { PlatformContext } from '../platform-context';
import type { SiteContext } from '../tenancy/site-context';
import { siteRefusals } from '../tenancy/site-plugin';

/** Paths no crawler has business in: the APIs, the search service, checkout, thank-you and garage pages. */
const privatePaths = ['/api/', '/meili/', '/checkout', '/success', '/my-garage'];

/** The request's site, or a plain-text 400/404 already sent (these files are not JSON APIs). */
async function siteOrNotFound(request: FastifyRequest, reply: FastifyReply): Promise<SiteContext | null> {
  const resolved = await request.siteContext();
  if (resolved === 'invalid') {
    await reply.code(400).type('text/plain; charset=utf-8').send(`${siteRefusals.invalidHost}\n`);
    return null;
  }
  if (resolved === null || resolved === 'index') {
    await reply.code(404).type('text/plain; charset=utf-8').send(`${siteRefusals.noSite}\n`);
    return null;
  }
  return resolved;
}

/**
 * Per-site `robots.txt` and `sitemap.xml`. Static paths, so the router serves them before the
 * document catch-all (`/*`) whatever the registration order.
 */
/** Plain text and XML, not JSON: the schemas say so, and nothing is serialised. */
const schema = { response: { 200: z.string(), '4xx': z.string() } };

export async function seoRoutes(scope: FastifyInstance, ctx: PlatformContext) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  /**
   * Every page a search engine should know: home, the search page and the site's search
   * categories (when the site's search remote serves them), and every car the site's search lists
   * (isCarOnSite, the rule car pages answer by) at its detail path, dated by when it was listed.
   */
  app.get('/sitemap.xml', { schema }, async (request, reply) => {
    const resolved = await siteOrNotFound(request, reply);
    if (!resolved) return reply;
    const { site, publicConfig, origin } = resolved;
    const siteOrigin = canonicalOrigin(site, origin);
    const served = new Set(publicConfig.remotes.map((remote) => remote.name));
    // A page is listed only if the document route would answer it with 200.
    const answers = (path: string) => {
      const match = resolveRoute(site, path);
      if (match.kind === 'redirect' || match.kind === 'not-found') return false;
      const owner = routeOwner(match);
      return !owner || served.has(remoteOfModule(owner.module));
    };

    // The site's electric stock is a page of its own where the site's menus offer it.
    const linked = (links: NavLink[]): boolean => links.some((link) => link.to === '/electric-cars' || linked(link.children ?? []));
    const electric = linked([...site.navigation.header, ...site.navigation.footer]) ? ['/electric-cars'] : [];
    const pages = ['/', searchPathFor(site), ...site.search_categories.map((category) => category.path), ...electric];
    const entries: SitemapEntry[] = [];
    const seen = new Set<string>();
    for (const page of pages) {
      const path = trimPath(page);
      if (seen.has(path) || !answers(path)) continue;
      seen.add(path);
      entries.push({ loc: `${siteOrigin}${path}` });
    }

    // The dealer's published pages, news posts and current offers (issue 24), and careers while jobs are open.
    const now = Date.now();
    const section = site.features.blog_to_news ? 'news' : 'blog';
    for (const kind of ['page', 'offer', 'post', 'job', 'landing'] as const) {
      const { items } = await listPublishedContent(ctx.db, site.id, kind, { offset: 0, limit: sitemapUrlLimit, now });
      // The news list comes before its posts, dated by the newest; every open job is the one careers page.
      const listed = items.map((item) => ({
        path: contentPath(kind, item.slug, section),
        updatedAt: item.updated_at,
        home: item.slug === 'home',
      }));
      if (kind === 'post' && items.length > 0) listed.unshift({ path: `/${section}`, updatedAt: items[0]!.updated_at, home: false });
      for (const { path, updatedAt, home } of listed) {
        if (home || seen.has(path) || entries.length >= sitemapUrlLimit || !answers(path)) continue;
        seen.add(path);
        entries.push({ loc: `${siteOrigin}${path}`, lastmod: sitemapDate(new Date(updatedAt).toISOString()) });
      }
    }

    if (served.has('mf-vehicle')) {
      const nowSeconds = Math.floor(now / 1000);
      const cars = (await listSiteCars(ctx.db, site.id)).filter((car) => isCarOnSite(site, car, nowSeconds));
      // Newest first, so a site over the protocol's limit keeps its freshest stock.
      cars.sort((a, b) => b.created_at_timestamp - a.created_at_timestamp || a.id - b.id);
      for (const car of cars.slice(0, sitemapUrlLimit - entries.length)) {
        entries.push({
          loc: `${siteOrigin}${vehiclePath(site, encodeURIComponent(car.slug))}`,
          lastmod: sitemapDate(car.created_at) ?? sitemapDate(car.created_at_timestamp),
        });
      }
    }

    return reply.header('Cache-Control', 'public, max-age=300').type('application/xml; charset=utf-8').send(renderSitemap(entries));
  });

  app.get('/robots.txt', { schema }, async (request, reply) => {
    const resolved = await siteOrNotFound(request, reply);
    if (!resolved) return reply;
    const { site, origin } = resolved;
    // Per-car checkout pages too ('*' is understood by the major crawlers).
    const disallow = [...privatePaths, garagePath(site), `${site.detail_path}/*/checkout`];
    return reply
      .header('Cache-Control', 'public, max-age=3600')
      .type('text/plain; charset=utf-8')
      .send(renderRobots(disallow, `${canonicalOrigin(site, origin)}/sitemap.xml`));
  });
}
