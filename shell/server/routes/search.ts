import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { loadSiteConfig } from '../db/site-store';
import type { PlatformContext } from '../platform-context';
import { MeiliError } from '../search/search-errors';
import type { SearchParams } from '../search/search-index';
import { siteBaseFilter, siteIdFromSearchKey } from '../search/site-search';

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

/** Meilisearch's search contract at `/meili`, scoped to the site the key was issued for. */
export async function searchRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const cors = (reply: FastifyReply) =>
    reply
      .header('Access-Control-Allow-Origin', '*')
      .header('Access-Control-Allow-Headers', 'Authorization, Content-Type, X-Meilisearch-Client')
      .header('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');

  const fail = (reply: FastifyReply, error: MeiliError) => cors(reply).code(error.status).send(error.toJSON());

  async function siteFilter(request: FastifyRequest) {
    const header = request.headers.authorization;
    if (!header) throw new MeiliError('missing_authorization_header', 'The Authorization header is missing. It must use the bearer authorization method.', 401, 'auth');
    const key = header.replace(/^Bearer\s+/i, '');
    const siteId = siteIdFromSearchKey(key, ctx.config.searchKeySecret);
    const site = siteId === null ? null : await loadSiteConfig(ctx.db, siteId);
    if (!site) throw new MeiliError('invalid_api_key', 'The provided API key is invalid.', 403, 'auth');
    return siteBaseFilter(site, Math.floor(Date.now() / 1000));
  }

  function runSearch(indexUid: string, params: SearchParams, base: Awaited<ReturnType<typeof siteFilter>>) {
    const index = ctx.search.index(indexUid);
    if (!index) throw new MeiliError('index_not_found', `Index \`${indexUid}\` not found.`, 404);
    return { indexUid, ...index.search(params, base) };
  }

  app.options('/meili/*', async (_request, reply) => cors(reply).code(204).send());

  app.post('/meili/multi-search', async (request, reply) => {
    try {
      const base = await siteFilter(request);
      const parsed = multiSearchSchema.safeParse(request.body);
      if (!parsed.success) throw new MeiliError('bad_request', `Invalid multi-search request: ${parsed.error.issues[0]?.message ?? 'bad body'}`, 400);
      const results = parsed.data.queries.map((query, i) => {
        try {
          const { indexUid, ...params } = query;
          return runSearch(indexUid, params as SearchParams, base);
        } catch (error) {
          if (error instanceof MeiliError) throw new MeiliError(error.code, `Inside \`.queries[${i}]\`: ${error.message}`, error.status);
          throw error;
        }
      });
      return cors(reply).send({ results });
    } catch (error) {
      if (error instanceof MeiliError) return fail(reply, error);
      throw error;
    }
  });

  app.post<{ Params: { uid: string } }>('/meili/indexes/:uid/search', async (request, reply) => {
    try {
      const base = await siteFilter(request);
      const parsed = searchParamsSchema.safeParse(request.body ?? {});
      if (!parsed.success) throw new MeiliError('bad_request', `Invalid search request: ${parsed.error.issues[0]?.message ?? 'bad body'}`, 400);
      return cors(reply).send(runSearch(request.params.uid, parsed.data as SearchParams, base));
    } catch (error) {
      if (error instanceof MeiliError) return fail(reply, error);
      throw error;
    }
  });
}
