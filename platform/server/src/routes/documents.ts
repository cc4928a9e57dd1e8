import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { checkoutPath, resolveRoute, searchPathFor, vehiclePath, type RouteMatch } from '@dealer/rules/routes';
import { routeOwner } from '@dealer/rules/route-modules';
import { pageViewTypeOf, vehiclePageViewType } from '@dealer/rules/analytics';
import { adTrackingContent } from '@dealer/rules/ad-tracking';
import { remoteOfModule } from '@dealer/contracts/remote-modules';
import type { Car } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';
import { imageQuality, imageSrcSet, imageUrl, deviceWidths } from '@dealer/rules/images';
import { AppRenderer, type InjectRequest } from '../document/app-render';
import { RenderThreads } from '../document/render-threads';
import type { InProcessSearchRequest } from '../search/in-process-search';
import {
  chunksText,
  documentParts,
  renderSiteIndex,
  renderUnknownSite,
  type DocumentAssets,
  type DocumentChunks,
  type SocialMeta,
} from '../document/render-document';
import { canonicalOrigin, shareImageSize, shareImageUrl, trimPath } from '../document/seo';
import { homeSeo, vehicleDescription, vehicleSeo } from '../document/page-seo';
import { findCarOnSite } from './site';
import type { PlatformContext } from '../platform-context';
import { contentForRoute } from '../content/content-route';
import { articleJsonLd } from '../content/content-seo';
import { keptSearchLandingFor, landingAnswer } from '../content/search-landing';
import { listSiteCards, siteContentStamp } from '@dealer/db/site-store';
import { clearedPreviewCookie, previewCookie, previewFromCookies, previewParam } from '../remotes/remote-preview';
import { PageCache, pageCacheKey, pageEncodingFor } from '../document/page-cache';
import { PageStream, PagesInFlight } from '../document/page-stream';
import { inlinableStylesheet } from '../document/inline-stylesheet';
import { siteConfigUrl } from '../document/site-config-url';
import { siteIdForHost } from '../tenancy/site-host';
import { requestOrigin } from '../tenancy/site-context';
import { contentSecurityPolicy, platformOriginsOf } from '../http/page-policy';

/** The configured search category (SPEC §2 '/search/suv') a path is, with its path in one spelling; null when none. */
function searchCategoryOf(site: Pick<SiteConfig, 'search_categories'>, pathname: string): { label: string; path: string } | null {
  const path = trimPath(pathname);
  const category = site.search_categories.find((entry) => trimPath(entry.path) === path);
  return category ? { label: category.label, path } : null;
}

/** Above this the shell's stylesheet stays a link (cached across pages) rather than inlined into each. */
const maxInlineShellCssChars = 24_000;

function loadShellAssets(dir: string): DocumentAssets {
  const file = join(dir, 'assets.json');
  if (!existsSync(file)) throw new Error(`The shell is not built: ${file} is missing. Run npm run build.`);
  const assets = JSON.parse(readFileSync(file, 'utf8')) as DocumentAssets;
  // With the first script named, a server-rendered page loads the app's code once it is on screen
  // (render-document.ts); what the shopper types or clicks before then is kept (shell/src/boot/before-hydration.ts).
  // The shell's stylesheet (a few KB) is inlined into every page: a request the page would wait for
  // before its first paint costs a phone a round trip; the bytes cost less than that.
  const inlineCss: Record<string, string> = {};
  for (const file of assets.css) {
    const css = inlinableStylesheet(dir, file, maxInlineShellCssChars);
    if (css !== null) inlineCss[`/assets/${file}`] = css;
  }
  return {
    js: assets.js.map((f) => `/assets/${f}`),
    css: assets.css.map((f) => `/assets/${f}`),
    firstPaint: assets.firstPaint ? `/assets/${assets.firstPaint}` : undefined,
    inlineCss,
  };
}

const pageTitles: Record<string, string> = {
  search: 'Search new, used and demo stock',
  checkout: 'Reserve your car',
  success: 'Thank you',
  garage: 'My garage',
  unsubscribe: 'Unsubscribe',
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
/** Every answer is an HTML page (or a 301 to the page's own address), never serialised. */
/** A page: its HTML, the page cache's compressed form of it (Content-Encoding says which), or a page sent as it is made. */
const pageBody = z.union([z.string(), z.instanceof(Buffer), z.instanceof(Readable)]);
const schema = { params: z.object({ '*': z.string() }), response: { 200: pageBody, '4xx': pageBody } };

export async function documentRoutes(scope: FastifyInstance, ctx: PlatformContext) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  let shellAssets: DocumentAssets | null = null;
  const renderOptions = {
    shellClientDir: ctx.config.shellClientDir,
    remotesDir: ctx.config.remotesDir,
    budgetMs: ctx.config.serverRenderBudgetMs,
    keptMarkupBytes: ctx.config.keptMarkupBytes,
    log: app.log,
    // The page's own API calls, answered by this app without a socket.
    inject: async (request: InjectRequest) => {
      const answer = await app.inject({
        method: request.method as 'GET',
        url: request.url,
        headers: request.headers,
        payload: request.payload,
        remoteAddress: request.remoteAddress,
      });
      return { statusCode: answer.statusCode, headers: answer.headers, rawPayload: answer.rawPayload };
    },
    multiSearch: (request: InProcessSearchRequest) => ctx.inProcessSearch.multiSearch(request),
  };
  // Pages render on threads of their own where the build has them (RENDER_THREADS), else on this one.
  const appRenderer: Pick<AppRenderer, 'renderPage'> =
    ctx.config.renderThreads > 0 && RenderThreads.available()
      ? new RenderThreads({ ...renderOptions, threads: ctx.config.renderThreads })
      : new AppRenderer(renderOptions);
  if (appRenderer instanceof RenderThreads) scope.addHook('onClose', () => appRenderer.close());

  const pageCache = new PageCache();
  // Pages being made now: while the server is busy, each is compressed with less effort (page-stream.ts).
  const pagesInFlight = new PagesInFlight();
  // A site's policy names its own vendors (its tags, its chat); made once per version of its config.
  const platformOrigins = platformOriginsOf(ctx.config);
  const policies = new WeakMap<SiteConfig, string>();
  const sitePolicy = (site: SiteConfig) => {
    let policy = policies.get(site);
    if (policy === undefined) policies.set(site, (policy = contentSecurityPolicy(platformOrigins, site)));
    return policy;
  };

  app.get('/*', { schema }, async (request, reply) => {
    reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8');
    // A preview link of the console (remotes/remote-preview.ts): the token becomes this browser's cookie, and the address loses it.
    const url0 = new URL(request.url, 'http://site');
    const asked = url0.searchParams.get(previewParam);
    if (asked !== null) {
      url0.searchParams.delete(previewParam);
      const secure = requestOrigin(request).startsWith('https:');
      return reply
        .code(302)
        .header('Cache-Control', 'no-store')
        .header('Set-Cookie', asked === 'off' ? clearedPreviewCookie(secure) : previewCookie(asked.slice(0, 4000), secure))
        .header('Location', `${url0.pathname}${url0.search}`)
        .send('');
    }
    // A browser previewing remote versions is served fresh pages that nobody else gets.
    // So is a page whose address is one person's (an unsubscribe link carries the shopper's token).
    const previewing =
      previewFromCookies(request.headers.cookie) !== null || (url0.pathname === '/unsubscribe' && url0.searchParams.has('t'));
    if (previewing) reply.header('Cache-Control', 'private, no-store');
    // A page already rendered for this address, while nothing it is made of has changed: two indexed reads.
    const siteId = await siteIdForHost(ctx.db, request.headers.host, ctx.config.publicOriginSuffix);
    const stamp = typeof siteId === 'number' ? await siteContentStamp(ctx.db, siteId) : null;
    const cacheKey = pageCacheKey(requestOrigin(request), request.url);
    const cacheStamp = stamp === null ? null : `${stamp}|${ctx.registry.latestStamp()}`;
    // Site pages are compressed here, kept or made (the compression plugin leaves an encoded body alone).
    const encoding = pageEncodingFor(request.headers['accept-encoding']);
    const encoded = () => {
      reply.header('Vary', 'Accept-Encoding');
      if (encoding) reply.header('Content-Encoding', encoding);
      return reply;
    };
    const cached = cacheStamp === null || previewing ? null : pageCache.getBody(cacheKey, cacheStamp, encoding);
    if (cached)
      return encoded().code(cached.status).header('content-security-policy', cached.policy).header('X-Page-Cache', 'hit').send(cached.body);

    // The site as of the stamp read above (not read again), its context kept while that stamp holds.
    const resolved = await request.siteContext({ siteId, stamp });
    if (resolved === 'index') {
      const port = ctx.config.port;
      const sites = await listSiteCards(ctx.db);
      return renderSiteIndex(sites.map((site) => ({ slug: site.slug, name: site.name, url: `http://${site.slug}.localhost:${port}/` })));
    }
    if (resolved === 'invalid') return reply.code(400).send(renderUnknownSite('this address'));
    if (!resolved) return reply.code(404).send(renderUnknownSite(request.headers.host ?? ''));

    const { site, publicConfig, origin } = resolved;
    const policy = sitePolicy(site);
    reply.header('content-security-policy', policy);
    const url = new URL(request.url, origin);
    const match = resolveRoute(site, url.pathname, url.searchParams);
    if (match.kind === 'redirect') return reply.redirect(`${match.to}${url.search}`, 301);

    shellAssets ??= loadShellAssets(ctx.config.shellClientDir);
    const owner = routeOwner(match);
    const remote = owner ? publicConfig.remotes.find((ref) => ref.name === remoteOfModule(owner.module)) : null;
    let status = match.kind === 'not-found' || (owner && !remote) ? 404 : 200;
    // The dealer's pages, posts and offers: a page never written (or unpublished, or an offer that ended) is a 404.
    const content = await contentForRoute(ctx.db, site, match, url, { drafts: resolved.previewDrafts === true, now: Date.now() });
    if (content?.status === 404) status = 404;

    let car: Car | null = null;
    const carSlug = match.kind === 'vehicle' || match.kind === 'checkout' ? match.slug : null;
    if (carSlug && remote) {
      car = await findCarOnSite(ctx.db, site, carSlug);
      if (!car) status = 404;
    }

    let title = site.seo.title;
    let description = site.seo.description;
    if (status === 404) title = `${pageTitles['not-found']} | ${site.name}`;
    else if (car) {
      title = `${car.name} | ${site.name}`;
      if (match.kind === 'checkout') title = `Reserve the ${car.name} | ${site.name}`;
      description = vehicleDescription(car, site.locale);
    } else if (content?.page && match.kind !== 'home') {
      title = content.page.document_title ?? title;
      description = content.description ?? description;
    } else if (content?.page && content.description) description = content.description;
    else if (match.kind === 'lead-form') title = `${formTitles[match.form]} | ${site.name}`;
    else if (match.kind !== 'home' && pageTitles[match.kind]) title = `${pageTitles[match.kind]} | ${site.name}`;
    const category = match.kind === 'search' ? searchCategoryOf(site, url.pathname) : null;
    if (category && status === 200) title = `${category.label}: ${pageTitles.search} | ${site.name}`;
    // A dealer's search landing page (/search/used-toyota-hilux): its own title, description and address.
    const landingLookedUp = match.kind === 'search' && !category && status === 200;
    const landing = landingLookedUp
      ? await keptSearchLandingFor(ctx.db, site, match.searchSlug, { drafts: resolved.previewDrafts === true })
      : null;
    if (landing) {
      title = landing.seoTitle.includes(site.name) ? landing.seoTitle : `${landing.seoTitle} | ${site.name}`;
      description = landing.description;
    }
    if (match.kind === 'search' && match.searchSlug === 'electric-cars' && !category && status === 200)
      title = `Electric cars | ${site.name}`;

    // One address per page: the site's own domain, the search page's configured path, the car's detail path.
    const siteOrigin = canonicalOrigin(site, origin);
    // A search category is a page of its own, listed in the sitemap as such; any other search
    // address is the site's search page.
    let canonicalPath = url.pathname;
    if (match.kind === 'search')
      canonicalPath = category?.path ?? (landing || match.searchSlug === 'electric-cars' ? trimPath(url.pathname) : searchPathFor(site));
    if (match.kind === 'blog' && match.page > 1) canonicalPath = `${url.pathname}?page=${match.page}`;
    if (match.kind === 'content' && match.page === 'careers') canonicalPath = '/careers';
    if (car && match.kind === 'vehicle') canonicalPath = vehiclePath(site, car.slug);
    else if (car && match.kind === 'checkout') canonicalPath = checkoutPath(site, car.slug);
    const canonicalUrl = `${siteOrigin}${canonicalPath}`;

    const expose = owner?.module.slice(owner.module.indexOf('/') + 1);
    const files = remote && expose && status === 200 ? ctx.registry.preloadFiles(remote, expose) : { js: [], css: [] };

    // Share tags and structured data on pages that answer; a 404 is noindex and carries neither.
    let social: SocialMeta | null = null;
    let jsonLd: unknown[] = [];
    if (status === 200) {
      social = { type: 'website', title, description, url: canonicalUrl };
      if (car && match.kind === 'vehicle')
        ({ social, jsonLd } = vehicleSeo(car, site, { title, description, canonicalUrl, origin: siteOrigin }));
      else if (match.kind === 'home') jsonLd = homeSeo(site, siteOrigin);
      const share = content?.shareImage ? shareImageUrl(siteOrigin, content.shareImage.src) : null;
      if (share && content?.shareImage) {
        // A drawn vehicle photo is 4:3 at any width; an uploaded picture keeps its own proportions.
        const size = content.shareImage.src.startsWith('/img/vehicle/') ? shareImageSize : {};
        social.image = { url: share, alt: content.shareImage.alt, ...size };
      }
      if (content?.post && content.page) {
        social.type = 'article';
        jsonLd = [
          articleJsonLd(
            site,
            { title: content.page.title, description: content.description, ...content.post, imageUrl: share },
            { url: canonicalUrl, origin: siteOrigin },
          ),
        ];
      }
    }

    // The picture the page paints largest, preloaded: the car's photo, or the home page's hero banner.
    const heroImage =
      car && match.kind === 'vehicle'
        ? { path: car.primary_image_url, sizes: '(min-width: 992px) 60vw, 100vw' }
        : content?.hero && status === 200
          ? { path: content.hero.src, sizes: '100vw' }
          : null;
    // The page's markup in the first response (the browser hydrates it); the hero as the preload names it.
    const hero =
      car && heroImage
        ? {
            slug: car.slug,
            src: imageUrl(heroImage.path, 828, imageQuality.standard),
            srcSet: imageSrcSet(heroImage.path, deviceWidths),
            sizes: heroImage.sizes,
            alt: car.name,
          }
        : null;
    // The server render starts now; the document's head goes out while it runs (the browser fetches
    // the styles, the first script and the hero meanwhile), the page's markup once it is done.
    const rendering = appRenderer.renderPage({
      site: publicConfig,
      origin,
      url: `${url.pathname}${url.search}`,
      hero,
      remotes: remote && status === 200 ? publicConfig.remotes.map(({ name, version }) => ({ name, version })) : [],
      ip: request.ip,
      routeData: {
        ...(content?.page ? { content: content.page } : {}),
        // Looked up for the title above: the page's search need not ask for it again (as the API answers it).
        ...(landingLookedUp ? { searchLanding: landing ? landingAnswer(landing) : null } : {}),
      },
    });
    const { head, tailChunks } = documentParts({
      site: publicConfig,
      title,
      description,
      canonicalUrl,
      shellAssets,
      remotePreloads: { js: files.js, css: files.css },
      heroImage,
      routeData: car ? { car } : content?.page ? { content: content.page } : null,
      robots: status === 404 ? 'noindex' : undefined,
      social,
      jsonLd,
      // The route's remote's styles apply at once (inlined when small): its markup is in the page, or
      // (its server render left to the browser) arrives with its code and needs them then.
      appStylesheets: files.css,
      inlineStyles: remote && expose && status === 200 ? ctx.registry.inlineStyles(remote, expose) : [],
      siteConfigUrl: siteConfigUrl(publicConfig),
      pageView: documentPageView(match, car),
    });
    const page = new PageStream(encoding, pagesInFlight);
    encoded().code(status).header('X-Page-Cache', 'miss').send(page.body);
    page.flush(head);
    let app: DocumentChunks;
    let rendered: Awaited<typeof rendering>;
    try {
      rendered = await rendering;
      // The other remote modules in the markup (a car page's buttons, the cards' Save): their files are fetched ahead too.
      const others = (rendered?.state?.modules ?? []).filter((module) => module !== owner?.module);
      app = tailChunks({
        appHtml: rendered?.html ?? null,
        appState: rendered?.state ?? null,
        appStateJson: rendered?.stateJson,
        moduleFiles: status === 200 && others.length ? ctx.registry.moduleFiles(publicConfig.remotes, others) : [],
      });
    } catch (error) {
      // renderPage answers null rather than throwing; should anything else fail, the browser renders the page.
      request.log.error({ err: error }, 'document tail failed');
      rendered = null;
      app = tailChunks({ appHtml: null, appState: null });
    }
    page.end(app);
    // Pages that answer, rendered in full, are kept; a missing car or page is rendered each time (and
    // cannot fill the cache), and so is a page whose remote was left to the browser this time.
    if (cacheStamp !== null && !previewing && !resolved.preview && status === 200 && rendered && !rendered.degraded)
      pageCache.set(cacheKey, cacheStamp, { status, html: () => head + chunksText(app), policy });
    return reply;
  });
}

/**
 * The page view a server-rendered page sends before (or without) its app: the route's SPEC type; on
 * a car page the car's, new or used, with the ad content of the car. A car page without its car
 * (a 404) counts as a page of no SPEC type.
 */
function documentPageView(match: RouteMatch, car: Car | null) {
  const type = pageViewTypeOf(match);
  if (type !== 'own') return { pageType: type };
  if (!car) return { pageType: null };
  return {
    pageType: vehiclePageViewType(car),
    carSlug: car.slug,
    carName: car.name,
    viewContent: adTrackingContent(car),
  };
}
