import { timingSafeEqual } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { noContentSchema, RequestSchemaError } from '../http/zod-schemas';
import { loadSiteConfig } from '@dealer/db/site-store';
import { clientAddressKey } from '../http/client-address';
import { jsonNestsDeeperThan, maxJsonDepth } from '@dealer/search-engine/json-depth';
import { RateLimiter } from '@dealer/leads/spam';
import type { PlatformContext } from '../platform-context';
import { csvDocuments, documentsMaxDepth, jsonDocuments, ndjsonDocuments } from '@dealer/search-engine/document-formats';
import { federatedSearch, type FederatedQuery } from '@dealer/search-engine/federated-search';
import { isFilterableBy } from '@dealer/search-engine/filter-evaluator';
import { FilterSyntaxError, parseFilter, type FilterNode } from '@dealer/search-engine/filter-parser';
import {
  invalidType,
  isPlainObject,
  parseBoolean,
  parseList,
  parsePositiveInteger,
  queryParameters,
  readBoolean,
  readList,
  readObject,
  readPositiveInteger,
  readStrings,
  unknownField,
  type Field,
  type Read,
} from '@dealer/search-engine/meili-values';
import { inside, MeiliError } from '@dealer/search-engine/search-errors';
import type { SearchParams } from '@dealer/search-engine/search-index';
import { checkIndexUid, settingNames, taskTypes, type EmbeddedIndex, type MeiliSettings, type SettingName } from '@dealer/search-engine/search-engine';
import { checkHitsFound, checkSearchAgainstIndex, readFacetSearch, readFilter, readMultiSearch, readSearchBody, readSearchQuery, type Federation, type SearchRequest } from '@dealer/search-engine/search-request';
import { checkSearchBudget } from '@dealer/search-engine/search-budget';
import { carsIndexUid, siteBaseFilter, siteIdFromSearchKey } from '../search/site-search';
import { readTaskFilter, readTaskQuery } from '@dealer/search-engine/task-query';

/**
 * Who may call a route: anyone (`public`), a site's search key or the search admin key
 * (`search`), or the search admin key only (`admin`). Checked before the body is read.
 */
type Access = 'public' | 'search' | 'admin';
type Caller = { kind: 'admin' } | { kind: 'site'; siteId: number; limitKey: string };
/** A route's options: who may call it, and whether it takes documents as NDJSON and CSV besides JSON. */
type RouteConfig = { access?: Access; documents?: boolean };

/** Meilisearch accepts up to 100 MB of documents; the indexer sends far smaller batches. */
const documentsBodyLimit = 50 * 1024 * 1024;
const documentContentTypes = ['application/json', 'application/x-ndjson', 'text/csv'];

const invalidKey = () => new MeiliError('invalid_api_key', 'The provided API key is invalid.', 403, 'auth');

/** Addresses (with their site) the search limit keeps count of at once. */
const trackedSearchers = 10_000;

/**
 * Meilisearch's code for too many searches (its own is a 503 when its search queue is full); a
 * 429 here, as the limit is the caller's, not the server's.
 */
const tooManySearches = (perMinute: number, retryAfterSeconds: number) =>
  new MeiliError('too_many_search_requests', `Too many search requests from your connection: at most ${perMinute} a minute. Retry after ${retryAfterSeconds}s.`, 429, 'system');

// ---------------------------------------------------------------------------------------------
// Reading parameters and bodies, with Meilisearch's error codes
// ---------------------------------------------------------------------------------------------

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`);
const kebabToCamel = (name: string) => name.replace(/-([a-z])/g, (_, ch: string) => ch.toUpperCase());

/** What each setting may be (null always resets it to the default). */
const settingChecks: Record<SettingName, { expected: string; ok: (value: unknown) => boolean }> = (() => {
  const strings = { expected: 'an array of strings', ok: (v: unknown) => Array.isArray(v) && v.every((item) => typeof item === 'string') };
  const object = { expected: 'an object', ok: isPlainObject };
  return {
    displayedAttributes: strings,
    searchableAttributes: strings,
    filterableAttributes: {
      expected: 'an array of strings or of objects with `attributePatterns`',
      ok: (v) => Array.isArray(v) && v.every((item) => typeof item === 'string' || (isPlainObject(item) && Array.isArray(item.attributePatterns) && item.attributePatterns.every((p) => typeof p === 'string'))),
    },
    sortableAttributes: strings,
    rankingRules: strings,
    stopWords: strings,
    nonSeparatorTokens: strings,
    separatorTokens: strings,
    dictionary: strings,
    synonyms: { expected: 'an object of arrays of strings', ok: (v) => isPlainObject(v) && Object.values(v).every((list) => Array.isArray(list) && list.every((item) => typeof item === 'string')) },
    distinctAttribute: { expected: 'a string', ok: (v) => typeof v === 'string' },
    proximityPrecision: { expected: '`byWord` or `byAttribute`', ok: (v) => v === 'byWord' || v === 'byAttribute' },
    typoTolerance: object,
    faceting: {
      expected: 'an object with `maxValuesPerFacet` (a positive integer) and `sortFacetValuesBy` (`alpha` or `count` per facet)',
      ok: (v) =>
        isPlainObject(v) &&
        Object.keys(v).every((key) => key === 'maxValuesPerFacet' || key === 'sortFacetValuesBy') &&
        (v.maxValuesPerFacet === undefined || v.maxValuesPerFacet === null || (Number.isInteger(v.maxValuesPerFacet) && (v.maxValuesPerFacet as number) >= 0)) &&
        (v.sortFacetValuesBy === undefined || v.sortFacetValuesBy === null || (isPlainObject(v.sortFacetValuesBy) && Object.values(v.sortFacetValuesBy).every((order) => order === 'alpha' || order === 'count'))),
    },
    pagination: {
      expected: 'an object with `maxTotalHits` (a positive integer)',
      ok: (v) => isPlainObject(v) && (v.maxTotalHits === undefined || v.maxTotalHits === null || (Number.isInteger(v.maxTotalHits) && (v.maxTotalHits as number) >= 0)),
    },
    embedders: object,
    searchCutoffMs: { expected: 'a positive integer', ok: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 },
    localizedAttributes: { expected: 'an array of objects', ok: (v) => Array.isArray(v) && v.every(isPlainObject) },
    facetSearch: { expected: 'a boolean', ok: (v) => typeof v === 'boolean' },
    prefixSearch: { expected: '`indexingTime` or `disabled`', ok: (v) => v === 'indexingTime' || v === 'disabled' },
  };
})();

function checkSetting(name: SettingName, value: unknown, path: string) {
  if (value === null) return;
  const check = settingChecks[name];
  if (!check.ok(value)) throw invalidType(`invalid_settings_${snakeCase(name)}`, path, check.expected, value);
}

function settingsBody(body: Record<string, unknown>): Partial<MeiliSettings> {
  const settings: Partial<MeiliSettings> = {};
  for (const [name, value] of Object.entries(body)) {
    if (!(settingNames as string[]).includes(name)) throw unknownField('bad_request', '', name, settingNames);
    checkSetting(name as SettingName, value, `.${name}`);
    settings[name as SettingName] = value;
  }
  return settings;
}

function settingFromRoute(route: string): SettingName {
  const name = kebabToCamel(route);
  if (!(settingNames as string[]).includes(name)) throw new MeiliError('not_found', `Setting \`${route}\` does not exist.`, 404);
  return name as SettingName;
}

/** A documents filter: the search filter's forms, its syntax checked, errors coded `invalid_document_filter`. */
const readDocumentFilter: Read<SearchParams['filter']> = (value, path, code) => {
  const filter = readFilter(value, path, code);
  try {
    parseFilter(filter);
  } catch (error) {
    if (error instanceof FilterSyntaxError) throw new MeiliError(code, error.message, 400);
    throw error;
  }
  return filter;
};

const readDocumentIds: Read<string[]> = (value, path, code) =>
  readList((id, idPath, idCode) => {
    if (typeof id !== 'string' && typeof id !== 'number') throw invalidType(idCode, idPath, 'a string', id);
    return String(id);
  })(value, path, code);

/** `POST /documents/fetch`, in Meilisearch's order. */
const fetchFields: Field[] = [
  { name: 'offset', code: 'invalid_document_offset', read: readPositiveInteger },
  { name: 'limit', code: 'invalid_document_limit', read: readPositiveInteger },
  { name: 'fields', code: 'invalid_document_fields', read: readStrings, nullable: true },
  { name: 'retrieveVectors', code: 'invalid_document_retrieve_vectors', read: readBoolean },
  { name: 'ids', code: 'invalid_document_ids', read: readDocumentIds, nullable: true },
  { name: 'filter', code: 'invalid_document_filter', read: readDocumentFilter, nullable: true },
];

type DocumentsQuery = { offset?: number; limit?: number; fields?: string[]; ids?: string[]; filter?: SearchParams['filter'] };

/** `GET /documents`: the same as `POST /documents/fetch`, in a query string. */
function documentsQuery(query: unknown): DocumentsQuery {
  const given = queryParameters(query, fetchFields.map((field) => field.name));
  const read: DocumentsQuery = {};
  if (given.has('offset')) read.offset = parsePositiveInteger(given.get('offset')!, 'offset', 'invalid_document_offset');
  if (given.has('limit')) read.limit = parsePositiveInteger(given.get('limit')!, 'limit', 'invalid_document_limit');
  if (given.has('fields')) read.fields = parseList(given.get('fields')!);
  if (given.has('retrieveVectors')) parseBoolean(given.get('retrieveVectors')!, 'retrieveVectors', 'invalid_document_retrieve_vectors');
  if (given.has('ids')) read.ids = parseList(given.get('ids')!);
  if (given.has('filter')) read.filter = readDocumentFilter(given.get('filter')!, '', 'invalid_document_filter');
  return read;
}

/** The `csvDelimiter` parameter: one ASCII character. */
function csvDelimiter(text: string): string {
  const characters = [...text];
  if (characters.length !== 1) {
    throw new MeiliError(
      'invalid_document_csv_delimiter',
      `Invalid value in parameter \`csvDelimiter\`: expected a string of one character, but found the following string of ${characters.length} characters: \`${text}\``,
      400,
    );
  }
  if (text.charCodeAt(0) > 127) throw new MeiliError('invalid_document_csv_delimiter', `Invalid value in parameter \`csvDelimiter\`: csv delimiter must be an ascii character. Found: \`${text}\``, 400);
  return text;
}

const invalidContentType = (given: string, accepted: string[]) =>
  new MeiliError('invalid_content_type', `The Content-Type \`${given}\` is invalid. Accepted values for the Content-Type header are: ${accepted.map((type) => `\`${type}\``).join(', ')}`, 415);
const missingContentType = (accepted: string[]) =>
  new MeiliError('missing_content_type', `A Content-Type header is missing. Accepted values for the Content-Type header are: ${accepted.map((type) => `\`${type}\``).join(', ')}`, 415);

/** The documents of an addition, in whichever of Meilisearch's formats the request says it sends. */
function documentsOf(request: FastifyRequest): { docs: ReturnType<typeof jsonDocuments>; primaryKey: string | null } {
  const given = queryParameters(request.query, ['primaryKey', 'csvDelimiter']);
  const type = request.mediaType;
  const header = request.headers['content-type'];
  if (type === undefined || !documentContentTypes.includes(type)) throw header === undefined ? missingContentType(documentContentTypes) : invalidContentType(header, documentContentTypes);
  const delimiter = given.has('csvDelimiter') ? csvDelimiter(given.get('csvDelimiter')!) : undefined;
  if (delimiter !== undefined && type !== 'text/csv') {
    throw new MeiliError('invalid_content_type', `The Content-Type \`${type}\` does not support the use of a csv delimiter. The csv delimiter can only be used with the Content-Type \`text/csv\`.`, 415);
  }
  const body = request.body;
  const docs = type === 'text/csv' ? csvDocuments((body as string | undefined) ?? '', delimiter ?? ',') : type === 'application/x-ndjson' ? ndjsonDocuments((body as string | undefined) ?? '') : jsonDocuments(body);
  return { docs, primaryKey: given.get('primaryKey') || null };
}

/** Errors about one of the index's attributes that Meilisearch's engine raises, and its HTTP layer prefixes with the index. */
const indexAttributeErrors = new Set(['invalid_search_filter', 'invalid_search_sort', 'invalid_search_distinct', 'invalid_search_attributes_to_search_on']);

/** `Index \`cars\`: Attribute \`vin\` is not sortable…`, as Meilisearch words an index's attribute errors (syntax errors stay bare). */
function namingIndex(index: EmbeddedIndex, error: unknown): unknown {
  if (!(error instanceof MeiliError) || !indexAttributeErrors.has(error.code) || !error.message.startsWith('Attribute `')) return error;
  return new MeiliError(error.code, `Index \`${index.uid}\`: ${error.message}`, error.status, error.type);
}

// ---------------------------------------------------------------------------------------------
// Route schemas: what Fastify sees of a request, refused as Meilisearch refuses it
// ---------------------------------------------------------------------------------------------

/**
 * A zod transform by `read`, which throws Meilisearch's own error for what it refuses. The error
 * rides on the zod issue to the error handler (`asMeiliError`), which answers with it, so a
 * schema's refusal is the one Meilisearch gives and the official client raises its code.
 */
const readingAs =
  <In, Out>(read: (value: In) => Out) =>
  (value: In, ctx: z.RefinementCtx<In>): Out => {
    try {
      return read(value);
    } catch (error) {
      if (!(error instanceof MeiliError)) throw error;
      ctx.addIssue({ code: 'custom', message: error.message, params: { meiliError: error } });
      return z.NEVER;
    }
  };

/** The Meilisearch error a schema's reader raised (see `readingAs`), if that is why it refused the request. */
function raisedBySchema(error: RequestSchemaError): MeiliError | undefined {
  const issue = error.zodError.issues[0];
  const raised: unknown = issue?.code === 'custom' ? issue.params?.meiliError : undefined;
  return raised instanceof MeiliError ? raised : undefined;
}

/** A JSON object, else Meilisearch's refusal naming what came instead. */
function jsonObject(body: unknown): Record<string, unknown> {
  if (!isPlainObject(body)) throw invalidType('bad_request', '', 'an object', body ?? null);
  return body;
}

/** A body that must be a JSON object (a new index, settings); the route reads its fields. */
const objectBody = z.unknown().transform(readingAs(jsonObject));
/** A search, fetch or delete body: a JSON object, none at all (or null) being `{}`, as Meilisearch reads it; the engine reads its fields. */
const objectOrEmptyBody = z.unknown().transform(readingAs((body) => (body === undefined || body === null ? {} : jsonObject(body))));
/** `PATCH /indexes/:uid`: `{ primaryKey }`, a string or null. */
const indexUpdateBody = z.unknown().transform(
  readingAs((body) => {
    if (!isPlainObject(body) || (body.primaryKey !== undefined && body.primaryKey !== null && typeof body.primaryKey !== 'string')) {
      throw new MeiliError('invalid_index_primary_key', 'Invalid value type at `.primaryKey`: expected a string', 400);
    }
    return { primaryKey: (body.primaryKey as string | undefined) ?? null };
  }),
);
/** `POST /documents/delete-batch`: the ids of the documents to delete. */
const documentIdsBody = z.unknown().transform(
  readingAs((ids) => {
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string' || typeof id === 'number')) throw invalidType('bad_request', '', 'an array of document ids', ids ?? null);
    return ids as (string | number)[];
  }),
);

/**
 * A query string as Fastify reads it: each parameter a string, or its values when repeated. The
 * engine reads the parameters, refusing a name it does not know as Meilisearch does, so the query
 * is handed on as it came (a copy would drop a name such as `__proto__` instead).
 */
const meiliQuery = z.custom<Record<string, string | string[]>>(
  (query) => isPlainObject(query) && Object.values(query).every((value) => typeof value === 'string' || (Array.isArray(value) && value.every((item) => typeof item === 'string'))),
);

/** A task's or batch's uid in a path: digits only. */
const uidIn = (kind: 'task' | 'batch') => (text: string) => {
  if (!/^\d+$/.test(text)) throw new MeiliError(`invalid_${kind}_uids`, `${kind === 'task' ? 'Task' : 'Batch'} uid \`${text}\` is invalid. It should only contain numeric characters.`, 400);
  return Number(text);
};

const indexParams = z.object({ uid: z.string() });
const documentParams = z.object({ uid: z.string(), id: z.string() });
/** A setting's route name (`filterable-attributes`); one Meilisearch does not have is its 404. */
const settingParams = z.object({ uid: z.string(), setting: z.string().transform(readingAs(settingFromRoute)) });
const taskParams = z.object({ taskUid: z.string().transform(readingAs(uidIn('task'))) });
const batchParams = z.object({ batchUid: z.string().transform(readingAs(uidIn('batch'))) });

/** Meilisearch's error body: what every refusal on `/meili` answers, so the official client raises its MeilisearchApiError. */
const meiliErrorSchema = z.object({ message: z.string(), code: z.string(), type: z.enum(['invalid_request', 'auth', 'internal', 'system']), link: z.string() });
const refusals = { '4xx': meiliErrorSchema, 500: meiliErrorSchema };

/** A write's answer: Meilisearch's summarized task. */
const enqueuedTaskSchema = z.object({ taskUid: z.number(), indexUid: z.string().nullable(), status: z.literal('enqueued'), type: z.enum(taskTypes), enqueuedAt: z.string() });
const taskSchema = z.object({
  uid: z.number(),
  batchUid: z.number(),
  indexUid: z.string().nullable(),
  status: z.enum(['succeeded', 'failed']),
  type: z.enum(taskTypes),
  canceledBy: z.number().nullable(),
  details: z.record(z.string(), z.unknown()),
  error: meiliErrorSchema.nullable(),
  duration: z.string(),
  enqueuedAt: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
});
const counts = z.record(z.string(), z.number());
const batchSchema = z.object({
  uid: z.number(),
  progress: z.null(),
  details: z.record(z.string(), z.unknown()),
  stats: z.object({ totalNbTasks: z.number(), status: counts, types: counts, indexUids: counts }),
  duration: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
  batchStrategy: z.string(),
});
/** A page of tasks or batches, newest first. */
const pageByUid = <T extends z.ZodType>(item: T) => z.object({ results: z.array(item), total: z.number(), limit: z.number(), from: z.number().nullable(), next: z.number().nullable() });

const indexSchema = z.object({ uid: z.string(), primaryKey: z.string().nullable(), createdAt: z.string(), updatedAt: z.string() });
const indexStatsSchema = z.object({ numberOfDocuments: z.number(), isIndexing: z.boolean(), fieldDistribution: counts });
const documentSchema = z.record(z.string(), z.unknown());
const documentsPageSchema = z.object({ results: z.array(documentSchema), offset: z.number(), limit: z.number(), total: z.number() });

/** A search's answer: its hits and whatever else the search asked for, all sent (the client reads fields this does not name). */
const searchResultSchema = z.looseObject({ hits: z.array(documentSchema), processingTimeMs: z.number() });
/** A multi-search's answer: each query's results, or one merged result when federated. */
const multiSearchSchema = z.union([z.object({ results: z.array(searchResultSchema.extend({ indexUid: z.string() })) }), searchResultSchema]);
const facetSearchSchema = z.object({ facetHits: z.array(z.object({ value: z.string(), count: z.number() })), facetQuery: z.string().nullable(), processingTimeMs: z.number() });

/** Any error on a `/meili` route, in Meilisearch's shape, so the official client raises its MeilisearchApiError with the right code. */
function asMeiliError(error: FastifyError | Error, request: FastifyRequest): MeiliError {
  if (error instanceof MeiliError) return error;
  // Any other schema refusal (Fastify's params and query strings always pass theirs) is a `bad_request` below, as Fastify's own 4xx are.
  const raised = error instanceof RequestSchemaError ? raisedBySchema(error) : undefined;
  if (raised) return raised;
  const code = (error as FastifyError).code;
  if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
    const documents = /\/documents(\/|$|\?)/.test(request.url) && request.method !== 'GET';
    return new MeiliError(documents ? 'malformed_payload' : 'bad_request', `The json payload provided is malformed. \`${error.message}\`.`, 400);
  }
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new MeiliError('payload_too_large', `The provided payload reached the size limit. The maximum accepted payload size is ${documentsBodyLimit / 1024 / 1024} MiB.`, 413);
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    const accepted = (request.routeOptions.config as RouteConfig).documents ? documentContentTypes : ['application/json'];
    const given = request.headers['content-type'];
    return given === undefined ? missingContentType(accepted) : invalidContentType(given, accepted);
  }
  const status = (error as FastifyError).statusCode;
  if (status && status >= 400 && status < 500) return new MeiliError('bad_request', error.message, status);
  return new MeiliError('internal', 'Something went wrong on our side. Please try again.', 500, 'internal');
}

/**
 * Meilisearch's API at `/meili`, served by the embedded engine.
 * - Search (`/multi-search`, federated or not, `/indexes/:uid/search` by POST or GET,
 *   `/indexes/:uid/facet-search`): a site's search key, scoped to the site's listed stock whatever
 *   the browser asks; or the search admin key, unscoped.
 * - Everything the indexer uses (indexes, settings, documents, tasks, batches): the search admin key only.
 */
export async function searchRoutes(scope: FastifyInstance, ctx: PlatformContext) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const adminKey = Buffer.from(ctx.config.searchAdminKey);
  const isAdminKey = (key: string) => {
    const given = Buffer.from(key);
    return given.length === adminKey.length && timingSafeEqual(given, adminKey);
  };
  const callers = new WeakMap<FastifyRequest, Caller>();
  const searchLimit = new RateLimiter(ctx.config.search.ratePerMinute, 60_000, trackedSearchers);
  const accessOf = (request: FastifyRequest): Access => (request.routeOptions.config as RouteConfig).access ?? 'public';
  /** Counts `queries` searches against the caller's address (a multi-search is as many as its queries), or refuses with a 429. */
  const takeSearches = (key: string, queries: number, reply: FastifyReply) => {
    const limited = searchLimit.take(key, Date.now(), queries);
    if (limited.ok) return;
    const seconds = Math.ceil(limited.retryAfterMs / 1000);
    void reply.header('Retry-After', String(seconds));
    throw tooManySearches(searchLimit.max, seconds);
  };
  /**
   * A request with a site's public key: the rest of its queries counted (the first was, before
   * the body was read), and its work bounded by the public budget before any of it runs.
   */
  function checkPublicRequest(request: FastifyRequest, reply: FastifyReply, queries: readonly (SearchRequest & { index: EmbeddedIndex })[], federation: Federation | undefined, multi: boolean) {
    const caller = callers.get(request);
    if (caller?.kind !== 'site') return;
    if (queries.length > 1) takeSearches(caller.limitKey, queries.length - 1, reply);
    checkSearchBudget(queries, federation, ctx.config.search.publicBudget, multi);
  }

  const cors = (reply: FastifyReply) =>
    reply
      .header('Access-Control-Allow-Origin', '*')
      .header('Access-Control-Allow-Headers', 'Authorization, Content-Type, X-Meilisearch-Client')
      .header('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');

  // The official client sends `Content-Type: application/json` on every call, a DELETE with no body too.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // No search, setting or task body nests deeply; documents may, within reason.
    const documents = (request.routeOptions.config as RouteConfig).documents === true;
    const limit = documents ? documentsMaxDepth : maxJsonDepth;
    if (body === '') done(null, undefined);
    else if (jsonNestsDeeperThan(body as string, limit)) {
      done(new MeiliError(documents ? 'malformed_payload' : 'bad_request', `The json payload provided is malformed: it nests arrays or objects more than ${limit} levels deep.`, 400), undefined);
    } else json(request, body as string, done);
  });
  // Meilisearch reads JSON, and NDJSON and CSV documents; nothing as plain text.
  app.removeContentTypeParser('text/plain');
  // NDJSON and CSV are document payloads only; read as text here, as documents by the route.
  app.addContentTypeParser(['application/x-ndjson', 'text/csv'], { parseAs: 'string' }, (request, body, done) => {
    if ((request.routeOptions.config as RouteConfig).documents) done(null, body);
    else done(invalidContentType(request.headers['content-type'] ?? '', ['application/json']), undefined);
  });

  app.addHook('onRequest', async (request, reply) => {
    const access = accessOf(request);
    if (access === 'public') return;
    const header = request.headers.authorization;
    if (!header) throw new MeiliError('missing_authorization_header', 'The Authorization header is missing. It must use the bearer authorization method.', 401, 'auth');
    const key = header.replace(/^Bearer\s+/i, '');
    if (isAdminKey(key)) {
      callers.set(request, { kind: 'admin' });
      return;
    }
    const siteId = access === 'search' ? siteIdFromSearchKey(key, ctx.config.searchKeySecret) : null;
    if (siteId === null) throw invalidKey();
    // A site's key is public (every shopper's browser holds it): its searches are counted per address, before the body is read.
    takeSearches(`${siteId}|${clientAddressKey(request.ip)}`, 1, reply);
    callers.set(request, { kind: 'site', siteId, limitKey: `${siteId}|${clientAddressKey(request.ip)}` });
  });

  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const meili = asMeiliError(error, request);
    if (meili.status >= 500) request.log.error({ err: error }, 'search request failed');
    if (accessOf(request) !== 'admin') cors(reply);
    void reply.code(meili.status).send(meili.toJSON());
  });

  const search = { config: { access: 'search' } satisfies RouteConfig };
  const admin = { config: { access: 'admin' } satisfies RouteConfig };
  const adminDocuments = { config: { access: 'admin', documents: true } satisfies RouteConfig, bodyLimit: documentsBodyLimit };

  // -------------------------------------------------------------------------------------------
  // Search
  // -------------------------------------------------------------------------------------------

  /** The filter the caller's searches run under: a site's rules, or none for the admin key. */
  async function baseFilterOf(request: FastifyRequest): Promise<FilterNode | undefined> {
    const caller = callers.get(request);
    if (!caller) throw invalidKey();
    if (caller.kind === 'admin') return undefined;
    const site = await loadSiteConfig(ctx.db, caller.siteId);
    if (!site) throw invalidKey();
    return siteBaseFilter(site, Math.floor(Date.now() / 1000)).node;
  }

  /**
   * The index a search runs on. A site's key searches its cars and nothing else, as a tenant
   * token whose rules name only `cars` (checked first, so it learns nothing of other indexes).
   * A missing index is a 404 on its own route, a 400 inside a multi-search (as in Meilisearch).
   */
  function indexToSearch(request: FastifyRequest, uid: string, notFoundStatus: 400 | 404): EmbeddedIndex {
    if (callers.get(request)?.kind === 'site' && uid !== carsIndexUid) throw invalidKey();
    const index = ctx.search.index(uid);
    if (!index) throw new MeiliError('index_not_found', `Index \`${uid}\` not found.`, notFoundStatus);
    return index;
  }

  function runSearch(index: EmbeddedIndex, request: SearchRequest, base: FilterNode | undefined) {
    try {
      checkSearchAgainstIndex(index, request);
      return index.search(request.params, base);
    } catch (error) {
      throw namingIndex(index, error);
    }
  }

  /** Runs `run`, an error in it said of `where` in the request. */
  function within<T>(where: string, run: () => T): T {
    try {
      return run();
    } catch (error) {
      throw inside(where, error);
    }
  }

  app.options('/meili/*', { schema: { response: { 204: noContentSchema } } }, async (_request, reply) => cors(reply).code(204).send());

  app.post('/meili/multi-search', { ...search, schema: { body: objectOrEmptyBody, response: { 200: multiSearchSchema, ...refusals } } }, async (request, reply) => {
    const base = await baseFilterOf(request);
    const { queries, federation } = readMultiSearch(request.body);
    const indexes = queries.map((query, i) => within(`.queries[${i}]`, () => indexToSearch(request, query.indexUid, 400)));
    checkPublicRequest(request, reply, queries.map((query, i) => ({ ...query, index: indexes[i]! })), federation, true);
    if (!federation) {
      let found = 0;
      const results = [];
      for (const [i, query] of queries.entries()) {
        // Each query in a turn of its own: other requests are answered between them.
        if (i > 0) await nextTurn();
        const result = within(`.queries[${i}]`, () => ({ indexUid: query.indexUid, ...runSearch(indexes[i]!, query, base) }));
        checkHitsFound((found += result.hits.length), i);
        results.push(result);
      }
      return cors(reply).send({ results });
    }
    const federated = queries.map((query, i): FederatedQuery =>
      within(`.queries[${i}]`, () => {
        const index = indexes[i]!;
        checkSearchAgainstIndex(index, query);
        return { index, request: query, weight: query.federationOptions?.weight ?? 1 };
      }),
    );
    const facetIndexes = new Map(
      Object.keys(federation.facetsByIndex ?? {}).map((uid) => [uid, within(`.federation.facetsByIndex.${uid}`, () => indexToSearch(request, uid, 400))]),
    );
    return cors(reply).send(await federatedSearch(federated, federation, facetIndexes, base, nextTurn));
  });

  app.post('/meili/indexes/:uid/search', { ...search, schema: { params: indexParams, body: objectOrEmptyBody, response: { 200: searchResultSchema, ...refusals } } }, async (request, reply) => {
    const base = await baseFilterOf(request);
    const index = indexToSearch(request, request.params.uid, 404);
    const query = readSearchBody(request.body);
    checkPublicRequest(request, reply, [{ ...query, index }], undefined, false);
    return cors(reply).send(runSearch(index, query, base));
  });

  app.get('/meili/indexes/:uid/search', { ...search, schema: { params: indexParams, querystring: meiliQuery, response: { 200: searchResultSchema, ...refusals } } }, async (request, reply) => {
    const base = await baseFilterOf(request);
    const index = indexToSearch(request, request.params.uid, 404);
    const query = readSearchQuery(request.query);
    checkPublicRequest(request, reply, [{ ...query, index }], undefined, false);
    return cors(reply).send(runSearch(index, query, base));
  });

  app.post('/meili/indexes/:uid/facet-search', { ...search, schema: { params: indexParams, body: objectOrEmptyBody, response: { 200: facetSearchSchema, ...refusals } } }, async (request, reply) => {
    const started = performance.now();
    const base = await baseFilterOf(request);
    const index = indexToSearch(request, request.params.uid, 404);
    const facetSearch = readFacetSearch(request.body);
    checkPublicRequest(request, reply, [{ ...facetSearch, index }], undefined, false);
    if (index.allSettings().facetSearch === false) throw new MeiliError('facet_search_disabled', 'The facet search is disabled for this index', 400);
    const { filterableAttributes } = index.settings;
    if (!isFilterableBy(facetSearch.facetName, filterableAttributes)) {
      const available = filterableAttributes.length
        ? `Available facet-searchable attributes patterns are: \`${[...filterableAttributes].sort().join(', ')}\`.`
        : 'This index does not have configured facet-searchable attributes.';
      throw new MeiliError(
        'invalid_facet_search_facet_name',
        `Attribute \`${facetSearch.facetName}\` is not facet-searchable. ${available} To make it facet-searchable add it to the \`filterableAttributes\` index settings.`,
        400,
      );
    }
    let facetHits: { value: string; count: number }[];
    try {
      checkSearchAgainstIndex(index, facetSearch);
      facetHits = index.facetSearch(facetSearch.facetName, facetSearch.facetQuery ?? '', facetSearch.params, base);
    } catch (error) {
      throw namingIndex(index, error);
    }
    return cors(reply).send({ facetHits, facetQuery: facetSearch.facetQuery, processingTimeMs: Math.round(performance.now() - started) });
  });

  // -------------------------------------------------------------------------------------------
  // Instance
  // -------------------------------------------------------------------------------------------

  app.get('/meili/health', { schema: { response: { 200: z.object({ status: z.literal('available') }), ...refusals } } }, async () => ({ status: 'available' as const }));

  app.get(
    '/meili/version',
    { ...admin, schema: { response: { 200: z.object({ commitSha: z.string(), commitDate: z.string(), pkgVersion: z.string() }), ...refusals } } },
    async () => ({ commitSha: 'embedded', commitDate: 'unknown', pkgVersion: '1.16.0' }),
  );

  const statsSchema = z.object({ databaseSize: z.number(), usedDatabaseSize: z.number(), lastUpdate: z.string().nullable(), indexes: z.record(z.string(), indexStatsSchema) });
  app.get('/meili/stats', { ...admin, schema: { response: { 200: statsSchema, ...refusals } } }, async () => ({
    databaseSize: 0,
    usedDatabaseSize: 0,
    lastUpdate: null,
    indexes: Object.fromEntries([...ctx.search.indexes.values()].map((index) => [index.uid, index.stats()])),
  }));

  // -------------------------------------------------------------------------------------------
  // Indexes
  // -------------------------------------------------------------------------------------------

  const indexesPageSchema = z.object({ results: z.array(indexSchema), offset: z.number(), limit: z.number(), total: z.number() });
  app.get('/meili/indexes', { ...admin, schema: { querystring: meiliQuery, response: { 200: indexesPageSchema, ...refusals } } }, async (request) => {
    const given = queryParameters(request.query, ['offset', 'limit']);
    const offset = given.has('offset') ? parsePositiveInteger(given.get('offset')!, 'offset', 'invalid_index_offset') : 0;
    const limit = given.has('limit') ? parsePositiveInteger(given.get('limit')!, 'limit', 'invalid_index_limit') : 20;
    return ctx.search.listIndexes(offset, limit);
  });

  app.post('/meili/indexes', { ...admin, schema: { body: objectBody, response: { 202: enqueuedTaskSchema, ...refusals } } }, async (request, reply) => {
    const body = request.body;
    for (const field of Object.keys(body)) {
      if (field !== 'uid' && field !== 'primaryKey') throw new MeiliError('bad_request', `Unknown field \`${field}\`: expected one of \`uid\`, \`primaryKey\``, 400);
    }
    if (body.uid === undefined) throw new MeiliError('missing_index_uid', 'Missing field `uid`', 400);
    if (typeof body.uid !== 'string') throw invalidType('invalid_index_uid', '.uid', 'a string', body.uid);
    checkIndexUid(body.uid);
    if (body.primaryKey !== undefined && body.primaryKey !== null && typeof body.primaryKey !== 'string') {
      throw invalidType('invalid_index_primary_key', '.primaryKey', 'a string', body.primaryKey);
    }
    return reply.code(202).send(ctx.search.createIndex(body.uid, (body.primaryKey as string | undefined) ?? null));
  });

  /** A write's options: the index in the path, answered with the task summary. */
  const indexWrite = { ...admin, schema: { params: indexParams, response: { 202: enqueuedTaskSchema, ...refusals } } };

  app.get('/meili/indexes/:uid', { ...admin, schema: { params: indexParams, response: { 200: indexSchema, ...refusals } } }, async (request) =>
    ctx.search.existingIndex(request.params.uid).info(),
  );

  app.get('/meili/indexes/:uid/stats', { ...admin, schema: { params: indexParams, response: { 200: indexStatsSchema, ...refusals } } }, async (request) =>
    ctx.search.existingIndex(request.params.uid).stats(),
  );

  app.patch('/meili/indexes/:uid', { ...indexWrite, schema: { ...indexWrite.schema, body: indexUpdateBody } }, async (request, reply) =>
    reply.code(202).send(ctx.search.updateIndex(request.params.uid, request.body.primaryKey)),
  );

  app.delete('/meili/indexes/:uid', indexWrite, async (request, reply) => reply.code(202).send(ctx.search.deleteIndex(request.params.uid)));

  // -------------------------------------------------------------------------------------------
  // Settings
  // -------------------------------------------------------------------------------------------

  app.get('/meili/indexes/:uid/settings', { ...admin, schema: { params: indexParams, response: { 200: z.record(z.string(), z.unknown()), ...refusals } } }, async (request) =>
    ctx.search.existingIndex(request.params.uid).allSettings(),
  );

  app.patch('/meili/indexes/:uid/settings', { ...indexWrite, schema: { ...indexWrite.schema, body: objectBody } }, async (request, reply) =>
    reply.code(202).send(ctx.search.updateSettings(request.params.uid, settingsBody(request.body))),
  );

  app.delete('/meili/indexes/:uid/settings', indexWrite, async (request, reply) =>
    reply.code(202).send(ctx.search.updateSettings(request.params.uid, Object.fromEntries(settingNames.map((name) => [name, null])))),
  );

  // 200 is the setting's value as JSON text, serialised by the route: Fastify would send a bare string (`byWord`) as text/plain, and null as nothing.
  app.get('/meili/indexes/:uid/settings/:setting', { ...admin, schema: { params: settingParams, response: { 200: z.string(), ...refusals } } }, async (request, reply) =>
    reply.type('application/json').send(JSON.stringify(ctx.search.existingIndex(request.params.uid).allSettings()[request.params.setting])),
  );

  const settingWrite = { ...admin, schema: { params: settingParams, response: { 202: enqueuedTaskSchema, ...refusals } } };
  app.route({
    ...settingWrite,
    // The value, any JSON: checked against the setting the path names.
    schema: { ...settingWrite.schema, body: z.unknown() },
    method: ['PUT', 'PATCH'],
    url: '/meili/indexes/:uid/settings/:setting',
    handler: async (request, reply) => {
      const { setting } = request.params;
      const value = request.body === undefined ? null : request.body;
      checkSetting(setting, value, '');
      return reply.code(202).send(ctx.search.updateSettings(request.params.uid, { [setting]: value }));
    },
  });

  app.delete('/meili/indexes/:uid/settings/:setting', settingWrite, async (request, reply) =>
    reply.code(202).send(ctx.search.updateSettings(request.params.uid, { [request.params.setting]: null })),
  );

  // -------------------------------------------------------------------------------------------
  // Documents
  // -------------------------------------------------------------------------------------------

  function browseDocuments(uid: string, query: DocumentsQuery) {
    const index = ctx.search.existingIndex(uid);
    const { offset = 0, limit = 20, fields, ids } = query;
    let docs = index.matching(query.filter);
    if (ids) {
      const wanted = new Set(ids);
      docs = docs.filter((doc) => wanted.has(String(doc[index.primaryKey ?? 'id'])));
    }
    return { results: docs.slice(offset, offset + limit).map((doc) => index.shown(doc, fields)), offset, limit, total: docs.length };
  }

  const documentsPage = { ...admin, schema: { params: indexParams, response: { 200: documentsPageSchema, ...refusals } } };
  app.get('/meili/indexes/:uid/documents', { ...documentsPage, schema: { ...documentsPage.schema, querystring: meiliQuery } }, async (request) =>
    browseDocuments(request.params.uid, documentsQuery(request.query)),
  );

  app.post('/meili/indexes/:uid/documents/fetch', { ...documentsPage, schema: { ...documentsPage.schema, body: objectOrEmptyBody } }, async (request) =>
    browseDocuments(request.params.uid, readObject(request.body, fetchFields, '', 'bad_request') as DocumentsQuery),
  );

  app.get('/meili/indexes/:uid/documents/:id', { ...admin, schema: { params: documentParams, querystring: meiliQuery, response: { 200: documentSchema, ...refusals } } }, async (request) => {
    const given = queryParameters(request.query, ['fields', 'retrieveVectors']);
    if (given.has('retrieveVectors')) parseBoolean(given.get('retrieveVectors')!, 'retrieveVectors', 'invalid_document_retrieve_vectors');
    const index = ctx.search.existingIndex(request.params.uid);
    const doc = index.get(request.params.id);
    if (!doc) throw new MeiliError('document_not_found', `Document \`${request.params.id}\` not found.`, 404);
    return index.shown(doc, given.has('fields') ? parseList(given.get('fields')!) : undefined);
  });

  app.route({
    ...adminDocuments,
    method: ['POST', 'PUT'],
    url: '/meili/indexes/:uid/documents',
    // The documents as JSON, NDJSON or CSV text: `documentsOf` reads them in the format the Content-Type names.
    schema: { params: indexParams, querystring: meiliQuery, body: z.unknown(), response: { 202: enqueuedTaskSchema, ...refusals } },
    handler: async (request, reply) => {
      const { docs, primaryKey } = documentsOf(request);
      // PUT updates documents field by field, POST replaces them, as in Meilisearch.
      return reply.code(202).send(ctx.search.addDocuments(request.params.uid, docs, { primaryKey, merge: request.method === 'PUT' }));
    },
  });

  app.post('/meili/indexes/:uid/documents/delete-batch', { ...indexWrite, schema: { ...indexWrite.schema, body: documentIdsBody }, bodyLimit: documentsBodyLimit }, async (request, reply) =>
    reply.code(202).send(ctx.search.deleteDocuments(request.params.uid, request.body)),
  );

  app.post('/meili/indexes/:uid/documents/delete', { ...indexWrite, schema: { ...indexWrite.schema, body: objectOrEmptyBody } }, async (request, reply) => {
    const { filter } = readObject(request.body, [{ name: 'filter', code: 'invalid_document_filter', read: readDocumentFilter, required: { code: 'missing_document_filter' } }], '', 'bad_request');
    return reply.code(202).send(ctx.search.deleteDocumentsByFilter(request.params.uid, filter as SearchParams['filter']));
  });

  app.delete('/meili/indexes/:uid/documents/:id', { ...indexWrite, schema: { ...indexWrite.schema, params: documentParams } }, async (request, reply) =>
    reply.code(202).send(ctx.search.deleteDocuments(request.params.uid, [request.params.id])),
  );

  app.delete('/meili/indexes/:uid/documents', indexWrite, async (request, reply) => reply.code(202).send(ctx.search.deleteAllDocuments(request.params.uid)));

  // -------------------------------------------------------------------------------------------
  // Tasks and batches
  // -------------------------------------------------------------------------------------------

  /** What a cancelation or deletion task records as its filter: the query string as sent. */
  const originalFilter = (request: FastifyRequest) => `?${request.url.split('?')[1] ?? ''}`;

  app.get('/meili/tasks', { ...admin, schema: { querystring: meiliQuery, response: { 200: pageByUid(taskSchema), ...refusals } } }, async (request) =>
    ctx.search.listTasks(readTaskQuery(request.query)),
  );

  app.get('/meili/tasks/:taskUid', { ...admin, schema: { params: taskParams, response: { 200: taskSchema, ...refusals } } }, async (request) => ctx.search.task(request.params.taskUid));

  /** A cancelation or deletion: the tasks it is about named in the query string, answered with its task summary. */
  const tasksWrite = { ...admin, schema: { querystring: meiliQuery, response: { 200: enqueuedTaskSchema, ...refusals } } };
  app.post('/meili/tasks/cancel', tasksWrite, async (request) => ctx.search.cancelTasks(readTaskFilter(request.query, 'cancel'), originalFilter(request)));

  app.delete('/meili/tasks', tasksWrite, async (request) => ctx.search.deleteTasks(readTaskFilter(request.query, 'delete'), originalFilter(request)));

  app.get('/meili/batches', { ...admin, schema: { querystring: meiliQuery, response: { 200: pageByUid(batchSchema), ...refusals } } }, async (request) =>
    ctx.search.listBatches(readTaskQuery(request.query)),
  );

  app.get('/meili/batches/:batchUid', { ...admin, schema: { params: batchParams, response: { 200: batchSchema, ...refusals } } }, async (request) => ctx.search.batch(request.params.batchUid));

  // Anything else under /meili is not part of the API (rather than a page of the site).
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/meili/*',
    schema: { params: z.object({ '*': z.string() }), response: refusals },
    handler: async (request) => {
      throw new MeiliError('not_found', `Route \`${request.method} ${request.url.split('?')[0]}\` does not exist.`, 404);
    },
  });
}
