import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { documentsMaxDepth } from '@dealer/search-engine/document-formats';
import { documentContentTypes } from '@dealer/search-engine/documents-request';
import { jsonNestsDeeperThan, maxJsonDepth } from '@dealer/search-engine/json-depth';
import {
  internalError,
  invalidContentType,
  malformedJson,
  missingContentType,
  payloadTooLarge,
  routeNotFound,
  tooDeepJson,
} from '@dealer/search-engine/request-errors';
import { MeiliError } from '@dealer/search-engine/search-errors';
import { noContentSchema, RequestSchemaError } from '../../http/zod-schemas';
import type { PlatformContext } from '../../platform-context';
import { meiliDocumentRoutes } from './documents';
import { meiliIndexRoutes } from './indexes';
import { accessOf, adminKey, checkMeiliKeys, cors, documentsBodyLimit, routeConfigOf } from './meili-access';
import { indexStatsSchema, raisedBySchema, refusals } from './meili-schemas';
import { meiliSearchRoutes, publicSearchCounter } from './search';
import { meiliSettingRoutes } from './settings';
import { meiliTaskRoutes } from './tasks';

/** Any error on a `/meili` route, in Meilisearch's shape, so the official client raises its MeilisearchApiError with the right code. */
function asMeiliError(error: FastifyError | Error, request: FastifyRequest): MeiliError {
  if (error instanceof MeiliError) return error;
  // Any other schema refusal (Fastify's params and query strings always pass theirs) is a `bad_request` below, as Fastify's own 4xx are.
  const raised = error instanceof RequestSchemaError ? raisedBySchema(error) : undefined;
  if (raised) return raised;
  const code = (error as FastifyError).code;
  if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
    const documents = /\/documents(\/|$|\?)/.test(request.url) && request.method !== 'GET';
    return malformedJson(documents, error.message);
  }
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return payloadTooLarge(documentsBodyLimit);
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    const accepted = routeConfigOf(request).documents ? documentContentTypes : ['application/json'];
    const given = request.headers['content-type'];
    return given === undefined ? missingContentType(accepted) : invalidContentType(given, accepted);
  }
  const status = (error as FastifyError).statusCode;
  if (status && status >= 400 && status < 500) return new MeiliError('bad_request', error.message, status);
  return internalError();
}

/**
 * Meilisearch's API at `/meili`, served by the embedded engine: the search routes for a site's
 * search key or the search admin key (`search.ts`), and everything the indexer uses (indexes,
 * settings, documents, tasks, batches) for the search admin key only. One scope, so the key
 * check, the body parsers and Meilisearch's error answers apply to every route in it.
 */
export async function meiliRoutes(scope: FastifyInstance, ctx: PlatformContext) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const takeSearches = publicSearchCounter(ctx.config.search.ratePerMinute);

  // The official client sends `Content-Type: application/json` on every call, a DELETE with no body too.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // No search, setting or task body nests deeply; documents may, within reason.
    const documents = routeConfigOf(request).documents === true;
    const limit = documents ? documentsMaxDepth : maxJsonDepth;
    if (body === '') done(null, undefined);
    else if (jsonNestsDeeperThan(body as string, limit)) done(tooDeepJson(documents, limit), undefined);
    else json(request, body as string, done);
  });
  // Meilisearch reads JSON, and NDJSON and CSV documents; nothing as plain text.
  app.removeContentTypeParser('text/plain');
  // NDJSON and CSV are document payloads only; read as text here, as documents by the route.
  app.addContentTypeParser(['application/x-ndjson', 'text/csv'], { parseAs: 'string' }, (request, body, done) => {
    if (routeConfigOf(request).documents) done(null, body);
    else done(invalidContentType(request.headers['content-type'] ?? '', ['application/json']), undefined);
  });

  const callerOf = checkMeiliKeys(app, ctx, takeSearches);

  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const meili = asMeiliError(error, request);
    if (meili.status >= 500) request.log.error({ err: error }, 'search request failed');
    if (accessOf(request) !== 'admin') cors(reply);
    void reply.code(meili.status).send(meili.toJSON());
  });

  app.options('/meili/*', { schema: { response: { 204: noContentSchema } } }, async (_request, reply) => cors(reply).code(204).send());

  meiliSearchRoutes(app, ctx, { callerOf, takeSearches });

  app.get('/meili/health', { schema: { response: { 200: z.object({ status: z.literal('available') }), ...refusals } } }, async () => ({
    status: 'available' as const,
  }));

  app.get(
    '/meili/version',
    {
      ...adminKey,
      schema: { response: { 200: z.object({ commitSha: z.string(), commitDate: z.string(), pkgVersion: z.string() }), ...refusals } },
    },
    async () => ({ commitSha: 'embedded', commitDate: 'unknown', pkgVersion: '1.16.0' }),
  );

  const statsSchema = z.object({
    databaseSize: z.number(),
    usedDatabaseSize: z.number(),
    lastUpdate: z.string().nullable(),
    indexes: z.record(z.string(), indexStatsSchema),
  });
  app.get('/meili/stats', { ...adminKey, schema: { response: { 200: statsSchema, ...refusals } } }, async () => ({
    databaseSize: 0,
    usedDatabaseSize: 0,
    lastUpdate: null,
    indexes: Object.fromEntries([...ctx.search.indexes.values()].map((index) => [index.uid, index.stats()])),
  }));

  meiliIndexRoutes(app, ctx);
  meiliSettingRoutes(app, ctx);
  meiliDocumentRoutes(app, ctx);
  meiliTaskRoutes(app, ctx);

  // Anything else under /meili is not part of the API (rather than a page of the site).
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/meili/*',
    schema: { params: z.object({ '*': z.string() }), response: refusals },
    handler: async (request) => {
      throw routeNotFound(request.method, request.url.split('?')[0]!);
    },
  });
}
