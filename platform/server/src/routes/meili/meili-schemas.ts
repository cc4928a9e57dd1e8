import { z } from 'zod';
import { invalidType, isPlainObject } from '@dealer/search-engine/meili-values';
import { MeiliError } from '@dealer/search-engine/search-errors';
import { taskTypes } from '@dealer/search-engine/task-queue';
import type { RequestSchemaError } from '../../http/zod-schemas';
import { adminKey } from './meili-access';

/*
 * The schemas every resource under `/meili` shares: what Fastify sees of a request, refused as
 * Meilisearch refuses it, and the answers several routes give. A resource's own schemas sit
 * beside its routes.
 */

/**
 * A zod transform by `read`, which throws Meilisearch's own error for what it refuses. The error
 * rides on the zod issue to the error handler (`asMeiliError`), which answers with it, so a
 * schema's refusal is the one Meilisearch gives and the official client raises its code.
 */
export const readingAs =
  <In, Out>(read: (value: In) => Out) =>
  (value: In, ctx: z.RefinementCtx<In>): Out => {
    try {
      return read(value);
    } catch (error) {
      if (!(error instanceof MeiliError)) throw error;
      ctx.addIssue({ code: 'custom', message: error.message, params: { meiliError: error } });
      return z.NEVER;
    }
  };

/** The Meilisearch error a schema's reader raised (see `readingAs`), if that is why it refused the request. */
export function raisedBySchema(error: RequestSchemaError): MeiliError | undefined {
  const issue = error.zodError.issues[0];
  const raised: unknown = issue?.code === 'custom' ? issue.params?.meiliError : undefined;
  return raised instanceof MeiliError ? raised : undefined;
}

/** A JSON object, else Meilisearch's refusal naming what came instead. */
function jsonObject(body: unknown): Record<string, unknown> {
  if (!isPlainObject(body)) throw invalidType('bad_request', '', 'an object', body ?? null);
  return body;
}

/** A body that must be a JSON object (a new index, settings); the route reads its fields. */
export const objectBody = z.unknown().transform(readingAs(jsonObject));
/** A search, fetch or delete body: a JSON object, none at all (or null) being `{}`, as Meilisearch reads it; the engine reads its fields. */
export const readObjectOrEmpty = (body: unknown) => (body === undefined || body === null ? {} : jsonObject(body));
export const objectOrEmptyBody = z.unknown().transform(readingAs(readObjectOrEmpty));

/**
 * A query string as Fastify reads it: each parameter a string, or its values when repeated. The
 * engine reads the parameters, refusing a name it does not know as Meilisearch does, so the query
 * is handed on as it came (a copy would drop a name such as `__proto__` instead).
 */
export const meiliQuery = z.custom<Record<string, string | string[]>>(
  (query) =>
    isPlainObject(query) &&
    Object.values(query).every(
      (value) => typeof value === 'string' || (Array.isArray(value) && value.every((item) => typeof item === 'string')),
    ),
);

export const indexParams = z.object({ uid: z.string() });

/** Meilisearch's error body: what every refusal on `/meili` answers, so the official client raises its MeilisearchApiError. */
export const meiliErrorSchema = z.object({
  message: z.string(),
  code: z.string(),
  type: z.enum(['invalid_request', 'auth', 'internal', 'system']),
  link: z.string(),
});
export const refusals = { '4xx': meiliErrorSchema, 500: meiliErrorSchema };

/** A write's answer: Meilisearch's summarized task. */
export const enqueuedTaskSchema = z.object({
  taskUid: z.number(),
  indexUid: z.string().nullable(),
  status: z.literal('enqueued'),
  type: z.enum(taskTypes),
  enqueuedAt: z.string(),
});
/** A write's options: the search admin key, the index in the path, answered with the task summary. */
export const indexWrite = { ...adminKey, schema: { params: indexParams, response: { 202: enqueuedTaskSchema, ...refusals } } };

export const counts = z.record(z.string(), z.number());
export const indexStatsSchema = z.object({ numberOfDocuments: z.number(), isIndexing: z.boolean(), fieldDistribution: counts });
export const documentSchema = z.record(z.string(), z.unknown());
