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
import { accessOf, adminKey, checkMeiliKeys, cors, documentsBodyLimit, meiliKeyCheck, routeConfigOf } from './meili-access';
import { indexStatsSchema, raisedBySchema, readObjectOrEmpty, refusals } from './meili-schemas';
import { meiliSearchRoutes, publicSearchCounter } from './search';
import { meiliSettingRoutes } from './settings';
import { meiliTaskRoutes } from './tasks';

/** What an error's answer depends on, of the request that raised it. */
type Asked = { method: string; url: string; documents: boolean; contentType: string | undefined };
const askedBy = (request: FastifyRequest): Asked => ({
  method: request.method,
  url: request.url,
  documents: routeConfigOf(request).documents === true,
  contentType: request.headers['content-type'],
});

/** Any error on a `/meili` route, in Meilisearch's shape, so the official client raises its MeilisearchApiError with the right code. */
function asMeiliError(error: FastifyError | Error, request: Asked): MeiliError {
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
    const accepted = request.documents ? documentContentTypes : ['application/json'];
    const given = request.contentType;
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
  /** A JSON body as the routes read it (prototype poisoning refused), or the error it is refused with. */
  const readJson = (body: string, documents: boolean): unknown => {
    // No search, setting or task body nests deeply; documents may, within reason.
    const limit = documents ? documentsMaxDepth : maxJsonDepth;
    if (body === '') return undefined;
    if (jsonNestsDeeperThan(body, limit)) throw tooDeepJson(documents, limit);
    let read: { error: Error | null; value: unknown } = { error: null, value: undefined };
    // Fastify's own parser, which answers at once (it reads nothing of the request).
    json(undefined as unknown as FastifyRequest, body, (error, value) => (read = { error, value }));
    if (read.error) throw read.error;
    return read.value;
  };
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    try {
      done(null, readJson(body as string, routeConfigOf(request).documents === true));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // Meilisearch reads JSON, and NDJSON and CSV documents; nothing as plain text.
  app.removeContentTypeParser('text/plain');
  // NDJSON and CSV are document payloads only; read as text here, as documents by the route.
  app.addContentTypeParser(['application/x-ndjson', 'text/csv'], { parseAs: 'string' }, (request, body, done) => {
    if (routeConfigOf(request).documents) done(null, body);
    else done(invalidContentType(request.headers['content-type'] ?? '', ['application/json']), undefined);
  });

  const checkKey = meiliKeyCheck(ctx, takeSearches);
  const callerOf = checkMeiliKeys(app, checkKey);

  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const meili = asMeiliError(error, askedBy(request));
    if (meili.status >= 500) request.log.error({ err: error }, 'search request failed');
    if (accessOf(request) !== 'admin') cors(reply);
    void reply.code(meili.status).send(meili.toJSON());
  });

  app.options('/meili/*', { schema: { response: { 204: noContentSchema } } }, async (_request, reply) => cors(reply).code(204).send());

  const multiSearch = meiliSearchRoutes(app, ctx, { callerOf, takeSearches });
  // A page the server renders asks for its search here, without inject: the route's checks in its order, and its answers
  // (less the CORS headers, which only a browser reads).
  const bodyLimit = app.initialConfig.bodyLimit ?? 1_048_576;
  ctx.inProcessSearch.attach(async ({ authorization, contentType, body, ip }) => {
    const headers: Record<string, string> = {};
    const answer = { header: (name: string, value: string) => (headers[name.toLowerCase()] = value) };
    try {
      const caller = checkKey(authorization, 'search', ip, answer);
      const mediaType = contentType?.split(';', 1)[0]!.trim().toLowerCase();
      if ((body !== '' || contentType !== undefined) && mediaType !== 'application/json')
        throw Object.assign(new Error('Unsupported Media Type'), { code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' });
      if (Buffer.byteLength(body) > bodyLimit)
        throw Object.assign(new Error('Request body is too large'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
      return { status: 200, headers, body: await multiSearch(caller, readObjectOrEmpty(readJson(body, false)), answer) };
    } catch (error) {
      const meili = asMeiliError(error as Error, { method: 'POST', url: '/meili/multi-search', documents: false, contentType });
      if (meili.status >= 500) app.log.error({ err: error }, 'search request failed');
      return { status: meili.status, headers, body: meili.toJSON() };
    }
  });

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
