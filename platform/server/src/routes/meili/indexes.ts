import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readIndexCreation, readIndexesPage, readIndexUpdate } from '@dealer/search-engine/indexes-request';
import type { PlatformContext } from '../../platform-context';
import { adminKey } from './meili-access';
import {
  indexParams,
  indexStatsSchema,
  indexWrite,
  meiliQuery,
  objectBody,
  readingAs,
  refusals,
  enqueuedTaskSchema,
} from './meili-schemas';

const indexSchema = z.object({ uid: z.string(), primaryKey: z.string().nullable(), createdAt: z.string(), updatedAt: z.string() });
const indexesPageSchema = z.object({ results: z.array(indexSchema), offset: z.number(), limit: z.number(), total: z.number() });
/** `PATCH /indexes/:uid`: `{ primaryKey }`, a string or null. */
const indexUpdateBody = z.unknown().transform(readingAs(readIndexUpdate));

/** Indexes (listed, made, read, given a primary key, deleted): the search admin key only. */
export function meiliIndexRoutes(scope: FastifyInstance, ctx: PlatformContext) {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/meili/indexes',
    { ...adminKey, schema: { querystring: meiliQuery, response: { 200: indexesPageSchema, ...refusals } } },
    async (request) => {
      const { offset, limit } = readIndexesPage(request.query);
      return ctx.search.listIndexes(offset, limit);
    },
  );

  app.post(
    '/meili/indexes',
    { ...adminKey, schema: { body: objectBody, response: { 202: enqueuedTaskSchema, ...refusals } } },
    async (request, reply) => {
      const { uid, primaryKey } = readIndexCreation(request.body);
      return reply.code(202).send(ctx.search.createIndex(uid, primaryKey));
    },
  );

  app.get(
    '/meili/indexes/:uid',
    { ...adminKey, schema: { params: indexParams, response: { 200: indexSchema, ...refusals } } },
    async (request) => ctx.search.existingIndex(request.params.uid).info(),
  );

  app.get(
    '/meili/indexes/:uid/stats',
    { ...adminKey, schema: { params: indexParams, response: { 200: indexStatsSchema, ...refusals } } },
    async (request) => ctx.search.existingIndex(request.params.uid).stats(),
  );

  app.patch('/meili/indexes/:uid', { ...indexWrite, schema: { ...indexWrite.schema, body: indexUpdateBody } }, async (request, reply) =>
    reply.code(202).send(ctx.search.updateIndex(request.params.uid, request.body.primaryKey)),
  );

  app.delete('/meili/indexes/:uid', indexWrite, async (request, reply) => reply.code(202).send(ctx.search.deleteIndex(request.params.uid)));
}
