import { EmbeddedIndex } from './embedded-index';
import type { MeiliSettings } from './index-settings';
import { MeiliError } from './search-errors';
import type { Doc, SearchParams } from './search-types';
import { TaskQueue, type BatchView, type EnqueuedTaskView, type TaskFilter, type TaskQuery, type TaskView } from './task-queue';

/**
 * The embedded engine: Meilisearch's indexes, settings, documents and tasks kept in process.
 * Writes are tasks, as in Meilisearch, but applied in order the moment they are enqueued, so a
 * task is already `succeeded` (or `failed`) when its uid is first asked for.
 */

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

/** A filter that says nothing: no expression anywhere in it. */
export function isEmptyFilter(filter: SearchParams['filter']): boolean {
  if (filter === undefined || filter === null) return true;
  if (typeof filter === 'string') return filter.trim() === '';
  return filter.every((item) => isEmptyFilter(item as SearchParams['filter']));
}

/** Meilisearch's rules for the primary key of documents going into an index. */
function primaryKeyFor(index: EmbeddedIndex, docs: Doc[], given: string | null): string {
  if (index.primaryKey) {
    if (given && given !== index.primaryKey) {
      throw new MeiliError(
        'index_primary_key_already_exists',
        `Index \`${index.uid}\`: Index already has a primary key: \`${index.primaryKey}\`.`,
        400,
      );
    }
    return index.primaryKey;
  }
  if (given) return given;
  const candidates = Object.keys(docs[0] ?? {}).filter((field) => field.toLowerCase().endsWith('id'));
  if (candidates.length === 1) return candidates[0]!;
  if (candidates.length === 0) {
    throw new MeiliError(
      'index_primary_key_no_candidate_found',
      `Index \`${index.uid}\`: The primary key inference failed as the engine did not find any field ending with \`id\` in its name. Please specify the primary key manually using the \`primaryKey\` query parameter.`,
      400,
    );
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
      throw new MeiliError(
        'missing_document_id',
        `Index \`${index.uid}\`: Document doesn't have a \`${primaryKey}\` attribute: \`${JSON.stringify(doc).slice(0, 200)}\`.`,
        400,
      );
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
  private readonly tasks: TaskQueue;

  /** `keptTasks`: the most recent tasks the log keeps (Meilisearch drops old tasks too). */
  constructor(keptTasks = 10_000) {
    this.tasks = new TaskQueue(keptTasks);
  }

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

  task(uid: number): TaskView {
    return this.tasks.task(uid);
  }

  listTasks(query: TaskQuery = {}) {
    return this.tasks.listTasks(query);
  }

  /** Meilisearch's `POST /tasks/cancel` (see TaskQueue.cancelTasks). */
  cancelTasks(filter: TaskFilter, originalFilter: string): EnqueuedTaskView {
    return this.tasks.cancelTasks(filter, originalFilter);
  }

  /** Meilisearch's `DELETE /tasks` (see TaskQueue.deleteTasks). */
  deleteTasks(filter: TaskFilter, originalFilter: string): EnqueuedTaskView {
    return this.tasks.deleteTasks(filter, originalFilter);
  }

  batch(uid: number): BatchView {
    return this.tasks.batch(uid);
  }

  listBatches(query: TaskQuery = {}) {
    return this.tasks.listBatches(query);
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
    return this.tasks.enqueue('indexCreation', uid, { primaryKey }, () => {
      if (this.indexes.has(uid)) throw new MeiliError('index_already_exists', `Index \`${uid}\` already exists.`, 409);
      this.indexes.set(uid, new EmbeddedIndex(uid, primaryKey));
    });
  }

  updateIndex(uid: string, primaryKey: string | null): EnqueuedTaskView {
    return this.tasks.enqueue('indexUpdate', uid, { primaryKey }, () => {
      const index = this.existingIndex(uid);
      if (primaryKey === null || primaryKey === index.primaryKey) return;
      if (index.size > 0)
        throw new MeiliError(
          'index_primary_key_already_exists',
          `Index \`${uid}\`: Index already has a primary key: \`${index.primaryKey}\`.`,
          400,
        );
      index.primaryKey = primaryKey;
    });
  }

  deleteIndex(uid: string): EnqueuedTaskView {
    return this.tasks.enqueue('indexDeletion', uid, { deletedDocuments: 0 }, () => {
      const index = this.existingIndex(uid);
      this.indexes.delete(uid);
      return { deletedDocuments: index.size };
    });
  }

  /** Add or replace (`merge: false`, POST) or add or update (`merge: true`, PUT). */
  addDocuments(uid: string, docs: Doc[], options: { primaryKey: string | null; merge: boolean }): EnqueuedTaskView {
    checkIndexUid(uid);
    return this.tasks.enqueue('documentAdditionOrUpdate', uid, { receivedDocuments: docs.length, indexedDocuments: null }, () => {
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
    return this.tasks.enqueue('documentDeletion', uid, { providedIds: ids.length, deletedDocuments: null, originalFilter: null }, () => ({
      deletedDocuments: this.existingIndex(uid).remove(ids),
    }));
  }

  /** Refuses an empty filter (`""`, `"  "`, `[]`, `[[]]`) as Meilisearch does: it would match, and delete, every document. */
  deleteDocumentsByFilter(uid: string, filter: SearchParams['filter']): EnqueuedTaskView {
    if (isEmptyFilter(filter)) throw new MeiliError('invalid_document_filter', 'Sending an empty filter is forbidden.', 400);
    return this.tasks.enqueue(
      'documentDeletion',
      uid,
      { providedIds: 0, deletedDocuments: null, originalFilter: JSON.stringify(filter) },
      () => {
        const index = this.existingIndex(uid);
        const matched = index.matching(filter);
        return { deletedDocuments: index.remove(matched.map((doc) => doc[index.primaryKey ?? 'id'] as string | number)) };
      },
    );
  }

  deleteAllDocuments(uid: string): EnqueuedTaskView {
    return this.tasks.enqueue('documentDeletion', uid, { providedIds: 0, deletedDocuments: null, originalFilter: null }, () => ({
      deletedDocuments: this.existingIndex(uid).clear(),
    }));
  }

  updateSettings(uid: string, settings: Partial<MeiliSettings>): EnqueuedTaskView {
    checkIndexUid(uid);
    return this.tasks.enqueue('settingsUpdate', uid, structuredClone(settings), () => {
      this.indexForWrite(uid).updateSettings(settings);
    });
  }
}
