import { MeiliError } from './search-errors';

/*
 * Meilisearch's refusals of a request as a whole, before or besides its values: the API key, the
 * search rate, the Content-Type, a payload it cannot read, a route it does not have. Worded and
 * coded as Meilisearch words them, so the official client raises the same errors.
 */

export const invalidApiKey = () => new MeiliError('invalid_api_key', 'The provided API key is invalid.', 403, 'auth');

export const missingAuthorizationHeader = () =>
  new MeiliError(
    'missing_authorization_header',
    'The Authorization header is missing. It must use the bearer authorization method.',
    401,
    'auth',
  );

/**
 * Meilisearch's code for too many searches (its own is a 503 when its search queue is full); a
 * 429 here, as the limit is the caller's, not the server's.
 */
export const tooManySearchRequests = (perMinute: number, retryAfterSeconds: number) =>
  new MeiliError(
    'too_many_search_requests',
    `Too many search requests from your connection: at most ${perMinute} a minute. Retry after ${retryAfterSeconds}s.`,
    429,
    'system',
  );

const quotedTypes = (accepted: readonly string[]) => accepted.map((type) => `\`${type}\``).join(', ');

export const invalidContentType = (given: string, accepted: readonly string[]) =>
  new MeiliError(
    'invalid_content_type',
    `The Content-Type \`${given}\` is invalid. Accepted values for the Content-Type header are: ${quotedTypes(accepted)}`,
    415,
  );

export const missingContentType = (accepted: readonly string[]) =>
  new MeiliError(
    'missing_content_type',
    `A Content-Type header is missing. Accepted values for the Content-Type header are: ${quotedTypes(accepted)}`,
    415,
  );

/** JSON that does not parse (`detail` says why): a `malformed_payload` when it was documents, else a `bad_request`. */
export const malformedJson = (documents: boolean, detail: string) =>
  new MeiliError(documents ? 'malformed_payload' : 'bad_request', `The json payload provided is malformed. \`${detail}\`.`, 400);

/** JSON nested deeper than `limit` levels, refused before it is parsed. */
export const tooDeepJson = (documents: boolean, limit: number) =>
  new MeiliError(
    documents ? 'malformed_payload' : 'bad_request',
    `The json payload provided is malformed: it nests arrays or objects more than ${limit} levels deep.`,
    400,
  );

export const payloadTooLarge = (maxBytes: number) =>
  new MeiliError(
    'payload_too_large',
    `The provided payload reached the size limit. The maximum accepted payload size is ${maxBytes / 1024 / 1024} MiB.`,
    413,
  );

export const routeNotFound = (method: string, path: string) =>
  new MeiliError('not_found', `Route \`${method} ${path}\` does not exist.`, 404);

export const internalError = () => new MeiliError('internal', 'Something went wrong on our side. Please try again.', 500, 'internal');

/** Errors about one of the index's attributes that Meilisearch's engine raises, and its HTTP layer prefixes with the index. */
const indexAttributeErrors = new Set([
  'invalid_search_filter',
  'invalid_search_sort',
  'invalid_search_distinct',
  'invalid_search_attributes_to_search_on',
]);

/** `Index \`cars\`: Attribute \`vin\` is not sortable…`, as Meilisearch words an index's attribute errors (syntax errors stay bare). */
export function namingIndex(indexUid: string, error: unknown): unknown {
  if (!(error instanceof MeiliError) || !indexAttributeErrors.has(error.code) || !error.message.startsWith('Attribute `')) return error;
  return new MeiliError(error.code, `Index \`${indexUid}\`: ${error.message}`, error.status, error.type);
}
