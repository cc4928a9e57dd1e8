import type { DeliverySummary } from '@dealer/db/lead-job-store';
import type { StoredLead } from '@dealer/db/lead-store';

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote, a line break or edge spaces,
 * quotes doubled. A cell a spreadsheet would run as a formula (=, +, -, @, tab, CR first) is
 * prefixed with an apostrophe, so a shopper's text cannot become a formula on the dealer's machine.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvRow = (cells: readonly unknown[]) => cells.map(csvCell).join(',');

/** The columns a dealer's spreadsheet gets first; every other payload field follows in one JSON column. */
const payloadColumns = [
  'name',
  'middle_name',
  'last_name',
  'email',
  'phone',
  'postcode',
  'message',
  'subcategory',
  'dealership_slug',
  'location_id',
  'car_id',
  'stock_number',
  'car_type',
  'Vehicle Make',
  'Vehicle Model',
  'Rego',
  'dateTime',
  'opt_in',
  'consent_wording',
  'url',
] as const;

const known = new Set<string>([
  ...payloadColumns,
  'category',
  'lead_status',
  'website_slug',
  'source',
  'user_agent',
  'visited_pages',
  'linked_query_params',
]);

const header = [
  'id',
  'created_at',
  'updated_at',
  'category',
  'lead_status',
  ...payloadColumns,
  'has_files',
  'suspected_spam',
  'spam_reason',
  'delivery',
  'other_fields',
];

/** Leads as CSV: the header row (unless told not to) then one row per lead, each line ending CRLF. */
export function leadsCsv(leads: readonly (StoredLead & { delivery: DeliverySummary })[], opts: { header?: boolean } = {}): string {
  const lines = opts.header === false ? [] : [csvRow(header)];
  for (const lead of leads) {
    const other = Object.fromEntries(Object.entries(lead.payload).filter(([key]) => !known.has(key)));
    lines.push(
      csvRow([
        lead.id,
        new Date(lead.created_at).toISOString(),
        new Date(lead.updated_at).toISOString(),
        lead.category,
        lead.lead_status,
        ...payloadColumns.map((column) => lead.payload[column]),
        lead.has_files,
        lead.suspected_spam,
        lead.spam_reason,
        lead.delivery.state,
        Object.keys(other).length ? other : '',
      ]),
    );
  }
  return lines.length ? `${lines.join('\r\n')}\r\n` : '';
}

/** The CSV export of a site's leads as it is read: the header with the first page, then each page's rows. */
export async function* leadsCsvPages(
  pages: AsyncIterable<readonly (StoredLead & { delivery: DeliverySummary })[]>,
): AsyncGenerator<string> {
  let first = true;
  for await (const page of pages) {
    yield leadsCsv(page, { header: first });
    first = false;
  }
  if (first) yield leadsCsv([]);
}
