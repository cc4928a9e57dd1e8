import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { resolveRoute, searchPathFor } from '@dealer/rules/routes';
import { routeOwner } from '@dealer/rules/route-modules';
import { formatPrice } from '@dealer/rules/price';
import { remoteOfModule } from '@dealer/contracts/remote-modules';
import type { Car } from '@dealer/contracts/car';
import { findCarBySlug } from '../db/car-store';
import { isCarOnSite } from '../search/site-search';
import { renderDocument, renderSiteIndex, renderUnknownSite, type DocumentAssets } from '../document/render-document';
import type { PlatformContext } from '../platform-context';
import { siteDeps } from '../platform-context';
import { resolveSite } from '../tenancy/site-context';
import { contentPageTitle } from '../../src/pages/content-page-title';

function loadShellAssets(dir: string): DocumentAssets {
  const file = join(dir, 'assets.json');
  if (!existsSync(file)) throw new Error(`The shell is not built: ${file} is missing. Run npm run build.`);
  const assets = JSON.parse(readFileSync(file, 'utf8')) as DocumentAssets;
  return { js: assets.js.map((f) => `/assets/${f}`), css: assets.css.map((f) => `/assets/${f}`) };
}

const pageTitles: Record<string, string> = {
  search: 'Search new, used and demo stock',
  checkout: 'Reserve your car',
  success: 'Thank you',
  garage: 'My garage',
  'not-found': 'Page not found',
};
const formTitles: Record<string, string> = {
  finance: 'Finance',
  'test-drive': 'Book a test drive',
  service: 'Book a service',
  'trade-in': 'Value your trade-in',
  contact: 'Contact us',
  careers: 'Careers',
};

/** Every site page: one HTML document whatever the route; the route decides status, title and preloads. */
export async function documentRoutes(app: FastifyInstance, ctx: PlatformContext) {
  let shellAssets: DocumentAssets | null = null;

  app.get('/*', async (request, reply) => {
    const resolved = await resolveSite(request, siteDeps(ctx));
    reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8');
    if (resolved === 'index') {
      const port = ctx.config.port;
      const sites = await ctx.db.selectFrom('sites').select(['slug', 'config']).orderBy('id').execute();
      return renderSiteIndex(
        sites.map((site) => ({ slug: site.slug, name: (JSON.parse(site.config) as { name: string }).name, url: `http://${site.slug}.localhost:${port}/` })),
      );
    }
    if (resolved === 'invalid') return reply.code(400).send(renderUnknownSite('this address'));
    if (!resolved) return reply.code(404).send(renderUnknownSite(request.headers.host ?? ''));

    const { site, publicConfig, origin } = resolved;
    const url = new URL(request.url, origin);
    const match = resolveRoute(site, url.pathname, url.searchParams);
    if (match.kind === 'redirect') return reply.redirect(`${match.to}${url.search}`, 301);

    shellAssets ??= loadShellAssets(ctx.config.shellClientDir);
    const owner = routeOwner(match);
    const remote = owner ? publicConfig.remotes.find((ref) => ref.name === remoteOfModule(owner.module)) : null;
    let status = match.kind === 'not-found' || (owner && !remote) ? 404 : 200;

    let car: Car | null = null;
    const carSlug = match.kind === 'vehicle' || match.kind === 'checkout' ? match.slug : null;
    if (carSlug && remote) {
      car = await findCarBySlug(ctx.db, site.id, carSlug);
      if (!car || !isCarOnSite(site, car, Math.floor(Date.now() / 1000))) {
        car = null;
        status = 404;
      }
    }

    let title = site.seo.title;
    let description = site.seo.description;
    if (status === 404) title = `${pageTitles['not-found']} | ${site.name}`;
    else if (car) {
      title = `${car.name} | ${site.name}`;
      if (match.kind === 'checkout') title = `Reserve the ${car.name} | ${site.name}`;
      description = `${car.name} for sale at ${car.location_name}, ${car.city}: ${formatPrice(car.price, { preorder: car.preorder, locale: site.locale })}.`;
    } else if (match.kind === 'content') title = `${contentPageTitle(match.page)} | ${site.name}`;
    else if (match.kind === 'lead-form') title = `${formTitles[match.form]} | ${site.name}`;
    else if (match.kind !== 'home' && pageTitles[match.kind]) title = `${pageTitles[match.kind]} | ${site.name}`;

    const canonicalPath = match.kind === 'search' ? searchPathFor(site) : url.pathname;
    const expose = owner?.module.slice(owner.module.indexOf('/') + 1);
    const files = remote && expose && status === 200 ? ctx.registry.preloadFiles(remote, expose) : { js: [], css: [] };

    return reply.code(status).send(
      renderDocument({
        site: publicConfig,
        title,
        description,
        canonicalUrl: `${site.domain_name ? `https://${site.domain_name}` : origin}${canonicalPath}`,
        shellAssets,
        remotePreloads: { manifests: remote && status === 200 ? [remote.manifestUrl] : [], js: files.js, css: files.css },
        heroImage: car && match.kind === 'vehicle' ? { path: car.primary_image_url, sizes: '(min-width: 992px) 60vw, 100vw' } : null,
        routeData: car ? { car } : null,
        robots: status === 404 ? 'noindex' : undefined,
      }),
    );
  });
}
