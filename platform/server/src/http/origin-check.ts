import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SiteConfig } from '@dealer/contracts/site';
import { requestOrigin } from '../tenancy/site-context';

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A public write that a page on another website could make a shopper's browser send: a form post
 * as multipart or text/plain needs no CORS preflight. The admin API wants its bearer key and
 * `/meili` is a CORS API with keys, so neither is one.
 */
export function isPublicWrite(method: string, url: string): boolean {
  if (!unsafeMethods.has(method)) return false;
  const path = url.split('?', 1)[0]!;
  if (path.startsWith('/api/admin/')) return false;
  // RFC 8058 one-click unsubscribe: a mail provider posts it, from wherever it runs; the signed token is its proof.
  if (path === '/api/unsubscribe/one-click') return false;
  return path.startsWith('/api/') || path.startsWith('/mock/');
}

/** An http(s) origin, normalised as a browser writes it (lower case, its scheme's own port left out); null for `null`, other schemes and anything unreadable. */
function webOrigin(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

type SiteOf = (request: FastifyRequest) => Promise<Pick<SiteConfig, 'domain_name'> | null>;

/**
 * Refuses, with a 403, a public write whose Origin is not one of the site's own: scheme, host and
 * port all alike. Those are the address the request was made to (its Host, over the scheme it came
 * by: the connection's own, or a trusted proxy's X-Forwarded-Proto), so locally
 * `http://{slug}.localhost:PORT`; and the site's domain over https, where its pages are served in
 * production (also when a TLS proxy is not yet in TRUSTED_PROXIES). A page of the site over plain
 * http (anyone on the shopper's network can write into it) or on another port (another program on
 * that host) is not the site.
 * Requests without an Origin (servers, curl, old clients) pass: browsers always send one with a
 * cross-site POST.
 */
export function refuseForeignOrigins(app: FastifyInstance, deps: { siteOf: SiteOf }) {
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (origin === undefined || !isPublicWrite(request.method, request.url)) return;
    const web = webOrigin(origin);
    if (web && web === webOrigin(requestOrigin(request))) return;
    if (web) {
      const domain = (await deps.siteOf(request))?.domain_name?.trim().replace(/\.$/, '');
      if (domain && web === webOrigin(`https://${domain}`)) return;
    }
    return reply
      .code(403)
      .header('Cache-Control', 'no-store')
      .send({ message: `This dealer site only accepts forms sent from its own pages, not from ${origin.slice(0, 200)}.` });
  });
}
