import { timingSafeEqual } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { loadSiteConfig } from '../db/site-store';
import type { PlatformContext } from '../platform-context';
import { FilterSyntaxError, parseFilter, type FilterNode } from '../search/filter-parser';
import { MeiliError } from '../search/search-errors';
import type { Doc, SearchParams } from '../search/search-index';
import { checkIndexUid, settingNames, type MeiliSettings, type SettingName, type TaskQuery } from '../search/search-engine';
import { carsIndexUid, siteBaseFilter, siteIdFromSearchKey } from '../search/site-search';

const searchParamsSchema = z
  .object({
    q: z.string().nullish(),
    filter: z.union([z.string(), z.array(z.union([z.string(), z.array(z.string())]))]).nullish(),
    facets: z.array(z.string()).nullish(),
    sort: z.array(z.string()).nullish(),
    limit: z.number().int().min(0).optional(),
    offset: z.number().int().min(0).optional(),
    page: z.number().int().min(1).optional(),
    hitsPerPage: z.number().int().min(0).optional(),
    attributesToHighlight: z.array(z.string()).nullish(),
    highlightPreTag: z.string().optional(),
    highlightPostTag: z.string().optional(),
  })
  .passthrough();

const multiSearchSchema = z.object({ queries: z.array(searchParamsSchema.extend({ indexUid: z.string() })) });

/**
 * Who may call a route: anyone (`public`), a site's search key or the search admin key
 * (`search`), or the search admin key only (`admin`). Checked before the body is read.
 */
type Access = 'public' | 'search' | 'admin';
type Caller = { kind: 'admin' } | { kind: 'site'; siteId: number };

/** Meilisearch accepts up to 100 MB of documents; the indexer sends far smaller batches. */
const documentsBodyLimit = 50 * 1024 * 1024;

const invalidKey = () => new MeiliError('invalid_api_key', 'The provided API key is invalid.', 403, 'auth');

// ---------------------------------------------------------------------------------------------
// Reading parameters and bodies, with Meilisearch's error codes
// ---------------------------------------------------------------------------------------------

function integerParam(value: unknown, code: string, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const number = typeof value === 'number' ? value : /^\d+$/.test(String(value)) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < 0) {
    throw new MeiliError(code, `Invalid value in parameter \`${name}\`: could not parse \`${String(value)}\` as a positive integer`, 400);
  }
  return number;
}

const listParam = (value: unknown): string[] | undefined =>
  typeof value === 'string' && value !== '' ? value.split(',').map((item) => item.trim()).filter(Boolean) : Array.isArray(value) ? value.map(String) : undefined;

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'boolean') return 'a boolean';
  return 'a number';
}

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
    pagination: { expected: 'an object with `maxTotalHits` (a positive integer)', ok: (v) => isPlainObject(v) && (v.maxTotalHits === undefined || (Number.isInteger(v.maxTotalHits) && (v.maxTotalHits as number) >= 0)) },
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
  if (!check.ok(value)) {
    throw new MeiliError(`invalid_settings_${snakeCase(name)}`, `Invalid value type at \`${path}\`: expected ${check.expected}, but found ${describeType(value)}: \`${JSON.stringify(value)}\``, 400);
  }
}

function settingsBody(body: unknown): Partial<MeiliSettings> {
  if (!isPlainObject(body)) throw new MeiliError('bad_request', `Invalid value type: expected an object, but found ${describeType(body)}: \`${JSON.stringify(body ?? null)}\``, 400);
  const settings: Partial<MeiliSettings> = {};
  for (const [name, value] of Object.entries(body)) {
    if (!(settingNames as string[]).includes(name)) {
      throw new MeiliError('bad_request', `Unknown field \`${name}\`: expected one of ${settingNames.map((known) => `\`${known}\``).join(', ')}`, 400);
    }
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

function documentsBody(body: unknown): Doc[] {
  const docs = Array.isArray(body) ? body : isPlainObject(body) ? [body] : null;
  if (!docs || !docs.every(isPlainObject)) {
    throw new MeiliError('malformed_payload', "The `json` payload provided is malformed. `Couldn't serialize document value: data are neither an object nor a list of objects`.", 400);
  }
  return docs as Doc[];
}

function documentFilter(filter: unknown): SearchParams['filter'] {
  if (filter === undefined || filter === null) return undefined;
  const valid = typeof filter === 'string' || (Array.isArray(filter) && filter.every((item) => typeof item === 'string' || (Array.isArray(item) && item.every((inner) => typeof inner === 'string'))));
  if (!valid) throw new MeiliError('invalid_document_filter', `Invalid value type: expected a string or an array, but found ${describeType(filter)}`, 400);
  try {
    parseFilter(filter as SearchParams['filter']);
  } catch (error) {
    if (error instanceof FilterSyntaxError) throw new MeiliError('invalid_document_filter', error.message, 400);
    throw error;
  }
  return filter as SearchParams['filter'];
}

const pick = (doc: Doc, fields: string[] | undefined): Record<string, unknown> =>
  !fields || fields.includes('*') ? doc : Object.fromEntries(fields.filter((field) => field in doc).map((field) => [field, doc[field]]));

/** Any error on a `/meili` route, in Meilisearch's shape, so the official client raises its MeilisearchApiError with the right code. */
function asMeiliError(error: FastifyError | Error, request: FastifyRequest): MeiliError {
  if (error instanceof MeiliError) return error;
  const code = (error as FastifyError).code;
  if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
    const documents = /\/documents(\/|$|\?)/.test(request.url) && request.method !== 'GET';
    return new MeiliError(documents ? 'malformed_payload' : 'bad_request', `The json payload provided is malformed. \`${error.message}\`.`, 400);
  }
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new MeiliError('payload_too_large', `The provided payload reached the size limit. The maximum accepted payload size is ${documentsBodyLimit / 1024 / 1024} MiB.`, 413);
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return new MeiliError('invalid_content_type', `The Content-Type \`${request.headers['content-type'] ?? ''}\` is invalid. Accepted values for the Content-Type header are: \`application/json\``, 415);
  }
  const status = (error as FastifyError).statusCode;
  if (status && status >= 400 && status < 500) return new MeiliError('bad_request', error.message, status);
  return new MeiliError('internal', 'Something went wrong on our side. Please try again.', 500, 'internal');
}

/**
 * Meilisearch's API at `/meili`, served by the embedded engine.
 * - Search (`/multi-search`, `/indexes/:uid/search`): a site's search key, scoped to the site's
 *   listed stock whatever the browser asks; or the search admin key, unscoped.
 * - Everything the indexer uses (indexes, settings, documents, tasks): the search admin key only.
 */
export async function searchRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const adminKey = Buffer.from(ctx.config.searchAdminKey);
  const isAdminKey = (key: string) => {
    const given = Buffer.from(key);
    return given.length === adminKey.length && timingSafeEqual(given, adminKey);
  };
  const callers = new WeakMap<FastifyRequest, Caller>();
  const accessOf = (request: FastifyRequest): Access => (request.routeOptions.config as { access?: Access }).access ?? 'public';

  const cors = (reply: FastifyReply) =>
    reply
      .header('Access-Control-Allow-Origin', '*')
      .header('Access-Control-Allow-Headers', 'Authorization, Content-Type, X-Meilisearch-Client')
      .header('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');

  // The official client sends `Content-Type: application/json` on every call, a DELETE with no body too.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') done(null, undefined);
    else json(request, body as string, done);
  });

  app.addHook('onRequest', async (request) => {
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
    callers.set(request, { kind: 'site', siteId });
  });

  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const meili = asMeiliError(error, request);
    if (meili.status >= 500) request.log.error({ err: error }, 'search request failed');
    if (accessOf(request) !== 'admin') cors(reply);
    void reply.code(meili.status).send(meili.toJSON());
  });

  const search = { config: { access: 'search' as Access } };
  const admin = { config: { access: 'admin' as Access } };
  const adminDocuments = { ...admin, bodyLimit: documentsBodyLimit };

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

  function runSearch(request: FastifyRequest, indexUid: string, params: SearchParams, base: FilterNode | undefined) {
    const index = ctx.search.index(indexUid);
    if (!index) throw new MeiliError('index_not_found', `Index \`${indexUid}\` not found.`, 404);
    // A site's key searches its cars and nothing else, as a tenant token whose rules name only `cars`.
    if (callers.get(request)?.kind === 'site' && indexUid !== carsIndexUid) throw invalidKey();
    return { indexUid, ...index.search(params, base) };
  }

  app.options('/meili/*', async (_request, reply) => cors(reply).code(204).send());

  app.post('/meili/multi-search', search, async (request, reply) => {
    const base = await baseFilterOf(request);
    const parsed = multiSearchSchema.safeParse(request.body);
    if (!parsed.success) throw new MeiliError('bad_request', `Invalid multi-search request: ${parsed.error.issues[0]?.message ?? 'bad body'}`, 400);
    const results = parsed.data.queries.map((query, i) => {
      try {
        const { indexUid, ...params } = query;
        return runSearch(request, indexUid, params as SearchParams, base);
      } catch (error) {
        if (error instanceof MeiliError) throw new MeiliError(error.code, `Inside \`.queries[${i}]\`: ${error.message}`, error.status, error.type);
        throw error;
      }
    });
    return cors(reply).send({ results });
  });

  app.post<{ Params: { uid: string } }>('/meili/indexes/:uid/search', search, async (request, reply) => {
    const base = await baseFilterOf(request);
    const parsed = searchParamsSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw new MeiliError('bad_request', `Invalid search request: ${parsed.error.issues[0]?.message ?? 'bad body'}`, 400);
    return cors(reply).send(runSearch(request, request.params.uid, parsed.data as SearchParams, base));
  });

  // -------------------------------------------------------------------------------------------
  // Instance
  // -------------------------------------------------------------------------------------------

  app.get('/meili/health', async () => ({ status: 'available' }));

  app.get('/meili/version', admin, async () => ({ commitSha: 'embedded', commitDate: 'unknown', pkgVersion: '1.16.0' }));

  app.get('/meili/stats', admin, async () => ({
    databaseSize: 0,
    usedDatabaseSize: 0,
    lastUpdate: null,
    indexes: Object.fromEntries([...ctx.search.indexes.values()].map((index) => [index.uid, index.stats()])),
  }));

  // -------------------------------------------------------------------------------------------
  // Indexes
  // -------------------------------------------------------------------------------------------

  app.get<{ Querystring: Record<string, string> }>('/meili/indexes', admin, async (request) =>
    ctx.search.listIndexes(integerParam(request.query.offset, 'invalid_index_offset', 'offset', 0), integerParam(request.query.limit, 'invalid_index_limit', 'limit', 20)),
  );

  app.post('/meili/indexes', admin, async (request, reply) => {
    const body = request.body;
    if (!isPlainObject(body)) throw new MeiliError('bad_request', `Invalid value type: expected an object, but found ${describeType(body)}`, 400);
    for (const field of Object.keys(body)) {
      if (field !== 'uid' && field !== 'primaryKey') throw new MeiliError('bad_request', `Unknown field \`${field}\`: expected one of \`uid\`, \`primaryKey\``, 400);
    }
    if (body.uid === undefined) throw new MeiliError('missing_index_uid', 'Missing field `uid`', 400);
    if (typeof body.uid !== 'string') throw new MeiliError('invalid_index_uid', `Invalid value type at \`.uid\`: expected a string, but found ${describeType(body.uid)}`, 400);
    checkIndexUid(body.uid);
    if (body.primaryKey !== undefined && body.primaryKey !== null && typeof body.primaryKey !== 'string') {
      throw new MeiliError('invalid_index_primary_key', `Invalid value type at \`.primaryKey\`: expected a string, but found ${describeType(body.primaryKey)}`, 400);
    }
    return reply.code(202).send(ctx.search.createIndex(body.uid, (body.primaryKey as string | undefined) ?? null));
  });

  app.get<{ Params: { uid: string } }>('/meili/indexes/:uid', admin, async (request) => ctx.search.existingIndex(request.params.uid).info());

  app.get<{ Params: { uid: string } }>('/meili/indexes/:uid/stats', admin, async (request) => ctx.search.existingIndex(request.params.uid).stats());

  app.patch<{ Params: { uid: string } }>('/meili/indexes/:uid', admin, async (request, reply) => {
    const body = request.body;
    if (!isPlainObject(body) || (body.primaryKey !== undefined && body.primaryKey !== null && typeof body.primaryKey !== 'string')) {
      throw new MeiliError('invalid_index_primary_key', 'Invalid value type at `.primaryKey`: expected a string', 400);
    }
    return reply.code(202).send(ctx.search.updateIndex(request.params.uid, (body.primaryKey as string | undefined) ?? null));
  });

  app.delete<{ Params: { uid: string } }>('/meili/indexes/:uid', admin, async (request, reply) => reply.code(202).send(ctx.search.deleteIndex(request.params.uid)));

  // -------------------------------------------------------------------------------------------
  // Settings
  // -------------------------------------------------------------------------------------------

  app.get<{ Params: { uid: string } }>('/meili/indexes/:uid/settings', admin, async (request) => ctx.search.existingIndex(request.params.uid).allSettings());

  app.patch<{ Params: { uid: string } }>('/meili/indexes/:uid/settings', admin, async (request, reply) =>
    reply.code(202).send(ctx.search.updateSettings(request.params.uid, settingsBody(request.body))),
  );

  app.delete<{ Params: { uid: string } }>('/meili/indexes/:uid/settings', admin, async (request, reply) =>
    reply.code(202).send(ctx.search.updateSettings(request.params.uid, Object.fromEntries(settingNames.map((name) => [name, null])))),
  );

  app.get<{ Params: { uid: string; setting: string } }>('/meili/indexes/:uid/settings/:setting', admin, async (request) => {
    const name = settingFromRoute(request.params.setting);
    return ctx.search.existingIndex(request.params.uid).allSettings()[name];
  });

  const updateOneSetting = async (request: FastifyRequest<{ Params: { uid: string; setting: string } }>, reply: FastifyReply) => {
    const name = settingFromRoute(request.params.setting);
    const value = request.body === undefined ? null : request.body;
    checkSetting(name, value, '');
    return reply.code(202).send(ctx.search.updateSettings(request.params.uid, { [name]: value }));
  };
  app.put<{ Params: { uid: string; setting: string } }>('/meili/indexes/:uid/settings/:setting', admin, updateOneSetting);
  app.patch<{ Params: { uid: string; setting: string } }>('/meili/indexes/:uid/settings/:setting', admin, updateOneSetting);

  app.delete<{ Params: { uid: string; setting: string } }>('/meili/indexes/:uid/settings/:setting', admin, async (request, reply) => {
    const name = settingFromRoute(request.params.setting);
    return reply.code(202).send(ctx.search.updateSettings(request.params.uid, { [name]: null }));
  });

  // -------------------------------------------------------------------------------------------
  // Documents
  // -------------------------------------------------------------------------------------------

  type DocumentsQuery = { offset?: unknown; limit?: unknown; fields?: unknown; filter?: unknown; ids?: unknown };
  function browseDocuments(uid: string, query: DocumentsQuery) {
    const index = ctx.search.existingIndex(uid);
    const offset = integerParam(query.offset, 'invalid_document_offset', 'offset', 0);
    const limit = integerParam(query.limit, 'invalid_document_limit', 'limit', 20);
    const fields = listParam(query.fields);
    const ids = listParam(query.ids);
    let docs = index.matching(documentFilter(query.filter));
    if (ids) {
      const wanted = new Set(ids);
      docs = docs.filter((doc) => wanted.has(String(doc[index.primaryKey ?? 'id'])));
    }
    return { results: docs.slice(offset, offset + limit).map((doc) => pick(doc, fields)), offset, limit, total: docs.length };
  }

  app.get<{ Params: { uid: string }; Querystring: DocumentsQuery }>('/meili/indexes/:uid/documents', admin, async (request) => browseDocuments(request.params.uid, request.query));

  app.post<{ Params: { uid: string } }>('/meili/indexes/:uid/documents/fetch', admin, async (request) => {
    const body = request.body ?? {};
    if (!isPlainObject(body)) throw new MeiliError('bad_request', `Invalid value type: expected an object, but found ${describeType(body)}`, 400);
    return browseDocuments(request.params.uid, body);
  });

  app.get<{ Params: { uid: string; id: string }; Querystring: { fields?: string } }>('/meili/indexes/:uid/documents/:id', admin, async (request) => {
    const doc = ctx.search.existingIndex(request.params.uid).get(request.params.id);
    if (!doc) throw new MeiliError('document_not_found', `Document \`${request.params.id}\` not found.`, 404);
    return pick(doc, listParam(request.query.fields));
  });

  const addDocuments = (merge: boolean) => async (request: FastifyRequest<{ Params: { uid: string }; Querystring: { primaryKey?: string } }>, reply: FastifyReply) =>
    reply.code(202).send(ctx.search.addDocuments(request.params.uid, documentsBody(request.body), { primaryKey: request.query.primaryKey || null, merge }));
  app.post<{ Params: { uid: string }; Querystring: { primaryKey?: string } }>('/meili/indexes/:uid/documents', adminDocuments, addDocuments(false));
  app.put<{ Params: { uid: string }; Querystring: { primaryKey?: string } }>('/meili/indexes/:uid/documents', adminDocuments, addDocuments(true));

  app.post<{ Params: { uid: string } }>('/meili/indexes/:uid/documents/delete-batch', adminDocuments, async (request, reply) => {
    const ids = request.body;
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string' || typeof id === 'number')) {
      throw new MeiliError('bad_request', `Invalid value type: expected an array of document ids, but found ${describeType(ids)}`, 400);
    }
    return reply.code(202).send(ctx.search.deleteDocuments(request.params.uid, ids as (string | number)[]));
  });

  app.post<{ Params: { uid: string } }>('/meili/indexes/:uid/documents/delete', admin, async (request, reply) => {
    const body = request.body;
    if (!isPlainObject(body) || body.filter === undefined || body.filter === null) throw new MeiliError('missing_document_filter', 'Missing field `filter`', 400);
    return reply.code(202).send(ctx.search.deleteDocumentsByFilter(request.params.uid, documentFilter(body.filter)));
  });

  app.delete<{ Params: { uid: string; id: string } }>('/meili/indexes/:uid/documents/:id', admin, async (request, reply) =>
    reply.code(202).send(ctx.search.deleteDocuments(request.params.uid, [request.params.id])),
  );

  app.delete<{ Params: { uid: string } }>('/meili/indexes/:uid/documents', admin, async (request, reply) => reply.code(202).send(ctx.search.deleteAllDocuments(request.params.uid)));

  // -------------------------------------------------------------------------------------------
  // Tasks
  // -------------------------------------------------------------------------------------------

  app.get<{ Querystring: Record<string, string> }>('/meili/tasks', admin, async (request) => {
    const q = request.query;
    const uids = listParam(q.uids)?.map((uid) => integerParam(uid, 'invalid_task_uids', 'uids', 0));
    const query: TaskQuery = {
      limit: integerParam(q.limit, 'invalid_task_limit', 'limit', 20),
      ...(q.from !== undefined ? { from: integerParam(q.from, 'invalid_task_from', 'from', 0) } : {}),
      reverse: q.reverse === 'true',
      ...(uids ? { uids } : {}),
      ...(listParam(q.statuses) ? { statuses: listParam(q.statuses) } : {}),
      ...(listParam(q.types) ? { types: listParam(q.types) } : {}),
      ...(listParam(q.indexUids) ? { indexUids: listParam(q.indexUids) } : {}),
    };
    return ctx.search.listTasks(query);
  });

  app.get<{ Params: { taskUid: string } }>('/meili/tasks/:taskUid', admin, async (request) => {
    const { taskUid } = request.params;
    if (!/^\d+$/.test(taskUid)) throw new MeiliError('invalid_task_uids', `Task uid \`${taskUid}\` is invalid. It should only contain numeric characters.`, 400);
    return ctx.search.task(Number(taskUid));
  });

  // Anything else under /meili is not part of the API (rather than a page of the site).
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/meili/*',
    handler: async (request) => {
      throw new MeiliError('not_found', `Route \`${request.method} ${request.url.split('?')[0]}\` does not exist.`, 404);
    },
  });
}
