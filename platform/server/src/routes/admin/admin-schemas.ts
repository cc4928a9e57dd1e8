import { z } from 'zod';
import { decodeCursor, encodeCursor, pageSizes, type PagePosition } from '@dealer/db/page-cursor';
import { refusalSchema, type RequestPart, type SchemaRefusal } from '../../http/zod-schemas';

/*
 * What every resource of the admin API shares: its listings' site and page parameters, its
 * answers to a request a schema refuses, and the route options that say which key opens a route.
 * A resource's own schemas sit beside its routes.
 */

/** The site a listing is of: required with the platform key, a dealer key's own site when absent. */
export const siteParam = z.string({ error: 'site must be given once' }).min(1, 'site is required').optional();

/** A page of a listing: `limit` rows after the `cursor` the previous page ended with (see @dealer/db page-cursor.ts). */
export const pageParams = {
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(pageSizes.max, `limit must be at most ${pageSizes.max}`)
    .default(pageSizes.default),
  cursor: z
    .string({ error: 'cursor must be given once' })
    .optional()
    .transform((cursor, context): PagePosition | null => {
      if (cursor === undefined) return null;
      const position = decodeCursor(cursor);
      if (!position)
        context.addIssue({
          code: 'custom',
          message: 'is not a cursor this listing handed out; start again from the first page (no cursor)',
        });
      return position;
    }),
};

export const nextCursor = (next: PagePosition | null) => (next ? encodeCursor(next) : null);

/** A page of a listing's answer: its rows under `rows`, and the cursor of the next page. */
export const page = (rows: string) => z.object({ [rows]: z.array(z.looseObject({})), next_cursor: z.string().nullable() });
export const refusals = { '4xx': refusalSchema, '5xx': refusalSchema };

/** A body left out is an empty one (nothing to change, no fields given). */
export const orEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((body) => body ?? {}, schema);

export const checkFields = 'Please check the highlighted fields.';

/** Field → message, for the dealer's screen to show each next to its field; unknown fields are named too. */
function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) fields[key] ??= `${key} is not something that can be changed on a car`;
      continue;
    }
    fields[issue.path.join('.') || 'body'] ??= issue.message;
  }
  return fields;
}

/** A query's problems in one line: `field: message; field: message`. */
const queryMessage = (error: z.ZodError) => error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');

/** The admin API's answer to a request its schema refuses, in the words it always used. */
export function adminRefusal(what: string, bodyFields: (error: z.ZodError) => Record<string, string> = fieldErrors) {
  return (error: z.ZodError, part: RequestPart): SchemaRefusal => {
    if (part === 'params')
      return { status: 400, body: { message: `Please check the ${what} id.`, fields: { id: error.issues[0]!.message } } };
    if (part === 'querystring') return { status: 400, body: { message: queryMessage(error) } };
    return { status: 400, body: { message: checkFields, fields: bodyFields(error) } };
  };
}

/** A route a dealer key opens for its own site (the platform key for every site); `what` names its id in a refusal. */
export const siteLevel = (what: string) => ({ adminAccess: 'site' as const, schemaError: adminRefusal(what) });
/** A route of the platform's own: the platform key only. */
export const platformLevel = (what: string) => ({ adminAccess: 'platform' as const, schemaError: adminRefusal(what) });
