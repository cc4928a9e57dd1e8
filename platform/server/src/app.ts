import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { PlatformContext } from './platform-context';
import { findSiteIdBySlug } from '@dealer/db/site-store';
import { limitJsonDepth } from './http/limit-json-depth';
import { refuseForeignOrigins } from './http/origin-check';
import { capConnectionsPerAddress } from './http/connection-cap';
import { strictTransportOverHttps } from './http/strict-transport';
import { apiNotFound } from './http/api-not-found';
import { contentSecurityPolicy, platformOriginsOf } from './http/page-policy';
import { sentFile } from './http/precompressed';
import { imageRoutes } from './images/image-routes';
import { openImageCache } from './images/image-cache';
import { storedCarPhoto } from './images/car-photos';
import { siteImageRoutes } from './images/site-images';
import { adminRoutes } from './routes/admin/plugin';
import { chatRoutes } from './routes/chat';
import { consoleRoutes } from './routes/console/plugin';
import { consoleDocumentRoutes } from './console/console-document';
import { documentRoutes } from './routes/documents';
import { eventRoutes } from './routes/events';
import { adEventRoutes } from './routes/ad-events';
import { bookingRoutes } from './routes/bookings';
import { checkoutRoutes } from './routes/checkout';
import { accountRoutes } from './routes/accounts';
import { unsubscribeRoutes } from './routes/unsubscribe';
import { leadRoutes } from './routes/leads';
import { vehicleLookupRoutes } from './routes/vehicle-lookup';
import { leadFileRoutes } from './routes/lead-files';
import { meiliRoutes } from './routes/meili/plugin';
import { seoRoutes } from './routes/seo';
import { siteRoutes } from './routes/site';
import { pageRoutes } from './routes/pages';
import { sitePlugin, sitePluginOptions } from './tenancy/site-plugin';
import { RequestSchemaError, sendSchemaRefusal, applyZodSchemas } from './http/zod-schemas';
import { startWorkers, stopWorkers } from './workers';

const oneYear = 'public, max-age=31536000, immutable';

/**
 * The platform server: tenant documents, `/api/*`, the search contract, images, shell and remote
 * assets, over the services of `ctx` (createPlatform). Its background work starts when it listens
 * and stops when it closes (workers.ts); the lead outbox too with `leadOutbox` (main.ts; a test
 * runs it by hand).
 */
export async function buildApp(ctx: PlatformContext, options: { logger?: boolean; leadOutbox?: boolean } = {}): Promise<FastifyInstance> {
  const { http } = ctx.config;
  const app = Fastify({
    logger: options.logger === false ? false : { level: ctx.config.logLevel },
    // Only a listed proxy may say who the client is (request.ip, every per-IP limit) and how it connected.
    trustProxy: http.trustedProxies.length > 0 ? http.trustedProxies : false,
    bodyLimit: 1_048_576,
    connectionTimeout: http.idleTimeoutMs,
    requestTimeout: http.requestTimeoutMs,
    keepAliveTimeout: http.keepAliveTimeoutMs,
    // Node checks the headers and request timeouts on this interval (30 s by default), so a slow client is cut off close to its limit.
    http: { headersTimeout: http.headersTimeoutMs, connectionsCheckingInterval: Math.min(5_000, Math.ceil(http.headersTimeoutMs / 2)) },
  });
  // The services were built before the server's logger: from here on they log through it.
  ctx.log.to(app.log);
  capConnectionsPerAddress(app.server, { max: http.maxConnectionsPerAddress, trustedProxies: http.trustedProxies, log: app.log });

  await app.register(helmet, {
    // Set below: a site's pages replace it with their own (the site's vendors only, documents.ts).
    contentSecurityPolicy: false,
    // Headers for Internet Explorer, Flash and old XSS auditors, which no browser a shopper uses reads; each page's first
    // round trip carries every header byte (HTTP/1.1). DNS prefetching stays on: the sites' tags and chat need it.
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    xDnsPrefetchControl: false,
    // Remote chunks and images may be fetched by sites on other hosts (a CDN in production).
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    // Set by strictTransportOverHttps, only on requests that came over https.
    strictTransportSecurity: false,
  });
  const basePolicy = contentSecurityPolicy(platformOriginsOf(ctx.config), null);
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('content-security-policy', basePolicy);
  });
  strictTransportOverHttps(app, http.hstsMaxAgeSeconds);
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });

  limitJsonDepth(app);
  // The one place a request's host becomes its site (request.site, request.siteContext()).
  await app.register(sitePlugin, sitePluginOptions(ctx));
  refuseForeignOrigins(app, {
    siteOf: async (request) => {
      const resolved = await request.siteContext();
      return typeof resolved === 'object' && resolved ? resolved.site : null;
    },
  });

  applyZodSchemas(app);
  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    if (error instanceof RequestSchemaError) return sendSchemaRefusal(error, request, reply);
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, 'request failed');
    void reply.code(status).send({ message: status === 500 ? 'Something went wrong on our side. Please try again.' : error.message });
  });

  if (existsSync(ctx.config.shellClientDir)) {
    await app.register(fastifyStatic, {
      root: ctx.config.shellClientDir,
      prefix: '/assets/',
      decorateReply: false,
      index: false,
      cacheControl: false,
      preCompressed: true,
      setHeaders: (res, path) => res.header('Cache-Control', sentFile(path).endsWith('assets.json') ? 'no-cache' : oneYear),
    });
  }
  await app.register(fastifyStatic, {
    root: ctx.config.remotesDir,
    prefix: '/remotes/',
    decorateReply: false,
    index: false,
    cacheControl: false,
    preCompressed: true,
    // Versions are immutable folders; the manifest is kept short-lived all the same.
    setHeaders: (res, path) => {
      const file = sentFile(path);
      res.header('Access-Control-Allow-Origin', '*');
      res.header('Cache-Control', file.endsWith('mf-manifest.json') || file.endsWith('.html') ? 'public, max-age=60' : oneYear);
    },
  });

  await consoleDocumentRoutes(app, ctx);

  const { images } = ctx.config;
  const imageCache = await openImageCache(join(ctx.config.dataDir, 'image-cache'), images.cacheMaxBytes, app.log);
  await app.register(async (scope) =>
    imageRoutes(scope, {
      cache: imageCache,
      // A drawn logo follows the site's name and colour as the console changes them.
      siteLogo: async (slug) => {
        const id = await findSiteIdBySlug(ctx.db, slug);
        const site = id === null ? null : await ctx.sites.forId(id);
        return site ? { name: site.name, colour: site.branding.primary } : null;
      },
      renderConcurrency: images.renderConcurrency,
      renderQueue: images.renderQueue,
      smallRenderConcurrency: images.smallRenderConcurrency,
      rendersPerAddress: images.rendersPerAddress,
      renderRatePerMinute: images.renderRatePerMinute,
      loadUploadedPhoto: (hash) => storedCarPhoto(ctx.db, hash),
    }),
  );
  await app.register(async (scope) => siteImageRoutes(scope, ctx.db));

  app.addHook('onListen', async () => startWorkers(ctx, { leadOutbox: options.leadOutbox ?? false }));
  app.addHook('onClose', async () => stopWorkers(ctx));

  await app.register(async (scope) => siteRoutes(scope, ctx));
  await app.register(async (scope) => pageRoutes(scope, ctx));
  await app.register(async (scope) => checkoutRoutes(scope, ctx));
  await app.register(async (scope) => accountRoutes(scope, ctx));
  await app.register(async (scope) => unsubscribeRoutes(scope, ctx));
  await app.register(async (scope) => leadRoutes(scope, ctx));
  await app.register(async (scope) => chatRoutes(scope, ctx));
  await app.register(async (scope) => bookingRoutes(scope, ctx));
  await app.register(async (scope) => vehicleLookupRoutes(scope, ctx));
  await app.register(async (scope) => eventRoutes(scope, ctx));
  await app.register(async (scope) => adEventRoutes(scope, ctx));
  await app.register(async (scope) => adminRoutes(scope, ctx));
  await app.register(async (scope) => consoleRoutes(scope, ctx));
  await app.register(async (scope) => leadFileRoutes(scope, ctx));
  await app.register(async (scope) => meiliRoutes(scope, ctx));
  await app.register(async (scope) => seoRoutes(scope, ctx));
  await app.register(async (scope) => apiNotFound(scope));
  await app.register(async (scope) => documentRoutes(scope, ctx));
  return app;
}
