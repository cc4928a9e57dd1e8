import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { taskTypes } from '@dealer/search-engine/task-queue';
import { MeiliError } from '@dealer/search-engine/search-errors';
import { readTaskFilter, readTaskQuery } from '@dealer/search-engine/task-query';
import type { PlatformContext } from '../../platform-context';
import { adminKey } from './meili-access';
import { counts, enqueuedTaskSchema, meiliErrorSchema, meiliQuery, readingAs, refusals } from './meili-schemas';

/** A task's or batch's uid in a path: digits only. */
const uidIn = (kind: 'task' | 'batch') => (text: string) => {
  if (!/^\d+$/.test(text))
    throw new MeiliError(
      `invalid_${kind}_uids`,
      `${kind === 'task' ? 'Task' : 'Batch'} uid \`${text}\` is invalid. It should only contain numeric characters.`,
      400,
    );
  return Number(text);
};
const taskParams = z.object({ taskUid: z.string().transform(readingAs(uidIn('task'))) });
const batchParams = z.object({ batchUid: z.string().transform(readingAs(uidIn('batch'))) });

const taskSchema = z.object({
  uid: z.number(),
  batchUid: z.number(),
  indexUid: z.string().nullable(),
  status: z.enum(['succeeded', 'failed']),
  type: z.enum(taskTypes),
  canceledBy: z.number().nullable(),
  details: z.record(z.string(), z.unknown()),
  error: meiliErrorSchema.nullable(),
  duration: z.string(),
  enqueuedAt: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
});
const batchSchema = z.object({
  uid: z.number(),
  progress: z.null(),
  details: z.record(z.string(), z.unknown()),
  stats: z.object({ totalNbTasks: z.number(), status: counts, types: counts, indexUids: counts }),
  duration: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
  batchStrategy: z.string(),
});
/** A page of tasks or batches, newest first. */
const pageByUid = <T extends z.ZodType>(item: T) =>
  z.object({ results: z.array(item), total: z.number(), limit: z.number(), from: z.number().nullable(), next: z.number().nullable() });

/** A cancelation or deletion: the tasks it is about named in the query string, answered with its task summary. */
const tasksWrite = { ...adminKey, schema: { querystring: meiliQuery, response: { 200: enqueuedTaskSchema, ...refusals } } };

/** What a cancelation or deletion task records as its filter: the query string as sent. */
const originalFilter = (request: FastifyRequest) => `?${request.url.split('?')[1] ?? ''}`;

/** Tasks (listed, read, canceled, deleted) and the batches that ran them: the search admin key only. */
export function meiliTaskRoutes(scope: FastifyInstance, ctx: PlatformContext) {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/meili/tasks',
    { ...adminKey, schema: { querystring: meiliQuery, response: { 200: pageByUid(taskSchema), ...refusals } } },
    async (request) => ctx.search.listTasks(readTaskQuery(request.query)),
  );

  app.get(
    '/meili/tasks/:taskUid',
    { ...adminKey, schema: { params: taskParams, response: { 200: taskSchema, ...refusals } } },
    async (request) => ctx.search.task(request.params.taskUid),
  );

  app.post('/meili/tasks/cancel', tasksWrite, async (request) =>
    ctx.search.cancelTasks(readTaskFilter(request.query, 'cancel'), originalFilter(request)),
  );

  app.delete('/meili/tasks', tasksWrite, async (request) =>
    ctx.search.deleteTasks(readTaskFilter(request.query, 'delete'), originalFilter(request)),
  );

  app.get(
    '/meili/batches',
    { ...adminKey, schema: { querystring: meiliQuery, response: { 200: pageByUid(batchSchema), ...refusals } } },
    async (request) => ctx.search.listBatches(readTaskQuery(request.query)),
  );

  app.get(
    '/meili/batches/:batchUid',
    { ...adminKey, schema: { params: batchParams, response: { 200: batchSchema, ...refusals } } },
    async (request) => ctx.search.batch(request.params.batchUid),
  );
}
