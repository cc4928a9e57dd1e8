import { eventLoopTurns, searchTurnMs } from '@dealer/search-engine/event-loop-turns';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RateLimiter } from '@dealer/leads/spam';
import { federatedSearch, type FederatedQuery } from '@dealer/search-engine/federated-search';
import { isFilterableBy } from '@dealer/search-engine/filter-evaluator';
import type { FilterNode } from '@dealer/search-engine/filter-parser';
import { invalidApiKey, namingIndex, tooManySearchRequests } from '@dealer/search-engine/request-errors';
import { checkSearchBudget } from '@dealer/search-engine/search-budget';
import type { EmbeddedIndex } from '@dealer/search-engine/embedded-index';
import { inside, MeiliError } from '@dealer/search-engine/search-errors';
import {
  checkHitsFound,
  checkSearchAgainstIndex,
  readFacetSearch,
  readMultiSearch,
  readSearchBody,
  readSearchQuery,
  type Federation,
  type SearchRequest,
} from '@dealer/search-engine/search-request';
import type { PlatformContext } from '../../platform-context';
import { carsIndexUid, siteBaseFilter, type SiteBaseFilter, type SiteSearchScope } from '../../search/site-search';
import { cors, searchKey, type Caller, type HeaderSink, type TakeSearches } from './meili-access';
import { documentSchema, indexParams, meiliQuery, objectOrEmptyBody, refusals } from './meili-schemas';

/** Addresses (with their site) the search limit keeps count of at once. */
const trackedSearchers = 10_000;

/** Counts the searches of sites' public keys: `ratePerMinute` per address and site. */
export function publicSearchCounter(ratePerMinute: number): TakeSearches {
  const searchLimit = new RateLimiter(ratePerMinute, 60_000, trackedSearchers);
  return (key, queries, answer) => {
    const limited = searchLimit.take(key, Date.now(), queries);
    if (limited.ok) return;
    const seconds = Math.ceil(limited.retryAfterMs / 1000);
    answer.header('Retry-After', String(seconds));
    throw tooManySearchRequests(searchLimit.max, seconds);
  };
}

/** Each site's search rules as last parsed, for one config object (the site as of its content stamp) and one second. */
const parsedRules = new WeakMap<SiteSearchScope, { second: number; rules: SiteBaseFilter }>();

export function siteRulesAt(site: SiteSearchScope, second: number): SiteBaseFilter {
  const kept = parsedRules.get(site);
  if (kept?.second === second) return kept.rules;
  const rules = siteBaseFilter(site, second);
  parsedRules.set(site, { second, rules });
  return rules;
}

/** A search's answer: its hits and whatever else the search asked for, all sent (the client reads fields this does not name). */
const searchResultSchema = z.looseObject({ hits: z.array(documentSchema), processingTimeMs: z.number() });
/** A multi-search's answer: each query's results, or one merged result when federated. */
const multiSearchSchema = z.union([
  z.object({ results: z.array(searchResultSchema.extend({ indexUid: z.string() })) }),
  searchResultSchema,
]);
const facetSearchSchema = z.object({
  facetHits: z.array(z.object({ value: z.string(), count: z.number() })),
  facetQuery: z.string().nullable(),
  processingTimeMs: z.number(),
});

/** What the search routes need of the `/meili` plugin: who called (its key was checked), and the count of a site key's searches. */
export type SearchCallers = { callerOf: (request: FastifyRequest) => Caller | undefined; takeSearches: TakeSearches };

/**
 * A multi-search by `caller` (its key checked, its first search counted), its body read as a JSON
 * object: Meilisearch's answer, or a MeiliError thrown (a 429's Retry-After given to `answer`).
 */
export type MultiSearch = (
  caller: Caller | undefined,
  body: Record<string, unknown>,
  answer: HeaderSink,
) => Promise<z.input<typeof multiSearchSchema>>;

/**
 * Search (`/multi-search`, federated or not, `/indexes/:uid/search` by POST or GET,
 * `/indexes/:uid/facet-search`): a site's search key, scoped to the site's listed stock whatever
 * the browser asks; or the search admin key, unscoped.
 */
export function meiliSearchRoutes(scope: FastifyInstance, ctx: PlatformContext, { callerOf, takeSearches }: SearchCallers): MultiSearch {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  /**
   * A request with a site's public key: the rest of its queries counted (the first was, before
   * the body was read), and its work bounded by the public budget before any of it runs.
   */
  function checkPublicRequest(
    caller: Caller | undefined,
    answer: HeaderSink,
    queries: readonly (SearchRequest & { index: EmbeddedIndex })[],
    federation: Federation | undefined,
    multi: boolean,
  ) {
    if (caller?.kind !== 'site') return;
    if (queries.length > 1) takeSearches(caller.limitKey, queries.length - 1, answer);
    checkSearchBudget(queries, federation, ctx.config.search.publicBudget, multi);
  }

  /** The filter the caller's searches run under: a site's rules, or none for the admin key. */
  async function baseFilterOf(caller: Caller | undefined): Promise<FilterNode | undefined> {
    if (!caller) throw invalidApiKey();
    if (caller.kind === 'admin') return undefined;
    // The site as it is now (a change of its rules applies to the next search), its config read only when it changed.
    const site = await ctx.sites.current(caller.siteId);
    if (!site) throw invalidApiKey();
    return siteRulesAt(site, Math.floor(Date.now() / 1000)).node;
  }

  /**
   * The index a search runs on. A site's key searches its cars and nothing else, as a tenant
   * token whose rules name only `cars` (checked first, so it learns nothing of other indexes).
   * A missing index is a 404 on its own route, a 400 inside a multi-search (as in Meilisearch).
   */
  function indexToSearch(caller: Caller | undefined, uid: string, notFoundStatus: 400 | 404): EmbeddedIndex {
    if (caller?.kind === 'site' && uid !== carsIndexUid) throw invalidApiKey();
    const index = ctx.search.index(uid);
    if (!index) throw new MeiliError('index_not_found', `Index \`${uid}\` not found.`, notFoundStatus);
    return index;
  }

  function runSearch(index: EmbeddedIndex, request: SearchRequest, base: FilterNode | undefined) {
    try {
      checkSearchAgainstIndex(index, request);
      return index.search(request.params, base);
    } catch (error) {
      throw namingIndex(index.uid, error);
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

  const multiSearch: MultiSearch = async (caller, body, answer) => {
    const base = await baseFilterOf(caller);
    const { queries, federation } = readMultiSearch(body);
    const indexes = queries.map((query, i) => within(`.queries[${i}]`, () => indexToSearch(caller, query.indexUid, 400)));
    checkPublicRequest(
      caller,
      answer,
      queries.map((query, i) => ({ ...query, index: indexes[i]! })),
      federation,
      true,
    );
    if (!federation) {
      let found = 0;
      const results = [];
      const between = eventLoopTurns(searchTurnMs);
      for (const [i, query] of queries.entries()) {
        // Other requests are answered between the queries once this one has held the event loop a while.
        if (i > 0) await between();
        const result = within(`.queries[${i}]`, () => ({ indexUid: query.indexUid, ...runSearch(indexes[i]!, query, base) }));
        checkHitsFound((found += result.hits.length), i);
        results.push(result);
      }
      return { results };
    }
    const federated = queries.map((query, i): FederatedQuery =>
      within(`.queries[${i}]`, () => {
        const index = indexes[i]!;
        checkSearchAgainstIndex(index, query);
        return { index, request: query, weight: query.federationOptions?.weight ?? 1 };
      }),
    );
    const facetIndexes = new Map(
      Object.keys(federation.facetsByIndex ?? {}).map((uid) => [
        uid,
        within(`.federation.facetsByIndex.${uid}`, () => indexToSearch(caller, uid, 400)),
      ]),
    );
    return federatedSearch(federated, federation, facetIndexes, base, eventLoopTurns(searchTurnMs));
  };

  app.post(
    '/meili/multi-search',
    { ...searchKey, schema: { body: objectOrEmptyBody, response: { 200: multiSearchSchema, ...refusals } } },
    async (request, reply) => cors(reply).send(await multiSearch(callerOf(request), request.body, reply)),
  );

  app.post(
    '/meili/indexes/:uid/search',
    { ...searchKey, schema: { params: indexParams, body: objectOrEmptyBody, response: { 200: searchResultSchema, ...refusals } } },
    async (request, reply) => {
      const caller = callerOf(request);
      const base = await baseFilterOf(caller);
      const index = indexToSearch(caller, request.params.uid, 404);
      const query = readSearchBody(request.body);
      checkPublicRequest(caller, reply, [{ ...query, index }], undefined, false);
      return cors(reply).send(runSearch(index, query, base));
    },
  );

  app.get(
    '/meili/indexes/:uid/search',
    { ...searchKey, schema: { params: indexParams, querystring: meiliQuery, response: { 200: searchResultSchema, ...refusals } } },
    async (request, reply) => {
      const caller = callerOf(request);
      const base = await baseFilterOf(caller);
      const index = indexToSearch(caller, request.params.uid, 404);
      const query = readSearchQuery(request.query);
      checkPublicRequest(caller, reply, [{ ...query, index }], undefined, false);
      return cors(reply).send(runSearch(index, query, base));
    },
  );

  app.post(
    '/meili/indexes/:uid/facet-search',
    { ...searchKey, schema: { params: indexParams, body: objectOrEmptyBody, response: { 200: facetSearchSchema, ...refusals } } },
    async (request, reply) => {
      const started = performance.now();
      const caller = callerOf(request);
      const base = await baseFilterOf(caller);
      const index = indexToSearch(caller, request.params.uid, 404);
      const facetSearch = readFacetSearch(request.body);
      checkPublicRequest(caller, reply, [{ ...facetSearch, index }], undefined, false);
      if (index.allSettings().facetSearch === false)
        throw new MeiliError('facet_search_disabled', 'The facet search is disabled for this index', 400);
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
        throw namingIndex(index.uid, error);
      }
      return cors(reply).send({ facetHits, facetQuery: facetSearch.facetQuery, processingTimeMs: Math.round(performance.now() - started) });
    },
  );

  return multiSearch;
}
