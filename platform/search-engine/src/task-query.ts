import { checkIndexUid } from './search-engine';
import { taskStatuses, taskTypes, type TaskFilter, type TaskQuery } from './task-queue';
import { MeiliError } from './search-errors';
import { parseBoolean, parseListWith, parsePositiveInteger, queryParameters, quotedList } from './meili-values';

/*
 * The query parameters of Meilisearch's task routes (`GET /tasks`, `GET /batches`,
 * `POST /tasks/cancel`, `DELETE /tasks`): lists comma-separated, `*` for any, dates as RFC 3339
 * or `YYYY-MM-DD`, each wrong value refused with its own `invalid_task_…` code.
 */

const dateParams = [
  'afterEnqueuedAt',
  'beforeEnqueuedAt',
  'afterStartedAt',
  'beforeStartedAt',
  'afterFinishedAt',
  'beforeFinishedAt',
] as const;
const filterParams = ['uids', 'batchUids', 'canceledBy', 'types', 'statuses', 'indexUids', ...dateParams] as const;
const listParams = [
  'limit',
  'from',
  'reverse',
  'batchUids',
  'uids',
  'canceledBy',
  'types',
  'statuses',
  'indexUids',
  ...dateParams,
] as const;

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`);
const invalidParameter = (code: string, name: string, message: string) =>
  new MeiliError(code, `Invalid value in parameter \`${name}\`: ${message}`, 400);

const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const dayOnly = /^(\d{4})-(\d{2})-(\d{2})$/;
const day = 86_400_000;

/** A real calendar date (no 31 February). */
const isCalendarDate = (year: string, month: string, date: string) => {
  const utc = new Date(Date.UTC(Number(year), Number(month) - 1, Number(date)));
  return utc.getUTCFullYear() === Number(year) && utc.getUTCMonth() === Number(month) - 1 && utc.getUTCDate() === Number(date);
};

/**
 * A date bound in ms. A day alone means its midnight (UTC); for an `after…` bound, the end of that
 * day, as Meilisearch reads it ("after 2024-08-08" excludes the 8th).
 */
function parseDate(text: string, name: (typeof dateParams)[number]): number {
  const full = rfc3339.exec(text);
  const dayMatch = full ? null : dayOnly.exec(text);
  const parts = full ?? dayMatch;
  const time =
    parts &&
    isCalendarDate(parts[1]!, parts[2]!, parts[3]!) &&
    (!full || (Number(full[4]) < 24 && Number(full[5]) < 60 && Number(full[6]) < 61))
      ? Date.parse(dayMatch ? `${text}T00:00:00Z` : text)
      : Number.NaN;
  if (Number.isNaN(time)) {
    throw invalidParameter(
      `invalid_task_${snakeCase(name)}`,
      name,
      `\`${text}\` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.`,
    );
  }
  return dayMatch && name.startsWith('after') ? time + day : time;
}

/** A list parameter: `*` (or a list holding it) means any, so no filter. */
function starOrList<T>(text: string, name: string, parse: (item: string, name: string) => T): T[] | undefined {
  return text.split(',').some((item) => item.trim() === '*') ? undefined : parseListWith(text, name, parse);
}

function readFilter(given: Map<string, string>): TaskFilter {
  const filter: TaskFilter = {};
  const text = (name: string) => given.get(name);
  const uids = (name: string, code: string) => {
    const value = text(name);
    return value === undefined ? undefined : starOrList(value, name, (item, itemName) => parsePositiveInteger(item, itemName, code));
  };
  filter.uids = uids('uids', 'invalid_task_uids');
  filter.batchUids = uids('batchUids', 'invalid_batch_uids');
  filter.canceledBy = uids('canceledBy', 'invalid_task_canceled_by');
  const types = text('types');
  if (types !== undefined) {
    filter.types = starOrList(types, 'types', (item, itemName) => {
      if (!(taskTypes as readonly string[]).includes(item)) {
        throw invalidParameter(
          'invalid_task_types',
          itemName,
          `\`${item}\` is not a valid task type. Available types are ${quotedList(taskTypes)}.`,
        );
      }
      return item;
    });
  }
  const statuses = text('statuses');
  if (statuses !== undefined) {
    filter.statuses = starOrList(statuses, 'statuses', (item, itemName) => {
      if (!(taskStatuses as readonly string[]).includes(item)) {
        throw invalidParameter(
          'invalid_task_statuses',
          itemName,
          `\`${item}\` is not a valid task status. Available statuses are ${quotedList(taskStatuses)}.`,
        );
      }
      return item;
    });
  }
  const indexUids = text('indexUids');
  if (indexUids !== undefined) {
    filter.indexUids = starOrList(indexUids, 'indexUids', (item, itemName) => {
      try {
        checkIndexUid(item);
      } catch (error) {
        if (error instanceof MeiliError) throw invalidParameter(error.code, itemName, error.message);
        throw error;
      }
      return item;
    });
  }
  for (const name of dateParams) {
    const value = text(name);
    if (value !== undefined && value !== '*') filter[name] = parseDate(value, name);
  }
  return Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined)) as TaskFilter;
}

/** `GET /tasks` and `GET /batches`: the filters, and the page (`limit`, `from`, `reverse`). */
export function readTaskQuery(query: unknown): TaskQuery {
  const given = queryParameters(query, listParams);
  const page: TaskQuery = { limit: given.has('limit') ? parsePositiveInteger(given.get('limit')!, 'limit', 'invalid_task_limit') : 20 };
  if (given.has('from')) page.from = parsePositiveInteger(given.get('from')!, 'from', 'invalid_task_from');
  if (given.has('reverse')) page.reverse = parseBoolean(given.get('reverse')!, 'reverse', 'invalid_task_reverse');
  return { ...readFilter(given), ...page };
}

/**
 * `POST /tasks/cancel` and `DELETE /tasks`: the filters, at least one of them (`*` counts), so
 * that no call cancels or deletes every task by leaving them out.
 */
export function readTaskFilter(query: unknown, action: 'cancel' | 'delete'): TaskFilter {
  const given = queryParameters(query, filterParams);
  if (given.size === 0) {
    throw new MeiliError(
      'missing_task_filters',
      `Query parameters to filter the tasks to ${action} are missing. Available query parameters are: \`uids\`, \`indexUids\`, \`statuses\`, \`types\`, \`canceledBy\`, \`beforeEnqueuedAt\`, \`afterEnqueuedAt\`, \`beforeStartedAt\`, \`afterStartedAt\`, \`beforeFinishedAt\`, \`afterFinishedAt\`.`,
      400,
    );
  }
  return readFilter(given);
}
