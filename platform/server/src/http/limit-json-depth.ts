import type { FastifyBodyParser, FastifyInstance } from 'fastify';
import { jsonNestsDeeperThan, jsonTooDeepMessage } from '@dealer/search-engine/json-depth';

/**
 * Replaces the JSON body parser of `app` and the routes registered in it after this call with
 * Fastify's own (prototype poisoning refused) behind the depth check: too deep is a 400.
 */
export function limitJsonDepth(app: FastifyInstance) {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, depthCheckedJsonParser(app));
}

/** Fastify's own JSON parser (prototype poisoning refused) behind the depth check, for a body read as a string. */
export function depthCheckedJsonParser(app: FastifyInstance): FastifyBodyParser<string> {
  const parse = app.getDefaultJsonParser('error', 'error');
  return (request, body, done) => {
    if (jsonNestsDeeperThan(body)) done(Object.assign(new Error(jsonTooDeepMessage), { statusCode: 400 }), undefined);
    else parse(request, body, done);
  };
}
