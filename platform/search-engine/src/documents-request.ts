import { csvDocuments, jsonDocuments, ndjsonDocuments } from './document-formats';
import { FilterSyntaxError, parseFilter } from './filter-parser';
import {
  invalidType,
  parseBoolean,
  parseList,
  parsePositiveInteger,
  queryParameters,
  readBoolean,
  readList,
  readObject,
  readPositiveInteger,
  readStrings,
  type Field,
  type Read,
} from './meili-values';
import { invalidContentType, missingContentType } from './request-errors';
import { MeiliError } from './search-errors';
import type { Doc, SearchParams } from './search-types';
import { readFilter } from './search-request';

/*
 * The documents routes' requests as Meilisearch reads them: which documents to list, fetch or
 * delete, and the documents an addition sends as JSON, NDJSON or CSV.
 */

/** The Content-Types a documents addition may send. */
export const documentContentTypes = ['application/json', 'application/x-ndjson', 'text/csv'];

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

/** Which documents to list, and which of their fields to show. */
export type DocumentsQuery = { offset?: number; limit?: number; fields?: string[]; ids?: string[]; filter?: SearchParams['filter'] };

/** `GET /documents`: the same as `POST /documents/fetch`, in a query string. */
export function readDocumentsQuery(query: unknown): DocumentsQuery {
  const given = queryParameters(
    query,
    fetchFields.map((field) => field.name),
  );
  const read: DocumentsQuery = {};
  if (given.has('offset')) read.offset = parsePositiveInteger(given.get('offset')!, 'offset', 'invalid_document_offset');
  if (given.has('limit')) read.limit = parsePositiveInteger(given.get('limit')!, 'limit', 'invalid_document_limit');
  if (given.has('fields')) read.fields = parseList(given.get('fields')!);
  if (given.has('retrieveVectors')) parseBoolean(given.get('retrieveVectors')!, 'retrieveVectors', 'invalid_document_retrieve_vectors');
  if (given.has('ids')) read.ids = parseList(given.get('ids')!);
  if (given.has('filter')) read.filter = readDocumentFilter(given.get('filter')!, '', 'invalid_document_filter');
  return read;
}

/** `POST /documents/fetch`: a JSON object (none at all being `{}`). */
export const readDocumentsFetch = (body: Record<string, unknown>) => readObject(body, fetchFields, '', 'bad_request') as DocumentsQuery;

/** `GET /documents/:id`: the fields to show (none: all). */
export function readDocumentQuery(query: unknown): { fields?: string[] } {
  const given = queryParameters(query, ['fields', 'retrieveVectors']);
  if (given.has('retrieveVectors')) parseBoolean(given.get('retrieveVectors')!, 'retrieveVectors', 'invalid_document_retrieve_vectors');
  return given.has('fields') ? { fields: parseList(given.get('fields')!) } : {};
}

/** `POST /documents/delete`: the filter of the documents to delete, which it must have. */
export function readDocumentsDeletion(body: Record<string, unknown>): SearchParams['filter'] {
  const { filter } = readObject(
    body,
    [{ name: 'filter', code: 'invalid_document_filter', read: readDocumentFilter, required: { code: 'missing_document_filter' } }],
    '',
    'bad_request',
  );
  return filter as SearchParams['filter'];
}

/** `POST /documents/delete-batch`: the ids of the documents to delete. */
export function readDocumentIdList(ids: unknown): (string | number)[] {
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string' || typeof id === 'number'))
    throw invalidType('bad_request', '', 'an array of document ids', ids ?? null);
  return ids as (string | number)[];
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
  if (text.charCodeAt(0) > 127)
    throw new MeiliError(
      'invalid_document_csv_delimiter',
      `Invalid value in parameter \`csvDelimiter\`: csv delimiter must be an ascii character. Found: \`${text}\``,
      400,
    );
  return text;
}

/**
 * An addition's request: its query string, the media type of its Content-Type (undefined when it
 * has none Meilisearch reads), the header as sent, and its body (parsed JSON, or NDJSON or CSV text).
 */
export type DocumentsPayload = { query: unknown; mediaType: string | undefined; contentType: string | undefined; body: unknown };

/** The documents of an addition, in whichever of Meilisearch's formats the request says it sends. */
export function readDocumentsPayload({ query, mediaType, contentType, body }: DocumentsPayload): {
  docs: Doc[];
  primaryKey: string | null;
} {
  const given = queryParameters(query, ['primaryKey', 'csvDelimiter']);
  if (mediaType === undefined || !documentContentTypes.includes(mediaType))
    throw contentType === undefined ? missingContentType(documentContentTypes) : invalidContentType(contentType, documentContentTypes);
  const delimiter = given.has('csvDelimiter') ? csvDelimiter(given.get('csvDelimiter')!) : undefined;
  if (delimiter !== undefined && mediaType !== 'text/csv') {
    throw new MeiliError(
      'invalid_content_type',
      `The Content-Type \`${mediaType}\` does not support the use of a csv delimiter. The csv delimiter can only be used with the Content-Type \`text/csv\`.`,
      415,
    );
  }
  const text = (body as string | undefined) ?? '';
  const docs =
    mediaType === 'text/csv'
      ? csvDocuments(text, delimiter ?? ',')
      : mediaType === 'application/x-ndjson'
        ? ndjsonDocuments(text)
        : jsonDocuments(body);
  return { docs, primaryKey: given.get('primaryKey') || null };
}
