import type { FastifyInstance } from 'fastify';
import { requestOrigin } from '../tenancy/site-context';

/**
 * Strict-Transport-Security on every answer to a request that came over https: the connection's
 * own TLS, or a trusted proxy's X-Forwarded-Proto (requestOrigin believes no one else). Never over
 * plain http, where a browser ignores it and a local `{slug}.localhost` site must stay reachable.
 * Without includeSubDomains: a dealer's domain is the dealer's, and names under it (their mail,
 * their other systems) may not speak https; the platform vouches only for the host it answers on.
 */
export function strictTransportOverHttps(app: FastifyInstance, maxAgeSeconds: number) {
  const value = `max-age=${maxAgeSeconds}`;
  app.addHook('onRequest', async (request, reply) => {
    if (requestOrigin(request).startsWith('https://')) reply.header('Strict-Transport-Security', value);
  });
}
