import type { FastifyInstance } from 'fastify';
import { jsonNestsDeeperThan, jsonTooDeepMessage } from '@dealer/search-engine/json-depth';

/**
 * Replaces the JSON body parser of `app` and the routes registered in it after this call with
 * Fastify's own (prototype poisoning refused) behind the depth check: too deep is a 400.
 */
export function limitJsonDepth(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonNestsDeeperThan(body as string)) done(Object.assign(new Error(jsonTooDeepMessage), { statusCode: 400 }), undefined);
    else parse(request, body as string, done);
  });
}
