import { invalidType, isPlainObject, parsePositiveInteger, queryParameters } from './meili-values';
import { checkIndexUid } from './search-engine';
import { MeiliError } from './search-errors';

/* The indexes routes' requests as Meilisearch reads them: a page of indexes, a new index, an index's primary key. */

/** `GET /indexes`: the page asked for (20 from the first by default). */
export function readIndexesPage(query: unknown): { offset: number; limit: number } {
  const given = queryParameters(query, ['offset', 'limit']);
  const offset = given.has('offset') ? parsePositiveInteger(given.get('offset')!, 'offset', 'invalid_index_offset') : 0;
  const limit = given.has('limit') ? parsePositiveInteger(given.get('limit')!, 'limit', 'invalid_index_limit') : 20;
  return { offset, limit };
}

/** `POST /indexes`: `{ uid, primaryKey? }`, the uid one Meilisearch accepts. */
export function readIndexCreation(body: Record<string, unknown>): { uid: string; primaryKey: string | null } {
  for (const field of Object.keys(body)) {
    if (field !== 'uid' && field !== 'primaryKey')
      throw new MeiliError('bad_request', `Unknown field \`${field}\`: expected one of \`uid\`, \`primaryKey\``, 400);
  }
  if (body.uid === undefined) throw new MeiliError('missing_index_uid', 'Missing field `uid`', 400);
  if (typeof body.uid !== 'string') throw invalidType('invalid_index_uid', '.uid', 'a string', body.uid);
  checkIndexUid(body.uid);
  if (body.primaryKey !== undefined && body.primaryKey !== null && typeof body.primaryKey !== 'string') {
    throw invalidType('invalid_index_primary_key', '.primaryKey', 'a string', body.primaryKey);
  }
  return { uid: body.uid, primaryKey: (body.primaryKey as string | undefined) ?? null };
}

/** `PATCH /indexes/:uid`: `{ primaryKey }`, a string or null. */
export function readIndexUpdate(body: unknown): { primaryKey: string | null } {
  if (!isPlainObject(body) || (body.primaryKey !== undefined && body.primaryKey !== null && typeof body.primaryKey !== 'string')) {
    throw new MeiliError('invalid_index_primary_key', 'Invalid value type at `.primaryKey`: expected a string', 400);
  }
  return { primaryKey: (body.primaryKey as string | undefined) ?? null };
}
