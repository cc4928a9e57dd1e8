import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** The part of a request a schema judged. */
export type RequestPart = 'body' | 'params' | 'querystring' | 'headers';

/** A route's answer to a request its schema refused: the status and body it sent before schemas judged requests. */
export type SchemaRefusal = { status: number; body: unknown; headers?: Record<string, string> };

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * How the route answers a request its `schema` refuses (the route's own status and message);
     * without it, a 400 `{ message }` with the first problem's message.
     */
    schemaError?: (error: z.ZodError, part: RequestPart, request: FastifyRequest) => SchemaRefusal;
  }
}

/** A request schema's refusal, with zod's error kept for the route's own answer. */
export class RequestSchemaError extends Error {
  readonly statusCode = 400;
  readonly code = 'FST_ERR_VALIDATION';
  constructor(
    readonly zodError: z.ZodError,
    readonly part: RequestPart,
  ) {
    super(zodError.issues[0]?.message ?? `Invalid ${part}.`);
  }
}

/** Validates with the route's zod schema; the parsed (transformed) value is what the handler gets. */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = schema.safeParse(data);
    if (result.success) return { value: result.data };
    return { error: new RequestSchemaError(result.error, (httpPart ?? 'body') as RequestPart) };
  };

/**
 * Responses are sent as the handler made them, never reshaped by the schema (a stripping
 * serializer would drop fields the schema does not name). Outside production (tests, dev) each
 * is checked against its schema first, and a mismatch is a 500 naming the route; in production
 * it is only JSON.stringify, so the search endpoints stay fast.
 */
export function checkingSerializerCompiler(production: boolean): FastifySerializerCompiler<z.ZodType> {
  return ({ schema, method, url }) => {
    if (production) return (data) => JSON.stringify(data);
    return (data) => {
      const result = schema.safeParse(data);
      if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
      return JSON.stringify(data);
    };
  };
}

/** Zod request schemas and checked response schemas for every route of `app`. */
export function applyZodSchemas(app: FastifyInstance, production = process.env.NODE_ENV === 'production') {
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(checkingSerializerCompiler(production));
}

/** The route's own answer to a request its schema refused. */
export function sendSchemaRefusal(error: RequestSchemaError, request: FastifyRequest, reply: FastifyReply) {
  const answer = request.routeOptions.config.schemaError?.(error.zodError, error.part, request) ?? {
    status: 400,
    body: { message: error.message },
  };
  if (answer.headers) void reply.headers(answer.headers);
  return reply.code(answer.status).send(answer.body);
}

/** `{ message }`: an answer in words. */
export const messageSchema = z.object({ message: z.string() });
/**
 * The platform API's refusal: `{ message }`, with `fields` for a form's. Any 4xx may come from
 * Fastify itself through the error handler (bad JSON, a body too large) as a plain `{ message }`,
 * so every 4xx schema allows that.
 */
export const refusalSchema = z.object({ message: z.string(), fields: z.record(z.string(), z.string()).optional() });
/** An answer with no body (204). */
export const noContentSchema = z.undefined();
