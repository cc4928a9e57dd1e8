import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  readDocumentIdList,
  readDocumentQuery,
  readDocumentsDeletion,
  readDocumentsFetch,
  readDocumentsPayload,
  readDocumentsQuery,
  type DocumentsQuery,
} from '@dealer/search-engine/documents-request';
import { MeiliError } from '@dealer/search-engine/search-errors';
import type { PlatformContext } from '../../platform-context';
import { adminKey, adminKeyDocuments, documentsBodyLimit } from './meili-access';
import {
  documentSchema,
  enqueuedTaskSchema,
  indexParams,
  indexWrite,
  meiliQuery,
  objectOrEmptyBody,
  readingAs,
  refusals,
} from './meili-schemas';

const documentParams = z.object({ uid: z.string(), id: z.string() });
const documentsPageSchema = z.object({ results: z.array(documentSchema), offset: z.number(), limit: z.number(), total: z.number() });
/** `POST /documents/delete-batch`: the ids of the documents to delete. */
const documentIdsBody = z.unknown().transform(readingAs(readDocumentIdList));
const documentsPage = { ...adminKey, schema: { params: indexParams, response: { 200: documentsPageSchema, ...refusals } } };

/** An index's documents (listed, fetched, added, deleted): the search admin key only. */
export function meiliDocumentRoutes(scope: FastifyInstance, ctx: PlatformContext) {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  function browseDocuments(uid: string, query: DocumentsQuery) {
    const index = ctx.search.existingIndex(uid);
    const { offset = 0, limit = 20, fields, ids } = query;
    let docs = index.matching(query.filter);
    if (ids) {
      const wanted = new Set(ids);
      docs = docs.filter((doc) => wanted.has(String(doc[index.primaryKey ?? 'id'])));
    }
    return { results: docs.slice(offset, offset + limit).map((doc) => index.shown(doc, fields)), offset, limit, total: docs.length };
  }

  app.get(
    '/meili/indexes/:uid/documents',
    { ...documentsPage, schema: { ...documentsPage.schema, querystring: meiliQuery } },
    async (request) => browseDocuments(request.params.uid, readDocumentsQuery(request.query)),
  );

  app.post(
    '/meili/indexes/:uid/documents/fetch',
    { ...documentsPage, schema: { ...documentsPage.schema, body: objectOrEmptyBody } },
    async (request) => browseDocuments(request.params.uid, readDocumentsFetch(request.body)),
  );

  app.get(
    '/meili/indexes/:uid/documents/:id',
    { ...adminKey, schema: { params: documentParams, querystring: meiliQuery, response: { 200: documentSchema, ...refusals } } },
    async (request) => {
      const { fields } = readDocumentQuery(request.query);
      const index = ctx.search.existingIndex(request.params.uid);
      const doc = index.get(request.params.id);
      if (!doc) throw new MeiliError('document_not_found', `Document \`${request.params.id}\` not found.`, 404);
      return index.shown(doc, fields);
    },
  );

  app.route({
    ...adminKeyDocuments,
    method: ['POST', 'PUT'],
    url: '/meili/indexes/:uid/documents',
    // The documents as JSON, NDJSON or CSV text: `readDocumentsPayload` reads them in the format the Content-Type names.
    schema: { params: indexParams, querystring: meiliQuery, body: z.unknown(), response: { 202: enqueuedTaskSchema, ...refusals } },
    handler: async (request, reply) => {
      const { docs, primaryKey } = readDocumentsPayload({
        query: request.query,
        mediaType: request.mediaType,
        contentType: request.headers['content-type'],
        body: request.body,
      });
      // PUT updates documents field by field, POST replaces them, as in Meilisearch.
      return reply.code(202).send(ctx.search.addDocuments(request.params.uid, docs, { primaryKey, merge: request.method === 'PUT' }));
    },
  });

  app.post(
    '/meili/indexes/:uid/documents/delete-batch',
    { ...indexWrite, schema: { ...indexWrite.schema, body: documentIdsBody }, bodyLimit: documentsBodyLimit },
    async (request, reply) => reply.code(202).send(ctx.search.deleteDocuments(request.params.uid, request.body)),
  );

  app.post(
    '/meili/indexes/:uid/documents/delete',
    { ...indexWrite, schema: { ...indexWrite.schema, body: objectOrEmptyBody } },
    async (request, reply) =>
      reply.code(202).send(ctx.search.deleteDocumentsByFilter(request.params.uid, readDocumentsDeletion(request.body))),
  );

  app.delete(
    '/meili/indexes/:uid/documents/:id',
    { ...indexWrite, schema: { ...indexWrite.schema, params: documentParams } },
    async (request, reply) => reply.code(202).send(ctx.search.deleteDocuments(request.params.uid, [request.params.id])),
  );

  app.delete('/meili/indexes/:uid/documents', indexWrite, async (request, reply) =>
    reply.code(202).send(ctx.search.deleteAllDocuments(request.params.uid)),
  );
}
