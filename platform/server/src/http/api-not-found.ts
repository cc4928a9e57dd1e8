import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { refusalSchema } from './zod-schemas';

/** The 404 of an API address no route answers. */
const noApiRouteMessage = (method: string, url: string) => `No API route for ${method} ${url.split('?', 1)[0]!.slice(0, 200)}.`;

const refuse = async (request: FastifyRequest, reply: FastifyReply) =>
  reply.code(404).send({ message: noApiRouteMessage(request.method, request.url) });

/**
 * `/api` and every address under it that no route answers: a JSON 404 naming it, for any method.
 * Without it a GET fell through to the site's catch-all page (an HTML 404 a client cannot read)
 * and other methods to Fastify's own 404. Routes of their own always win over these. Answered
 * before any body is read, so a post to nowhere is not parsed (nor refused for its content type).
 */
export function apiNotFound(app: FastifyInstance) {
  const options = { schema: { response: { 404: refusalSchema } }, onRequest: refuse };
  app.all('/api', options, refuse);
  app.all('/api/*', options, refuse);
}
