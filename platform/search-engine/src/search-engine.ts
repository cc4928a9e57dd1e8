import type { FilterNode } from './filter-parser';
import { MeiliError } from './search-errors';
import { selectAttributes } from './select-attributes';
import { SearchIndex, type Doc, type IndexSettings, type SearchParams, type SearchResponse } from './search-index';

/**
 * The embedded engine: Meilisearch's indexes, settings, documents and tasks kept in process.
 * Writes are tasks, as in Meilisearch, but applied in order the moment they are enqueued, so a
 * task is already `succeeded` (or `failed`) when its uid is first asked for.
 */

/** Every task type Meilisearch names (the ones this engine never runs are still valid filters). */
export const taskTypes = [
  'documentAdditionOrUpdate', 'documentEdition', 'documentDeletion', 'settingsUpdate', 'indexCreation', 'indexDeletion', 'indexUpdate',
  'indexSwap', 'taskCancelation', 'taskDeletion', 'dumpCreation', 'snapshotCreation', 'upgradeDatabase',
] as const;
export type TaskType = (typeof taskTypes)[number];
export const taskStatuses = ['enqueued', 'processing', 'succeeded', 'failed', 'canceled'] as const;
export type TaskError = ReturnType<MeiliError['toJSON']>;
export type TaskView = {
  uid: number;
  batchUid: number;
  indexUid: string | null;
  status: 'succeeded' | 'failed';
  type: TaskType;
  canceledBy: number | null;
  details: Record<string, unknown>;
  error: TaskError | null;
  duration: string;
  enqueuedAt: string;
  startedAt: string;
  finishedAt: string;
};
/** What a write answers with (HTTP 202), as Meilisearch's summarized task. */
export type EnqueuedTaskView = { taskUid: number; indexUid: string | null; status: 'enqueued'; type: TaskType; enqueuedAt: string };

/** Which tasks a list, a cancelation or a deletion is about (all given filters must match; dates in ms, bounds excluded). */
export type TaskFilter = {
  uids?: number[];
  batchUids?: number[];
  canceledBy?: number[];
  statuses?: string[];
  types?: string[];
  indexUids?: string[];
  afterEnqueuedAt?: number;
  beforeEnqueuedAt?: number;
  afterStartedAt?: number;
  beforeStartedAt?: number;
  afterFinishedAt?: number;
  beforeFinishedAt?: number;
};
export type TaskQuery = TaskFilter & { limit?: number; from?: number; reverse?: boolean };

/** Meilisearch's batch of tasks. Tasks run the moment they are enqueued here, so each is a batch of its own. */
export type BatchView = {
  uid: number;
  progress: null;
  details: Record<string, unknown>;
  stats: { totalNbTasks: number; status: Record<string, number>; types: Record<string, number>; indexUids: Record<string, number> };
  duration: string;
  startedAt: string;
  finishedAt: string;
  batchStrategy: string;
};

function between(date: string, after: number | undefined, before: number | undefined): boolean {
  const time = Date.parse(date);
  return (after === undefined || time > after) && (before === undefined || time < before);
}

function taskMatches(task: TaskView, filter: TaskFilter): boolean {
  return (
    (!filter.uids || filter.uids.includes(task.uid)) &&
    (!filter.batchUids || filter.batchUids.includes(task.batchUid)) &&
    (!filter.canceledBy || (task.canceledBy !== null && filter.canceledBy.includes(task.canceledBy))) &&
    (!filter.statuses || filter.statuses.includes(task.status)) &&
    (!filter.types || filter.types.includes(task.type)) &&
    (!filter.indexUids || (task.indexUid !== null && filter.indexUids.includes(task.indexUid))) &&
    between(task.enqueuedAt, filter.afterEnqueuedAt, filter.beforeEnqueuedAt) &&
    between(task.startedAt, filter.afterStartedAt, filter.beforeStartedAt) &&
    between(task.finishedAt, filter.afterFinishedAt, filter.beforeFinishedAt)
  );
}

/** A page of tasks (or batches) by uid: newest first unless reversed, from a uid on. */
function pageByUid<T extends { uid: number }>(selected: T[], query: TaskQuery) {
  const limit = query.limit ?? 20;
  const ordered = query.reverse ? selected : [...selected].reverse();
  const start = query.from === undefined ? 0 : ordered.findIndex((item) => (query.reverse ? item.uid >= query.from! : item.uid <= query.from!));
  const page = start < 0 ? [] : ordered.slice(start, start + limit);
  const next = start < 0 ? undefined : ordered[start + limit];
  return { results: page, total: selected.length, limit, from: page[0]?.uid ?? null, next: next?.uid ?? null };
}

const defaultMaxTotalHits = 1000;

/** Meilisearch's settings object with its defaults. Only the attribute lists change how the embedded engine searches; the rest is kept and given back. */
export const defaultIndexSettings = {
  displayedAttributes: ['*'] as unknown,
  searchableAttributes: ['*'] as unknown,
  filterableAttributes: [] as unknown,
  sortableAttributes: [] as unknown,
  rankingRules: ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness'] as unknown,
  stopWords: [] as unknown,
  nonSeparatorTokens: [] as unknown,
  separatorTokens: [] as unknown,
  dictionary: [] as unknown,
  synonyms: {} as unknown,
  distinctAttribute: null as unknown,
  proximityPrecision: 'byWord' as unknown,
  typoTolerance: {
    enabled: true,
    minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 },
    disableOnWords: [],
    disableOnAttributes: [],
    disableOnNumbers: false,
  } as unknown,
  faceting: { maxValuesPerFacet: 100, sortFacetValuesBy: { '*': 'alpha' } } as unknown,
  pagination: { maxTotalHits: defaultMaxTotalHits } as unknown,
  embedders: {} as unknown,
  searchCutoffMs: null as unknown,
  localizedAttributes: null as unknown,
  facetSearch: true as unknown,
  prefixSearch: 'indexingTime' as unknown,
};
export type SettingName = keyof typeof defaultIndexSettings;
export type MeiliSettings = { [K in SettingName]: unknown };
export const settingNames = Object.keys(defaultIndexSettings) as SettingName[];
/** Settings whose value is an object: a PATCH merges into them rather than replacing them. */
const objectSettings = new Set<SettingName>(['typoTolerance', 'faceting', 'pagination', 'embedders']);

/**
 * An object setting patched as Meilisearch patches it: the fields given replace those there,
 * objects within merge the same way (`sortFacetValuesBy: { make: 'count' }` keeps `'*': 'alpha'`),
 * and null puts a field back to its default (or takes it out when it has none).
 */
function patchObject(current: Record<string, unknown>, patch: Record<string, unknown>, defaults: unknown): Record<string, unknown> {
  const merged = { ...current };
  const defaultOf = (key: string) => (isPlainObject(defaults) ? defaults[key] : undefined);
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) {
      if (defaultOf(key) === undefined) delete merged[key];
      else merged[key] = clone(defaultOf(key));
    } else if (isPlainObject(value) && isPlainObject(merged[key])) merged[key] = patchObject(merged[key] as Record<string, unknown>, value, defaultOf(key));
    else merged[key] = clone(value);
  }
  return merged;
}

const indexUidPattern = /^[a-zA-Z0-9_-]{1,400}$/;
const documentIdPattern = /^[a-zA-Z0-9_-]{1,511}$/;

export function checkIndexUid(uid: string) {
  if (!indexUidPattern.test(uid)) {
    throw new MeiliError(
      'invalid_index_uid',
      `\`${uid}\` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 400 bytes.`,
      400,
    );
  }
}

const indexNotFound = (uid: string) => new MeiliError('index_not_found', `Index \`${uid}\` not found.`, 404);
const clone = <T>(value: T): T => structuredClone(value);
const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const defaultMaxValuesPerFacet = 100;

/** A facet value or facet query as facet search compares them: trimmed, lower case, accents removed. */
const facetText = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();

/**
 * Meilisearch keeps no facet value longer than 468 bytes (`MAX_FACET_VALUE_LENGTH`), so a facet
 * query much longer matches nothing there, typos and all; here it is not compared with any value.
 */
const maxFacetQueryLength = 512;

/** The first `count` characters (code points) of a text, without reading the rest of it. */
function firstCharacters(text: string, count: number): string[] {
  const characters: string[] = [];
  for (const character of text) {
    if (characters.length === count) break;
    characters.push(character);
  }
  return characters;
}

/**
 * The fewest edits (an adjacent swap is one) that turn `query` into the start of `value`, or
 * `limit + 1` beyond `limit`. Only the start of `value` a match could use is read, and only the
 * cells within `limit` of the diagonal are computed (any other is more than `limit` edits), so a
 * long query costs its length times the band, whatever the value.
 */
function prefixDistance(query: readonly string[], value: string, limit: number): number {
  const over = limit + 1;
  const b = firstCharacters(value, query.length + limit);
  if (b.length < query.length - limit) return over;
  // Row i holds the cells j = i - limit … i + limit, at k = j - i + limit.
  const width = 2 * limit + 1;
  const cell = (row: Int32Array, k: number) => (k >= 0 && k < width ? row[k]! : over);
  let before = new Int32Array(width).fill(over);
  let previous = new Int32Array(width);
  let current = new Int32Array(width);
  for (let k = 0; k < width; k++) previous[k] = k - limit >= 0 && k - limit <= b.length ? k - limit : over;
  for (let i = 1; i <= query.length; i++) {
    let rowMin = over;
    for (let k = 0; k < width; k++) {
      const j = i + k - limit;
      let best = over;
      if (j === 0) best = Math.min(i, over);
      else if (j > 0 && j <= b.length) {
        best = Math.min(cell(previous, k + 1) + 1, cell(current, k - 1) + 1, previous[k]! + (query[i - 1] === b[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && query[i - 1] === b[j - 2] && query[i - 2] === b[j - 1]) best = Math.min(best, before[k]! + 1);
        best = Math.min(best, over);
      }
      current[k] = best;
      if (best < rowMin) rowMin = best;
    }
    if (rowMin > limit) return over;
    [before, previous, current] = [previous, current, before];
  }
  let best = over;
  for (let k = 0; k < width; k++) {
    const j = query.length + k - limit;
    if (j >= 0 && j <= b.length) best = Math.min(best, previous[k]!);
  }
  return best;
}

/** A filter that says nothing: no expression anywhere in it. */
export function isEmptyFilter(filter: SearchParams['filter']): boolean {
  if (filter === undefined || filter === null) return true;
  if (typeof filter === 'string') return filter.trim() === '';
  return filter.every((item) => isEmptyFilter(item as SearchParams['filter']));
}

/** The attribute names an attribute-list setting gives (granular filterable entries give their patterns). */
function attributeNames(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: unknown) =>
    typeof entry === 'string' ? [entry] : isPlainObject(entry) && Array.isArray(entry.attributePatterns) ? entry.attributePatterns.filter((p): p is string => typeof p === 'string') : [],
  );
}

/** One index: its documents by primary key, its settings, and the SearchIndex that answers searches on them. */
export class EmbeddedIndex {
  primaryKey: string | null;
  readonly createdAt: string;
  updatedAt: string;
  /** The stored documents, in the order they were first added (what GET /documents pages through). */
  private readonly docs = new Map<string, Doc>();
  private meiliSettings: MeiliSettings = clone(defaultIndexSettings);
  /**
   * The search structure. It keys documents by `id`; `docs` above keeps them by the index's own
   * primary key and in the order they came, for the documents API.
   */
  private readonly engine: SearchIndex;

  constructor(
    readonly uid: string,
    primaryKey: string | null,
    now = new Date(),
  ) {
    this.primaryKey = primaryKey;
    this.createdAt = now.toISOString();
    this.updatedAt = this.createdAt;
    this.engine = new SearchIndex(uid, this.searchSettings());
  }

  get size() {
    return this.docs.size;
  }

  /** The settings the search structure applies. */
  get settings(): IndexSettings {
    return this.engine.settings;
  }

  allSettings(): MeiliSettings {
    return clone(this.meiliSettings);
  }

  private searchSettings(): IndexSettings {
    const { searchableAttributes: searchable, displayedAttributes: displayed, distinctAttribute } = this.meiliSettings;
    const faceting = this.meiliSettings.faceting as IndexSettings['faceting'];
    const pagination = this.meiliSettings.pagination as { maxTotalHits?: number };
    return {
      filterableAttributes: attributeNames(this.meiliSettings.filterableAttributes),
      sortableAttributes: attributeNames(this.meiliSettings.sortableAttributes),
      searchableAttributes: Array.isArray(searchable) ? attributeNames(searchable) : ['*'],
      displayedAttributes: Array.isArray(displayed) ? attributeNames(displayed) : ['*'],
      distinctAttribute: typeof distinctAttribute === 'string' ? distinctAttribute : null,
      maxTotalHits: pagination.maxTotalHits ?? defaultMaxTotalHits,
      ...(faceting ? { faceting: { maxValuesPerFacet: faceting.maxValuesPerFacet, sortFacetValuesBy: faceting.sortFacetValuesBy } } : {}),
    };
  }

  /** Replaces the named settings (null: back to the default); the search structure rebuilds what they affect. */
  updateSettings(partial: Partial<MeiliSettings>) {
    for (const name of settingNames) {
      if (!(name in partial)) continue;
      const value = partial[name];
      if (value === null || value === undefined) this.meiliSettings[name] = clone(defaultIndexSettings[name]);
      else if (objectSettings.has(name) && isPlainObject(value) && isPlainObject(this.meiliSettings[name])) {
        this.meiliSettings[name] = patchObject(this.meiliSettings[name] as Record<string, unknown>, value, defaultIndexSettings[name]);
      } else this.meiliSettings[name] = clone(value);
    }
    this.engine.updateSettings(this.searchSettings());
    this.touch();
  }

  /** What the search structure is given: it keys documents by `id`, so another primary key is copied there. */
  private searchDocs(docs: Doc[]): Doc[] {
    const key = this.primaryKey;
    if (!key || key === 'id') return docs;
    return docs.map((doc) => ({ ...doc, id: doc[key] as string | number }));
  }

  private touch() {
    this.updatedAt = new Date().toISOString();
  }

  /** Adds or replaces whole documents. */
  upsert(docs: Doc[]) {
    for (const doc of docs) this.docs.set(this.keyOf(doc), doc);
    this.engine.upsert(this.searchDocs(docs));
    this.touch();
  }

  /** Adds documents, or updates the fields given of those already there. */
  merge(docs: Doc[]) {
    this.upsert(docs.map((doc) => ({ ...this.docs.get(this.keyOf(doc)), ...doc })));
  }

  remove(ids: (string | number)[]): number {
    const present = ids.map(String).filter((id) => this.docs.has(id));
    for (const id of present) this.docs.delete(id);
    this.engine.remove(present);
    this.touch();
    return present.length;
  }

  clear(): number {
    const count = this.docs.size;
    this.docs.clear();
    this.engine.clear();
    this.touch();
    return count;
  }

  get(id: string | number): Doc | undefined {
    return this.docs.get(String(id));
  }

  /** A document as the documents API gives it: its displayed fields only, and of those the `fields` asked for. */
  shown(doc: Doc, fields?: readonly string[]): Record<string, unknown> {
    const pick = (from: Record<string, unknown>, names: readonly string[]) => (names.includes('*') ? from : selectAttributes(from, names));
    const displayed = pick(doc, attributeNames(this.meiliSettings.displayedAttributes));
    return fields ? pick(displayed, fields) : displayed;
  }

  private keyOf(doc: Doc): string {
    return String(doc[this.primaryKey ?? 'id']);
  }

  /** The documents a filter matches, in stored order. Filter errors come back in the documents API's words. */
  matching(filter: SearchParams['filter']): Doc[] {
    if (filter === undefined || filter === null || filter === '' || (Array.isArray(filter) && filter.length === 0)) return [...this.docs.values()];
    let hits: Doc[];
    try {
      // The search structure's hits carry the primary key as `id` (see searchDocs).
      hits = this.engine.filterDocuments(filter);
    } catch (error) {
      if (error instanceof MeiliError && error.code === 'invalid_search_filter') {
        throw new MeiliError('invalid_document_filter', error.message.replace('Available filterable attributes', 'Available filterable attributes patterns'), 400);
      }
      throw error;
    }
    const keys = new Set(hits.map((hit) => String(hit.id)));
    return [...this.docs.entries()].filter(([key]) => keys.has(key)).map(([, doc]) => doc);
  }

  search(params: SearchParams, baseFilter?: FilterNode): SearchResponse {
    const response = this.engine.search(params, baseFilter);
    const key = this.primaryKey;
    if (key && key !== 'id') {
      // Give hits back their own `id` field (or none), which searchDocs overwrote with the primary key.
      response.hits = response.hits.map((hit) => {
        const stored = this.docs.get(String(hit.id));
        if (!stored) return hit;
        const { id: _primaryKey, ...rest } = hit;
        return ('id' in stored ? { ...rest, id: stored.id } : rest) as Doc;
      });
    }
    return response;
  }

  /**
   * Meilisearch's facet search: the values of `facetName` held by the documents the search
   * matches that start like `facetQuery` (with the typos a query word of its length may have),
   * with how many hold each; in the order the index gives that facet's values, at most
   * `maxValuesPerFacet` of them.
   */
  facetSearch(facetName: string, facetQuery: string, params: SearchParams, baseFilter?: FilterNode): { value: string; count: number }[] {
    // No value is searched for by a query this long; say so before counting any.
    if (facetQuery.length > maxFacetQueryLength) return [];
    const values = this.engine.facetValues(params, facetName, baseFilter);
    // Read once per search, not once per value.
    const query = [...facetText(facetQuery)];
    const typos = this.typosFor(query.length, facetName);
    const found = values.map((hit) => ({ ...hit, key: facetText(hit.value) })).filter((hit) => query.length === 0 || prefixDistance(query, hit.key, typos) <= typos);
    const faceting = this.settings.faceting;
    const byCount = (faceting?.sortFacetValuesBy?.[facetName] ?? faceting?.sortFacetValuesBy?.['*']) === 'count';
    found.sort((a, b) => (byCount ? b.count - a.count : 0) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return found.slice(0, faceting?.maxValuesPerFacet ?? defaultMaxValuesPerFacet).map(({ value, count }) => ({ value, count }));
  }

  /** The typos a facet query of this many characters may have: none when typo tolerance is off (or off for the attribute), else by its length, as for a query word. */
  private typosFor(length: number, attribute: string): number {
    const tolerance = this.meiliSettings.typoTolerance as { enabled?: boolean; minWordSizeForTypos?: { oneTypo?: number; twoTypos?: number }; disableOnAttributes?: string[] };
    if (tolerance.enabled === false || tolerance.disableOnAttributes?.includes(attribute)) return 0;
    return length >= (tolerance.minWordSizeForTypos?.twoTypos ?? 9) ? 2 : length >= (tolerance.minWordSizeForTypos?.oneTypo ?? 5) ? 1 : 0;
  }

  info() {
    return { uid: this.uid, primaryKey: this.primaryKey, createdAt: this.createdAt, updatedAt: this.updatedAt };
  }

  stats() {
    const fieldDistribution: Record<string, number> = {};
    for (const doc of this.docs.values()) for (const field of Object.keys(doc)) fieldDistribution[field] = (fieldDistribution[field] ?? 0) + 1;
    return { numberOfDocuments: this.docs.size, isIndexing: false, fieldDistribution };
  }
}

/** Meilisearch's rules for the primary key of documents going into an index. */
function primaryKeyFor(index: EmbeddedIndex, docs: Doc[], given: string | null): string {
  if (index.primaryKey) {
    if (given && given !== index.primaryKey) {
      throw new MeiliError('index_primary_key_already_exists', `Index \`${index.uid}\`: Index already has a primary key: \`${index.primaryKey}\`.`, 400);
    }
    return index.primaryKey;
  }
  if (given) return given;
  const candidates = Object.keys(docs[0] ?? {}).filter((field) => field.toLowerCase().endsWith('id'));
  if (candidates.length === 1) return candidates[0]!;
  if (candidates.length === 0) {
    throw new MeiliError('index_primary_key_no_candidate_found', `Index \`${index.uid}\`: The primary key inference failed as the engine did not find any field ending with \`id\` in its name. Please specify the primary key manually using the \`primaryKey\` query parameter.`, 400);
  }
  throw new MeiliError(
    'index_primary_key_multiple_candidates_found',
    `Index \`${index.uid}\`: The primary key inference failed as the engine found ${candidates.length} fields ending with \`id\` in their names: '${candidates.join("' and '")}'. Please specify the primary key manually using the \`primaryKey\` query parameter.`,
    400,
  );
}

function checkDocumentIds(index: EmbeddedIndex, docs: Doc[], primaryKey: string) {
  for (const doc of docs) {
    const id = doc[primaryKey];
    if (id === undefined || id === null) {
      throw new MeiliError('missing_document_id', `Index \`${index.uid}\`: Document doesn't have a \`${primaryKey}\` attribute: \`${JSON.stringify(doc).slice(0, 200)}\`.`, 400);
    }
    const valid = (typeof id === 'number' && Number.isInteger(id)) || (typeof id === 'string' && documentIdPattern.test(id));
    if (!valid) {
      throw new MeiliError(
        'invalid_document_id',
        `Index \`${index.uid}\`: Document identifier \`${JSON.stringify(id)}\` is invalid. A document identifier can be of type integer or string, only composed of alphanumeric characters (a-z A-Z 0-9), hyphens (-) and underscores (_), and can not be more than 511 bytes.`,
        400,
      );
    }
  }
}

export class EmbeddedSearchEngine {
  readonly indexes = new Map<string, EmbeddedIndex>();
  /** The most recent tasks, oldest first. Older ones are dropped, as Meilisearch drops old tasks. */
  private readonly tasks: TaskView[] = [];
  private nextTaskUid = 0;

  constructor(private readonly keptTasks = 10_000) {}

  index(uid: string): EmbeddedIndex | undefined {
    return this.indexes.get(uid);
  }

  /** An index to read from, or Meilisearch's `index_not_found`. */
  existingIndex(uid: string): EmbeddedIndex {
    const index = this.indexes.get(uid);
    if (!index) throw indexNotFound(uid);
    return index;
  }

  listIndexes(offset = 0, limit = 20) {
    const all = [...this.indexes.values()].sort((a, b) => (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0));
    return { results: all.slice(offset, offset + limit).map((index) => index.info()), offset, limit, total: all.length };
  }

  // -------------------------------------------------------------------------------------------
  // Tasks
  // -------------------------------------------------------------------------------------------

  /** Records a write as a task and applies it at once; a failure is the task's, not the request's (as in Meilisearch). */
  private enqueue(type: TaskType, indexUid: string | null, details: Record<string, unknown>, apply: () => Record<string, unknown> | void): EnqueuedTaskView {
    const uid = this.nextTaskUid++;
    const enqueuedAt = new Date();
    const started = performance.now();
    let error: TaskError | null = null;
    let outcome: Record<string, unknown> = {};
    try {
      outcome = apply() ?? {};
    } catch (thrown) {
      error = thrown instanceof MeiliError ? thrown.toJSON() : new MeiliError('internal', thrown instanceof Error ? thrown.message : String(thrown), 500, 'internal').toJSON();
    }
    const finishedAt = new Date();
    const seconds = (performance.now() - started) / 1000;
    this.tasks.push({
      uid,
      batchUid: uid,
      indexUid,
      status: error ? 'failed' : 'succeeded',
      type,
      canceledBy: null,
      details: { ...details, ...outcome },
      error,
      duration: `PT${seconds.toFixed(6)}S`,
      enqueuedAt: enqueuedAt.toISOString(),
      startedAt: enqueuedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
    });
    if (this.tasks.length > this.keptTasks) this.tasks.splice(0, this.tasks.length - this.keptTasks);
    return { taskUid: uid, indexUid, status: 'enqueued', type, enqueuedAt: enqueuedAt.toISOString() };
  }

  task(uid: number): TaskView {
    const task = this.tasks.find((entry) => entry.uid === uid);
    if (!task) throw new MeiliError('task_not_found', `Task \`${uid}\` not found.`, 404);
    return task;
  }

  listTasks(query: TaskQuery = {}) {
    return pageByUid(
      this.tasks.filter((task) => taskMatches(task, query)),
      query,
    );
  }

  /**
   * Meilisearch's `POST /tasks/cancel`: a `taskCancelation` task over the tasks the filter
   * matches. Every task here has finished by the time it can be named, so none is canceled.
   */
  cancelTasks(filter: TaskFilter, originalFilter: string): EnqueuedTaskView {
    const matchedTasks = this.tasks.filter((task) => taskMatches(task, filter)).length;
    return this.enqueue('taskCancelation', null, { matchedTasks, canceledTasks: null, originalFilter }, () => ({ canceledTasks: 0 }));
  }

  /** Meilisearch's `DELETE /tasks`: a `taskDeletion` task that takes the finished tasks the filter matches out of the log. */
  deleteTasks(filter: TaskFilter, originalFilter: string): EnqueuedTaskView {
    const matched = new Set(this.tasks.filter((task) => taskMatches(task, filter)).map((task) => task.uid));
    return this.enqueue('taskDeletion', null, { matchedTasks: matched.size, deletedTasks: null, originalFilter }, () => {
      const kept = this.tasks.filter((task) => !matched.has(task.uid));
      const deletedTasks = this.tasks.length - kept.length;
      this.tasks.splice(0, this.tasks.length, ...kept);
      return { deletedTasks };
    });
  }

  private batchOf(task: TaskView): BatchView {
    return {
      uid: task.batchUid,
      progress: null,
      details: task.details,
      stats: { totalNbTasks: 1, status: { [task.status]: 1 }, types: { [task.type]: 1 }, indexUids: task.indexUid === null ? {} : { [task.indexUid]: 1 } },
      duration: task.duration,
      startedAt: task.startedAt,
      finishedAt: task.finishedAt,
      batchStrategy: 'batched all enqueued tasks',
    };
  }

  batch(uid: number): BatchView {
    const task = this.tasks.find((entry) => entry.batchUid === uid);
    if (!task) throw new MeiliError('batch_not_found', `Batch \`${uid}\` not found.`, 404);
    return this.batchOf(task);
  }

  /** Batches filtered by what their tasks are (a batch's task uid is its own uid here). */
  listBatches(query: TaskQuery = {}) {
    return pageByUid(
      this.tasks.filter((task) => taskMatches(task, query)).map((task) => this.batchOf(task)),
      query,
    );
  }

  // -------------------------------------------------------------------------------------------
  // Index and document writes (each one a task)
  // -------------------------------------------------------------------------------------------

  /** An index to write to; Meilisearch creates it on a document or settings write. */
  private indexForWrite(uid: string): EmbeddedIndex {
    let index = this.indexes.get(uid);
    if (!index) {
      index = new EmbeddedIndex(uid, null);
      this.indexes.set(uid, index);
    }
    return index;
  }

  createIndex(uid: string, primaryKey: string | null): EnqueuedTaskView {
    checkIndexUid(uid);
    return this.enqueue('indexCreation', uid, { primaryKey }, () => {
      if (this.indexes.has(uid)) throw new MeiliError('index_already_exists', `Index \`${uid}\` already exists.`, 409);
      this.indexes.set(uid, new EmbeddedIndex(uid, primaryKey));
    });
  }

  updateIndex(uid: string, primaryKey: string | null): EnqueuedTaskView {
    return this.enqueue('indexUpdate', uid, { primaryKey }, () => {
      const index = this.existingIndex(uid);
      if (primaryKey === null || primaryKey === index.primaryKey) return;
      if (index.size > 0) throw new MeiliError('index_primary_key_already_exists', `Index \`${uid}\`: Index already has a primary key: \`${index.primaryKey}\`.`, 400);
      index.primaryKey = primaryKey;
    });
  }

  deleteIndex(uid: string): EnqueuedTaskView {
    return this.enqueue('indexDeletion', uid, { deletedDocuments: 0 }, () => {
      const index = this.existingIndex(uid);
      this.indexes.delete(uid);
      return { deletedDocuments: index.size };
    });
  }

  /** Add or replace (`merge: false`, POST) or add or update (`merge: true`, PUT). */
  addDocuments(uid: string, docs: Doc[], options: { primaryKey: string | null; merge: boolean }): EnqueuedTaskView {
    checkIndexUid(uid);
    return this.enqueue('documentAdditionOrUpdate', uid, { receivedDocuments: docs.length, indexedDocuments: null }, () => {
      const index = this.indexForWrite(uid);
      if (docs.length === 0) return { indexedDocuments: 0 };
      const primaryKey = primaryKeyFor(index, docs, options.primaryKey);
      checkDocumentIds(index, docs, primaryKey);
      index.primaryKey = primaryKey;
      if (options.merge) index.merge(docs);
      else index.upsert(docs);
      return { indexedDocuments: docs.length };
    });
  }

  deleteDocuments(uid: string, ids: (string | number)[]): EnqueuedTaskView {
    return this.enqueue('documentDeletion', uid, { providedIds: ids.length, deletedDocuments: null, originalFilter: null }, () => ({
      deletedDocuments: this.existingIndex(uid).remove(ids),
    }));
  }

  /** Refuses an empty filter (`""`, `"  "`, `[]`, `[[]]`) as Meilisearch does: it would match, and delete, every document. */
  deleteDocumentsByFilter(uid: string, filter: SearchParams['filter']): EnqueuedTaskView {
    if (isEmptyFilter(filter)) throw new MeiliError('invalid_document_filter', 'Sending an empty filter is forbidden.', 400);
    return this.enqueue('documentDeletion', uid, { providedIds: 0, deletedDocuments: null, originalFilter: JSON.stringify(filter) }, () => {
      const index = this.existingIndex(uid);
      const matched = index.matching(filter);
      return { deletedDocuments: index.remove(matched.map((doc) => doc[index.primaryKey ?? 'id'] as string | number)) };
    });
  }

  deleteAllDocuments(uid: string): EnqueuedTaskView {
    return this.enqueue('documentDeletion', uid, { providedIds: 0, deletedDocuments: null, originalFilter: null }, () => ({
      deletedDocuments: this.existingIndex(uid).clear(),
    }));
  }

  updateSettings(uid: string, settings: Partial<MeiliSettings>): EnqueuedTaskView {
    checkIndexUid(uid);
    return this.enqueue('settingsUpdate', uid, clone(settings), () => {
      this.indexForWrite(uid).updateSettings(settings);
    });
  }
}
