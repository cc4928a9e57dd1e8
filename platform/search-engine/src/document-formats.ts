import { MeiliError } from './search-errors';
import type { Doc } from './search-types';
import { jsonNestsDeeperThan } from './json-depth';

/*
 * The document payloads Meilisearch takes besides JSON: NDJSON (one object a line) and CSV
 * (RFC 4180, quotes and all, with its typed headers). Both read into the same documents a JSON
 * array would give, or fail the request with `malformed_payload` as Meilisearch does.
 */

export type DocumentFormat = 'json' | 'ndjson' | 'csv';

const malformed = (format: DocumentFormat, detail: string) =>
  new MeiliError('malformed_payload', `The \`${format}\` payload provided is malformed: \`${detail}\`.`, 400);
const notAnObject = (format: DocumentFormat) =>
  new MeiliError(
    'malformed_payload',
    `The \`${format}\` payload provided is malformed. \`Couldn't serialize document value: data are neither an object nor a list of objects\`.`,
    400,
  );

export const missingPayload = (format: DocumentFormat) => new MeiliError('missing_payload', `A ${format} payload is missing.`, 400);

const isDocument = (value: unknown): value is Doc => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON body already parsed: one document or an array of them. */
export function jsonDocuments(body: unknown): Doc[] {
  if (body === undefined) throw missingPayload('json');
  const docs = Array.isArray(body) ? body : [body];
  if (!docs.every(isDocument)) throw notAnObject('json');
  return docs;
}

/** Deepest nesting a document may have: deep enough for any real record, far from what overflows a recursive walk (the index walks documents to flatten nested fields). */
export const documentsMaxDepth = 256;

/** NDJSON: one JSON object per line; blank lines are skipped. */
export function ndjsonDocuments(text: string): Doc[] {
  if (text.trim() === '') throw missingPayload('ndjson');
  const docs: Doc[] = [];
  for (const [i, line] of text.split(/\r?\n/).entries()) {
    if (line.trim() === '') continue;
    if (jsonNestsDeeperThan(line, documentsMaxDepth)) {
      throw new MeiliError(
        'malformed_payload',
        `The \`ndjson\` payload provided is malformed: line ${i + 1} nests arrays or objects more than ${documentsMaxDepth} levels deep.`,
        400,
      );
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new MeiliError(
        'malformed_payload',
        `The \`ndjson\` payload provided is malformed. \`Couldn't serialize document value: ${(error as Error).message} at line ${i + 1}\`.`,
        400,
      );
    }
    if (!isDocument(value)) throw notAnObject('ndjson');
    docs.push(value);
  }
  return docs;
}

/** The records of a CSV text (RFC 4180: quoted fields may hold delimiters, line breaks and doubled quotes). Blank lines are skipped. */
export function csvRecords(text: string, delimiter: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  /** No character of the current field read yet: a quote here opens a quoted field. */
  let atFieldStart = true;
  /** The current record has begun (a blank line has not). */
  let begun = false;
  const endRecord = () => {
    if (begun) {
      record.push(field);
      records.push(record);
    }
    record = [];
    field = '';
    atFieldStart = true;
    begun = false;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch !== '"') field += ch;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (ch === delimiter) {
      record.push(field);
      field = '';
      atFieldStart = true;
      begun = true;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRecord();
    } else {
      if (ch === '"' && atFieldStart) quoted = true;
      else field += ch;
      atFieldStart = false;
      begun = true;
    }
  }
  endRecord();
  return records;
}

type CsvType = 'string' | 'boolean' | 'number';

/** `price:number` → price, a number; a header without a known type after its last colon is a string field named in full. */
function csvHeader(header: string): { name: string; type: CsvType } {
  const colon = header.lastIndexOf(':');
  const type = colon < 0 ? '' : header.slice(colon + 1);
  return type === 'string' || type === 'boolean' || type === 'number'
    ? { name: header.slice(0, colon), type }
    : { name: header, type: 'string' };
}

const decimal = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function csvValue(raw: string, type: CsvType, line: number): unknown {
  const trimmed = raw.trim();
  if (type === 'string') return raw === '' ? null : raw;
  if (trimmed === '') return null;
  if (type === 'boolean') {
    if (trimmed !== 'true' && trimmed !== 'false')
      throw malformed('csv', `Error parsing boolean ${JSON.stringify(raw)} at line ${line}: provided string was not \`true\` or \`false\``);
    return trimmed === 'true';
  }
  if (!decimal.test(trimmed)) throw malformed('csv', `Error parsing number ${JSON.stringify(raw)} at line ${line}: invalid float literal`);
  return Number(trimmed);
}

/** CSV with a header row, as Meilisearch reads it: typed headers, empty cells as null, every row as long as the header. */
export function csvDocuments(text: string, delimiter: string): Doc[] {
  if (text === '') throw missingPayload('csv');
  const [headerRow, ...rows] = csvRecords(text.replace(/^\uFEFF/, ''), delimiter);
  if (!headerRow) return [];
  const headers = headerRow.map(csvHeader);
  return rows.map((row, i) => {
    if (row.length !== headers.length) {
      throw malformed(
        'csv',
        `CSV error: record ${i + 1}: found record with ${row.length} fields, but the previous record has ${headers.length} fields`,
      );
    }
    const doc: Record<string, unknown> = {};
    headers.forEach((header, column) => {
      doc[header.name] = csvValue(row[column]!, header.type, i + 1);
    });
    return doc as Doc;
  });
}
