import { MeiliError } from './search-errors';

/*
 * Meilisearch's tasks and batches: every write is recorded as a task, listed, filtered, canceled
 * and deleted as its `/tasks` and `/batches` routes do. A task runs the moment it is enqueued.
 */

/** Every task type Meilisearch names (the ones this engine never runs are still valid filters). */
export const taskTypes = [
  'documentAdditionOrUpdate',
  'documentEdition',
  'documentDeletion',
  'settingsUpdate',
  'indexCreation',
  'indexDeletion',
  'indexUpdate',
  'indexSwap',
  'taskCancelation',
  'taskDeletion',
  'dumpCreation',
  'snapshotCreation',
  'upgradeDatabase',
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
  const start =
    query.from === undefined ? 0 : ordered.findIndex((item) => (query.reverse ? item.uid >= query.from! : item.uid <= query.from!));
  const page = start < 0 ? [] : ordered.slice(start, start + limit);
  const next = start < 0 ? undefined : ordered[start + limit];
  return { results: page, total: selected.length, limit, from: page[0]?.uid ?? null, next: next?.uid ?? null };
}

export class TaskQueue {
  /** The most recent tasks, oldest first. Older ones are dropped, as Meilisearch drops old tasks. */
  private readonly tasks: TaskView[] = [];
  private nextTaskUid = 0;

  constructor(private readonly keptTasks: number) {}

  /** Records a write as a task and applies it at once; a failure is the task's, not the request's (as in Meilisearch). */
  enqueue(
    type: TaskType,
    indexUid: string | null,
    details: Record<string, unknown>,
    apply: () => Record<string, unknown> | void,
  ): EnqueuedTaskView {
    const uid = this.nextTaskUid++;
    const enqueuedAt = new Date();
    const started = performance.now();
    let error: TaskError | null = null;
    let outcome: Record<string, unknown> = {};
    try {
      outcome = apply() ?? {};
    } catch (thrown) {
      error =
        thrown instanceof MeiliError
          ? thrown.toJSON()
          : new MeiliError('internal', thrown instanceof Error ? thrown.message : String(thrown), 500, 'internal').toJSON();
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
      stats: {
        totalNbTasks: 1,
        status: { [task.status]: 1 },
        types: { [task.type]: 1 },
        indexUids: task.indexUid === null ? {} : { [task.indexUid]: 1 },
      },
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
}
