/**
 * Reading an inventory feed's CSV (issue 24): the columns its header row names and each row's
 * values, numbered as a spreadsheet numbers them (the header is row 1). A row that cannot be read
 * is kept as its problem, so the rest of the feed still imports. Files that are not CSV (a
 * spreadsheet saved as .xlsx, a PDF, a picture) or that have no header row are refused whole.
 */
import { Readable } from 'node:stream';
import { parse, type CsvError } from 'csv-parse';

/** The largest feed read: an upload's body limit and a fetched feed's cap. */
export const feedMaxBytes = 20 * 1024 * 1024;

/** Why a file cannot be read as a feed at all, in the dealer's words. */
export class FeedFileRefused extends Error {}

export type FeedCsvRow = { row: number; cells: string[]; problem?: undefined } | { row: number; cells?: undefined; problem: string };
export type FeedCsv = { columns: string[]; rows: FeedCsvRow[] };

const refusals = {
  empty: 'The file is empty. Choose the CSV file of your stock.',
  notCsv: 'That file is not a CSV file. Save the spreadsheet as CSV (comma separated values) and upload that.',
  noHeader: 'The first row must name the columns (Stock No, Make, Model, Price…); this file has no header row.',
  oneColumn: 'The file has a single column: save it as CSV with its values separated by commas.',
  tooLarge: 'The file is larger than 20 MB.',
} as const;

/** Lets the event loop answer other requests now and then during a long feed. */
export const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Zip (an .xlsx or .numbers), PDF, a picture, or bytes no text has. */
function looksBinary(bytes: Buffer): boolean {
  const head = bytes.subarray(0, 8192);
  const starts = (text: string) => head.subarray(0, text.length).equals(Buffer.from(text, 'latin1'));
  return (
    starts('PK\x03\x04') || starts('%PDF') || starts('\xd0\xcf\x11\xe0') || starts('\x89PNG') || starts('\xff\xd8\xff') || head.includes(0)
  );
}

/** UTF-8 when it is (a byte order mark dropped), else Windows-1252, as Excel saves CSV on Windows. */
function decode(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** The separator the header row uses most: a comma, a semicolon (Excel in many locales) or a tab. */
function delimiterOf(text: string): string {
  const end = text.search(/\r?\n/);
  const header = end === -1 ? text : text.slice(0, end);
  const counts = [',', ';', '\t'].map((char) => [char, header.split(char).length - 1] as const);
  const [best] = counts.reduce((top, one) => (one[1] > top[1] ? one : top));
  return best;
}

/** A header cell that is a car's value rather than a column's name: a number, a price, an address. */
const looksLikeValue = (cell: string) => /^[-$€£\d.,\s]+$/.test(cell) || /^https?:\/\//i.test(cell);

/** Names blank columns by their place and repeated names by their count, so each column can be chosen. */
function columnNames(header: string[]): string[] {
  const seen = new Map<string, number>();
  return header.map((cell, index) => {
    const name = cell.trim() || `Column ${index + 1}`;
    const times = (seen.get(name.toLowerCase()) ?? 0) + 1;
    seen.set(name.toLowerCase(), times);
    return times === 1 ? name : `${name} (${times})`;
  });
}

/** Text in pieces, so the parser (and the event loop) takes a large feed a part at a time. */
function* pieces(text: string, size = 64 * 1024) {
  for (let start = 0; start < text.length; start += size) yield text.slice(start, start + size);
}

const skipped = (error: CsvError | undefined) =>
  error?.code === 'CSV_QUOTE_NOT_CLOSED'
    ? 'a quote (") opens a value that never closes, so this row and the ones after it could not be read'
    : error?.code === 'CSV_MAX_RECORD_SIZE'
      ? 'the row is too long to be a car (a quote may be missing)'
      : `the row could not be read (${error?.message ?? 'unknown problem'})`;

/**
 * The feed's columns and rows. Blank rows are left out (their numbers still count); a row with more
 * values than the header has columns is a problem (a comma inside a value without quotes), one with
 * fewer is read with the missing ones blank. Every row read has a value for each column.
 */
export async function readFeedCsv(bytes: Buffer): Promise<FeedCsv> {
  if (bytes.length === 0) throw new FeedFileRefused(refusals.empty);
  if (bytes.length > feedMaxBytes) throw new FeedFileRefused(refusals.tooLarge);
  if (looksBinary(bytes)) throw new FeedFileRefused(refusals.notCsv);
  const text = decode(bytes).replace(/^\ufeff/, '');
  if (!text.trim()) throw new FeedFileRefused(refusals.empty);
  const problems: FeedCsvRow[] = [];
  const parser = Readable.from(pieces(text)).pipe(
    parse({
      delimiter: delimiterOf(text),
      relax_column_count: true,
      relax_quotes: true,
      skip_records_with_error: true,
      // The row numbers where each record ends, counted as the parser reads (it runs ahead of this loop).
      info: true,
      on_skip: (error) => {
        const row = Number(error?.records ?? 0) + 1;
        problems.push({ row, problem: `Row ${row}: ${skipped(error)}.` });
        return undefined;
      },
    }),
  );
  let columns: string[] | null = null;
  const rows: FeedCsvRow[] = [];
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { records: number } }>) {
    const count = info.records;
    if (count % 500 === 0) await breathe();
    if (columns === null) {
      const header = record.map((cell) => cell.trim());
      if (header.every((cell) => !cell) || header.some(looksLikeValue)) throw new FeedFileRefused(refusals.noHeader);
      if (header.length < 2) throw new FeedFileRefused(refusals.oneColumn);
      columns = columnNames(header);
      continue;
    }
    if (record.every((cell) => !cell.trim())) continue;
    if (record.length > columns.length && record.slice(columns.length).some((cell) => cell.trim()))
      rows.push({
        row: count,
        problem: `Row ${count}: it has ${record.length} values where the header names ${columns.length} columns (a comma inside a value needs quotes around the value).`,
      });
    else rows.push({ row: count, cells: Array.from(columns, (_, at) => record[at] ?? '') });
  }
  if (columns === null) throw new FeedFileRefused(refusals.noHeader);
  return { columns, rows: [...rows, ...problems].sort((a, b) => a.row - b.row) };
}
