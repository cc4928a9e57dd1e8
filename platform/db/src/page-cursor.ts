/**
 * Keyset paging for the admin listings. A page ends at a row's (sort key, id) and the next page
 * starts right after it, so rows added between two pages are neither repeated nor make another
 * row skip (an offset would do both). The cursor handed out is that pair as base64url JSON:
 * opaque to the caller, checked when it comes back.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { z } from 'zod';

export type PagePosition = { key: number; id: number };

export type Page = { after: PagePosition | null; limit: number };

export const pageSizes = { default: 50, max: 500 } as const;

const positionSchema = z.tuple([
  z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
]);

export const encodeCursor = (position: PagePosition) =>
  Buffer.from(JSON.stringify([position.key, position.id]), 'utf8').toString('base64url');

/** The position a cursor stands for, or null when it is not one a listing handed out. */
export function decodeCursor(cursor: string): PagePosition | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const parsed = positionSchema.safeParse(value);
  return parsed.success ? { key: parsed.data[0], id: parsed.data[1] } : null;
}

/**
 * Rows read one more than the page holds tell whether another page follows: the page, and the
 * position of its last row when one does.
 */
export function pageOf<T>(
  rows: readonly T[],
  limit: number,
  positionOf: (row: T) => PagePosition,
): { rows: T[]; next: PagePosition | null } {
  const page = rows.slice(0, limit);
  return { rows: page, next: rows.length > limit ? positionOf(page[page.length - 1]!) : null };
}

/**
 * The rows past a page's last one in the listing's order of (key column, id): newer first
 * (`desc`) or sooner first (`asc`).
 */
export function pastPosition(keyColumn: string, order: 'asc' | 'desc', after: PagePosition): RawBuilder<SqlBool> {
  const key = sql.ref(keyColumn);
  const beyond = sql.raw(order === 'desc' ? '<' : '>');
  return sql<SqlBool>`(${key} ${beyond} ${after.key} or (${key} = ${after.key} and ${sql.ref('id')} ${beyond} ${after.id}))`;
}
