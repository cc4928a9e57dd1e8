import { checkIndexUid } from './search-engine';
import type { EmbeddedIndex } from './embedded-index';
import { isFilterableBy } from './filter-evaluator';
import { MeiliError } from './search-errors';
import type { MatchingStrategy, SearchParams } from './search-types';
import {
  invalidType,
  isPlainObject,
  parseBoolean,
  parseList,
  parseNumber,
  parseOneOf,
  parsePositiveInteger,
  queryParameters,
  readBoolean,
  readList,
  readNumber,
  readObject,
  readOneOf,
  readPositiveInteger,
  readString,
  readStrings,
  readUnitInterval,
  invalidValue,
  type Field,
  type Read,
} from './meili-values';

/*
 * A search request as Meilisearch reads it: every documented parameter, in the order Meilisearch
 * lists them, with the type it takes and the error code a wrong value gets. Anything else is a
 * 400 `bad_request` naming the parameters it knows.
 */

export const matchingStrategies: readonly MatchingStrategy[] = ['last', 'all', 'frequency'];

export type Hybrid = { embedder: string; semanticRatio?: number };
/** A search as read: what the engine runs, and the vector parameters checked against the index. */
export type SearchRequest = { params: SearchParams; vector?: number[]; hybrid?: Hybrid };

/** The `filter` parameter: a string, or an array of strings and arrays of strings (outer AND, inner OR). */
export const readFilter: Read<SearchParams['filter']> = (value, _path, code) => {
  const syntax = (expected: string, found: unknown) =>
    new MeiliError(code, `Invalid syntax for the filter parameter: \`expected ${expected}, found: ${JSON.stringify(found)}\`.`, 400);
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) throw syntax('String, Array', value);
  for (const item of value) {
    if (Array.isArray(item)) {
      const wrong = item.find((inner) => typeof inner !== 'string');
      if (wrong !== undefined) throw syntax('String', wrong);
    } else if (typeof item !== 'string') throw syntax('String, [String]', item);
  }
  return value as (string | string[])[];
};

/**
 * Highlight tags and the crop marker go round every match of every hit, so a long one makes the
 * answer balloon; no real tag comes near this many characters.
 */
const maxTagLength = 256;

/** Whether a text has more than `max` characters (code points), counted only when it could. */
function longerThan(text: string, max: number): boolean {
  if (text.length <= max) return false;
  if (text.length > 2 * max) return true;
  let count = 0;
  for (const _character of text) if (++count > max) return true;
  return false;
}

const tooLongTag = (name: string) => `the value of \`${name}\` is invalid, expected a string of at most ${maxTagLength} characters.`;

/** `highlightPreTag`, `highlightPostTag` and `cropMarker`: strings of at most maxTagLength characters. */
const readTag: Read<string> = (value, path, code) => {
  const text = readString(value, path, code);
  if (longerThan(text, maxTagLength)) throw invalidValue(code, path, tooLongTag(path.slice(path.lastIndexOf('.') + 1)));
  return text;
};

/**
 * Attributes (or sort rules) one list parameter may name. Meilisearch sets no number, but every
 * one costs work on every hit; the cars index has half as many attributes.
 */
const maxListItems = 100;

const tooManyItems = (count: number) => `expected at most ${maxListItems} items, but found ${count}.`;

/** A list of attribute names or sort rules, of at most maxListItems. */
const readNames: Read<string[]> = (value, path, code) => {
  if (Array.isArray(value) && value.length > maxListItems) throw invalidValue(code, path, tooManyItems(value.length));
  return readStrings(value, path, code);
};

const hybridFields: Field[] = [
  { name: 'semanticRatio', code: 'invalid_search_semantic_ratio', read: readUnitInterval },
  { name: 'embedder', code: 'invalid_search_embedder', read: readString, required: { code: 'invalid_search_hybrid_query' } },
];
const readHybrid: Read<Hybrid> = (value, path, code) => readObject(value, hybridFields, path, code) as Hybrid;

/** Every search parameter of `POST /indexes/{uid}/search`, in Meilisearch's order. */
const searchFields: Field[] = [
  { name: 'q', code: 'invalid_search_q', read: readString, nullable: true },
  { name: 'vector', code: 'invalid_search_vector', read: readList(readNumber), nullable: true },
  { name: 'hybrid', code: 'invalid_search_hybrid_query', read: readHybrid, nullable: true },
  { name: 'offset', code: 'invalid_search_offset', read: readPositiveInteger },
  { name: 'limit', code: 'invalid_search_limit', read: readPositiveInteger },
  { name: 'page', code: 'invalid_search_page', read: readPositiveInteger, nullable: true },
  { name: 'hitsPerPage', code: 'invalid_search_hits_per_page', read: readPositiveInteger, nullable: true },
  { name: 'attributesToRetrieve', code: 'invalid_search_attributes_to_retrieve', read: readNames, nullable: true },
  { name: 'retrieveVectors', code: 'invalid_search_retrieve_vectors', read: readBoolean },
  { name: 'attributesToCrop', code: 'invalid_search_attributes_to_crop', read: readNames, nullable: true },
  { name: 'cropLength', code: 'invalid_search_crop_length', read: readPositiveInteger },
  { name: 'cropMarker', code: 'invalid_search_crop_marker', read: readTag },
  { name: 'attributesToHighlight', code: 'invalid_search_attributes_to_highlight', read: readNames, nullable: true },
  { name: 'highlightPreTag', code: 'invalid_search_highlight_pre_tag', read: readTag },
  { name: 'highlightPostTag', code: 'invalid_search_highlight_post_tag', read: readTag },
  { name: 'showMatchesPosition', code: 'invalid_search_show_matches_position', read: readBoolean },
  { name: 'showRankingScore', code: 'invalid_search_show_ranking_score', read: readBoolean },
  { name: 'showRankingScoreDetails', code: 'invalid_search_show_ranking_score_details', read: readBoolean },
  { name: 'filter', code: 'invalid_search_filter', read: readFilter, nullable: true },
  { name: 'sort', code: 'invalid_search_sort', read: readNames, nullable: true },
  { name: 'distinct', code: 'invalid_search_distinct', read: readString, nullable: true },
  { name: 'facets', code: 'invalid_search_facets', read: readNames, nullable: true },
  { name: 'matchingStrategy', code: 'invalid_search_matching_strategy', read: readOneOf(matchingStrategies) },
  { name: 'attributesToSearchOn', code: 'invalid_search_attributes_to_search_on', read: readNames, nullable: true },
  { name: 'rankingScoreThreshold', code: 'invalid_search_ranking_score_threshold', read: readUnitInterval, nullable: true },
  { name: 'locales', code: 'invalid_search_locales', read: readStrings, nullable: true },
];

/** What a read body gives the engine; the vector parameters stay beside it, for the index checks. */
function searchRequestOf(read: Record<string, unknown>): SearchRequest {
  const { vector, hybrid, retrieveVectors: _noVectorsStored, locales: _oneTokenizerForAll, ...params } = read;
  return {
    params: params as SearchParams,
    ...(vector ? { vector: vector as number[] } : {}),
    ...(hybrid ? { hybrid: hybrid as Hybrid } : {}),
  };
}

/** `POST /indexes/{uid}/search`: the body. */
export function readSearchBody(body: unknown): SearchRequest {
  return searchRequestOf(readObject(body ?? {}, searchFields, '', 'bad_request'));
}

// ---------------------------------------------------------------------------------------------
// GET /indexes/{uid}/search
// ---------------------------------------------------------------------------------------------

type QueryKind =
  'string' | 'tag' | 'integer' | 'boolean' | 'number' | 'list' | 'names' | 'filter' | 'sort' | 'matchingStrategy' | 'threshold';
/** The query-string parameters, in Meilisearch's order; `hybridEmbedder`/`hybridSemanticRatio` make up `hybrid`. */
const queryFields: { name: string; kind: QueryKind; code: string }[] = [
  { name: 'q', kind: 'string', code: 'invalid_search_q' },
  { name: 'vector', kind: 'list', code: 'invalid_search_vector' },
  { name: 'offset', kind: 'integer', code: 'invalid_search_offset' },
  { name: 'limit', kind: 'integer', code: 'invalid_search_limit' },
  { name: 'page', kind: 'integer', code: 'invalid_search_page' },
  { name: 'hitsPerPage', kind: 'integer', code: 'invalid_search_hits_per_page' },
  { name: 'attributesToRetrieve', kind: 'names', code: 'invalid_search_attributes_to_retrieve' },
  { name: 'retrieveVectors', kind: 'boolean', code: 'invalid_search_retrieve_vectors' },
  { name: 'attributesToCrop', kind: 'names', code: 'invalid_search_attributes_to_crop' },
  { name: 'cropLength', kind: 'integer', code: 'invalid_search_crop_length' },
  { name: 'cropMarker', kind: 'tag', code: 'invalid_search_crop_marker' },
  { name: 'attributesToHighlight', kind: 'names', code: 'invalid_search_attributes_to_highlight' },
  { name: 'filter', kind: 'filter', code: 'invalid_search_filter' },
  { name: 'sort', kind: 'sort', code: 'invalid_search_sort' },
  { name: 'distinct', kind: 'string', code: 'invalid_search_distinct' },
  { name: 'showMatchesPosition', kind: 'boolean', code: 'invalid_search_show_matches_position' },
  { name: 'showRankingScore', kind: 'boolean', code: 'invalid_search_show_ranking_score' },
  { name: 'showRankingScoreDetails', kind: 'boolean', code: 'invalid_search_show_ranking_score_details' },
  { name: 'facets', kind: 'names', code: 'invalid_search_facets' },
  { name: 'highlightPreTag', kind: 'tag', code: 'invalid_search_highlight_pre_tag' },
  { name: 'highlightPostTag', kind: 'tag', code: 'invalid_search_highlight_post_tag' },
  { name: 'matchingStrategy', kind: 'matchingStrategy', code: 'invalid_search_matching_strategy' },
  { name: 'attributesToSearchOn', kind: 'names', code: 'invalid_search_attributes_to_search_on' },
  { name: 'hybridEmbedder', kind: 'string', code: 'invalid_search_embedder' },
  { name: 'hybridSemanticRatio', kind: 'threshold', code: 'invalid_search_semantic_ratio' },
  { name: 'rankingScoreThreshold', kind: 'threshold', code: 'invalid_search_ranking_score_threshold' },
  { name: 'locales', kind: 'list', code: 'invalid_search_locales' },
];
const queryFieldNames = queryFields.map((field) => field.name);

/** Sort rules split on commas, except those inside `_geoPoint(lat, lng)`. */
const sortRules = (text: string): string[] =>
  text
    .match(/(?:_geoPoint\([^)]*\)|[^,])+/g)
    ?.map((rule) => rule.trim())
    .filter(Boolean) ?? [];

function atMostListItems(items: string[], name: string, code: string): string[] {
  if (items.length > maxListItems) throw new MeiliError(code, `Invalid value in parameter \`${name}\`: ${tooManyItems(items.length)}`, 400);
  return items;
}

function queryValue(kind: QueryKind, text: string, name: string, code: string): unknown {
  switch (kind) {
    case 'string':
      return text;
    case 'tag':
      if (longerThan(text, maxTagLength)) throw new MeiliError(code, `Invalid value in parameter \`${name}\`: ${tooLongTag(name)}`, 400);
      return text;
    case 'integer':
      return parsePositiveInteger(text, name, code);
    case 'boolean':
      return parseBoolean(text, name, code);
    case 'number':
      return parseNumber(text, name, code);
    case 'threshold': {
      const number = parseNumber(text, name, code);
      if (number < 0 || number > 1) {
        throw new MeiliError(
          code,
          `Invalid value in parameter \`${name}\`: the value of \`${name}\` is invalid, expected a float between \`0.0\` and \`1.0\`.`,
          400,
        );
      }
      return number;
    }
    case 'list':
      return name === 'vector' ? parseList(text).map((item, i) => parseNumber(item, `${name}[${i}]`, code)) : parseList(text);
    case 'names':
      return atMostListItems(parseList(text), name, code);
    case 'sort':
      return atMostListItems(sortRules(text), name, code);
    case 'matchingStrategy':
      return parseOneOf(text, name, code, matchingStrategies);
    case 'filter':
      // As Meilisearch: a filter that reads as JSON (an array form) is taken as that JSON.
      try {
        return readFilter(JSON.parse(text), '.filter', code);
      } catch (error) {
        if (error instanceof SyntaxError) return text;
        throw error;
      }
  }
}

/** `GET /indexes/{uid}/search`: lists comma-separated, booleans `true`/`false`, numbers as text. */
export function readSearchQuery(query: unknown): SearchRequest {
  const given = queryParameters(query, queryFieldNames);
  const read: Record<string, unknown> = {};
  for (const field of queryFields) {
    const text = given.get(field.name);
    if (text !== undefined) read[field.name] = queryValue(field.kind, text, field.name, field.code);
  }
  const { hybridEmbedder, hybridSemanticRatio, ...rest } = read;
  if (hybridEmbedder !== undefined || hybridSemanticRatio !== undefined) {
    if (hybridEmbedder === undefined) throw new MeiliError('invalid_search_hybrid_query', 'Missing field `hybridEmbedder`', 400);
    rest.hybrid = { embedder: hybridEmbedder, ...(hybridSemanticRatio !== undefined ? { semanticRatio: hybridSemanticRatio } : {}) };
  }
  return searchRequestOf(rest);
}

// ---------------------------------------------------------------------------------------------
// Multi-search and federation
// ---------------------------------------------------------------------------------------------

export type FederationOptions = { weight: number };
export type MultiSearchQuery = SearchRequest & { indexUid: string; federationOptions?: FederationOptions };
export type Federation = {
  limit: number;
  offset: number;
  facetsByIndex?: Record<string, string[] | null>;
  mergeFacets?: { maxValuesPerFacet?: number };
};
export type MultiSearch = { queries: MultiSearchQuery[]; federation?: Federation };

const readIndexUid: Read<string> = (value, path, code) => {
  const uid = readString(value, path, code);
  try {
    checkIndexUid(uid);
  } catch (error) {
    if (error instanceof MeiliError) throw invalidValue(error.code, path, error.message);
    throw error;
  }
  return uid;
};

const readWeight: Read<number> = (value, path, code) => {
  const weight = readNumber(value, path, code);
  if (weight < 0) throw invalidValue(code, path, 'the value of `weight` is invalid, expected a positive float (>= 0.0).');
  return weight;
};

const federationOptionFields: Field[] = [
  { name: 'weight', code: 'invalid_multi_search_weight', read: readWeight },
  { name: 'remote', code: 'invalid_multi_search_remote', read: readString, nullable: true },
  { name: 'queryPosition', code: 'invalid_multi_search_query_position', read: readPositiveInteger, nullable: true },
];

/** Remotes and query positions belong to Meilisearch's `network` feature, which this engine does not have. */
const networkOnly = (action: string) =>
  new MeiliError(
    'feature_not_enabled',
    `${action} requires enabling the \`network\` experimental feature. See https://github.com/orgs/meilisearch/discussions/805`,
    400,
  );

const readFederationOptions: Read<FederationOptions> = (value, path, code) => {
  const read = readObject(value, federationOptionFields, path, code);
  if (read.remote !== undefined) throw networkOnly('Performing a remote federated search');
  if (read.queryPosition !== undefined) throw networkOnly('Using `federationOptions.queryPosition`');
  return { weight: (read.weight as number | undefined) ?? 1 };
};

const multiSearchQueryFields: Field[] = [
  { name: 'indexUid', code: 'invalid_index_uid', read: readIndexUid, required: { code: 'missing_index_uid' } },
  ...searchFields,
  { name: 'federationOptions', code: 'invalid_multi_search_federation_options', read: readFederationOptions, nullable: true },
];

const readMultiSearchQuery: Read<MultiSearchQuery> = (value, path) => {
  const { indexUid, federationOptions, ...rest } = readObject(value, multiSearchQueryFields, path, 'bad_request');
  return {
    indexUid: indexUid as string,
    ...searchRequestOf(rest),
    ...(federationOptions ? { federationOptions: federationOptions as FederationOptions } : {}),
  };
};

const readFacetsByIndex: Read<Record<string, string[] | null>> = (value, path, code) => {
  if (!isPlainObject(value)) throw invalidType(code, path, 'an object', value);
  return Object.fromEntries(
    Object.entries(value).map(([uid, facets]) => {
      readIndexUid(uid, `${path}.${uid}`, code);
      return [uid, facets === null ? null : readNames(facets, `${path}.${uid}`, code)];
    }),
  );
};

const mergeFacetsFields: Field[] = [
  { name: 'maxValuesPerFacet', code: 'invalid_multi_search_max_values_per_facet', read: readPositiveInteger, nullable: true },
];

const federationFields: Field[] = [
  { name: 'limit', code: 'invalid_search_limit', read: readPositiveInteger },
  { name: 'offset', code: 'invalid_search_offset', read: readPositiveInteger },
  { name: 'facetsByIndex', code: 'invalid_multi_search_facets_by_index', read: readFacetsByIndex },
  {
    name: 'mergeFacets',
    code: 'invalid_multi_search_merge_facets',
    read: (value, path, code) => readObject(value, mergeFacetsFields, path, code),
    nullable: true,
  },
];

const readFederation: Read<Federation> = (value, path, code) => {
  const read = readObject(value, federationFields, path, code);
  return { limit: 20, offset: 0, ...read } as Federation;
};

/**
 * Queries one multi-search may hold. Meilisearch sets none, but each is a whole search with its
 * facets; the search page sends one plus one per facet it shows (some 13 to 30).
 */
const maxMultiSearchQueries = 100;

/** The queries, counted before any is read. */
const readQueries: Read<MultiSearchQuery[]> = (value, path, code) => {
  if (Array.isArray(value) && value.length > maxMultiSearchQueries) {
    throw invalidValue(
      code,
      path,
      `a multi-search holds at most ${maxMultiSearchQueries} queries, but ${value.length} were sent. Send the others in another request.`,
    );
  }
  return readList(readMultiSearchQuery)(value, path, code);
};

const multiSearchFields: Field[] = [
  { name: 'queries', code: 'bad_request', read: readQueries, required: { code: 'bad_request' } },
  { name: 'federation', code: 'bad_request', read: readFederation, nullable: true },
];

const paginationFields = ['offset', 'limit', 'page', 'hitsPerPage'] as const;

/**
 * Hits one multi-search may return in all: as many as one search of the cars index may return
 * (its `maxTotalHits`), so a multi-search costs no more than the largest search, however its
 * queries share them out. Meilisearch sets no such bound; the search page asks for a page of
 * hits plus one per facet. A plain multi-search counts the hits its queries find (a `limit`
 * past what an index holds costs nothing); a federated one fetches `offset` + `limit` hits per
 * query before merging, so it is counted before it runs.
 */
export const maxMultiSearchHits = 5000;

const tooManyHits = (how: string) =>
  invalidValue(
    'bad_request',
    '.queries',
    `a multi-search returns at most ${maxMultiSearchHits} hits in all, but ${how}. Ask for fewer, or send the queries in several requests.`,
  );

/** Refuses a plain multi-search whose queries have found more than maxMultiSearchHits, once query `upTo` has run. */
export function checkHitsFound(found: number, upTo: number) {
  if (found > maxMultiSearchHits) throw tooManyHits(`its queries up to \`.queries[${upTo}]\` found ${found} hits`);
}

/** Refuses a federated multi-search that would fetch more than maxMultiSearchHits. */
function checkFederatedHitsAsked({ queries, federation }: MultiSearch) {
  if (!federation) return;
  const each = federation.offset + federation.limit;
  if (queries.length * each <= maxMultiSearchHits) return;
  throw tooManyHits(`its ${queries.length} federated queries each fetch \`federation.offset\` + \`federation.limit\` = ${each} hits`);
}

/** `POST /multi-search`: the queries, and the federation that merges them when given. */
export function readMultiSearch(body: unknown): MultiSearch {
  const read = readObject(body ?? {}, multiSearchFields, '', 'bad_request') as MultiSearch;
  read.queries.forEach((query, i) => {
    if (!read.federation) {
      if (query.federationOptions) {
        throw new MeiliError(
          'invalid_multi_search_federation_options',
          `Inside \`.queries[${i}]\`: Using \`federationOptions\` is not allowed in a non-federated search.\n - Hint: remove \`federationOptions\` from query #${i} or add \`federation\` to the request.`,
          400,
        );
      }
      return;
    }
    const pagination = paginationFields.find((name) => query.params[name] !== undefined);
    if (pagination) {
      throw new MeiliError(
        'invalid_multi_search_query_pagination',
        `Inside \`.queries[${i}]\`: Using pagination options is not allowed in federated queries.\n - Hint: remove \`${pagination}\` from query #${i} or remove \`federation\` from the request\n - Hint: pass \`federation.limit\` and \`federation.offset\` for pagination in federated search`,
        400,
      );
    }
    if (query.params.facets?.length) {
      throw new MeiliError(
        'invalid_multi_search_query_facets',
        `Inside \`.queries[${i}]\`: Using facet options is not allowed in federated queries.\n - Hint: remove \`facets\` from query #${i} or remove \`federation\` from the request\n - Hint: pass \`federation.facetsByIndex.${query.indexUid}: ${JSON.stringify(query.params.facets)}\` for facets in federated search`,
        400,
      );
    }
  });
  checkFederatedHitsAsked(read);
  return read;
}

// ---------------------------------------------------------------------------------------------
// Facet search
// ---------------------------------------------------------------------------------------------

export type FacetSearchRequest = SearchRequest & { facetName: string; facetQuery: string | null };

/** Facet search takes these and, as Meilisearch does, leaves any other field alone. */
const facetSearchFields: Field[] = [
  { name: 'facetQuery', code: 'invalid_facet_search_facet_query', read: readString, nullable: true },
  { name: 'facetName', code: 'invalid_facet_search_facet_name', read: readString, required: { code: 'missing_facet_search_facet_name' } },
  { name: 'q', code: 'invalid_search_q', read: readString, nullable: true },
  { name: 'vector', code: 'invalid_search_vector', read: readList(readNumber), nullable: true },
  { name: 'hybrid', code: 'invalid_search_hybrid_query', read: readHybrid, nullable: true },
  { name: 'filter', code: 'invalid_search_filter', read: readFilter, nullable: true },
  { name: 'matchingStrategy', code: 'invalid_search_matching_strategy', read: readOneOf(matchingStrategies) },
  { name: 'attributesToSearchOn', code: 'invalid_search_attributes_to_search_on', read: readNames, nullable: true },
  { name: 'rankingScoreThreshold', code: 'invalid_search_ranking_score_threshold', read: readUnitInterval, nullable: true },
  { name: 'locales', code: 'invalid_search_locales', read: readStrings, nullable: true },
  { name: 'exhaustiveFacetCount', code: 'invalid_facet_search_exhaustive_facet_count', read: readBoolean, nullable: true },
];

/** `POST /indexes/{uid}/facet-search`. */
export function readFacetSearch(body: unknown): FacetSearchRequest {
  const {
    facetName,
    facetQuery,
    exhaustiveFacetCount: _alwaysExhaustive,
    ...rest
  } = readObject(body ?? {}, facetSearchFields, '', 'bad_request', null);
  return { facetName: facetName as string, facetQuery: (facetQuery as string | undefined) ?? null, ...searchRequestOf(rest) };
}

// ---------------------------------------------------------------------------------------------
// What only the index can tell
// ---------------------------------------------------------------------------------------------

const sortedList = (names: readonly string[]) => [...names].sort().join(', ');

/**
 * The checks Meilisearch makes against the index's settings before it searches that the engine
 * does not: a distinct attribute must be filterable, or nested in one that is (`doggos.name`);
 * and, as this engine keeps no vectors, a vector or hybrid search names an embedder it cannot find.
 */
export function checkSearchAgainstIndex(index: EmbeddedIndex, request: SearchRequest) {
  const { filterableAttributes } = index.settings;
  const distinct = request.params.distinct;
  if (distinct !== undefined && distinct !== null && !isFilterableBy(distinct, filterableAttributes)) {
    const available = filterableAttributes.length
      ? `Available filterable attributes patterns are: \`${sortedList(filterableAttributes)}\`.`
      : 'This index does not have configured filterable attributes.';
    throw new MeiliError(
      'invalid_search_distinct',
      `Attribute \`${distinct}\` is not filterable and thus, cannot be used as distinct attribute. ${available}`,
      400,
    );
  }
  if (request.hybrid)
    throw new MeiliError('invalid_search_embedder', `Cannot find embedder with name \`${request.hybrid.embedder}\`.`, 400);
  if (request.vector)
    throw new MeiliError('missing_search_hybrid', 'Invalid request: missing `hybrid` parameter when `vector` is present.', 400);
}
