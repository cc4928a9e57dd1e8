import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SiteConfig } from '@dealer/contracts/site';
import { parseHost } from '../tenancy/site-host';

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
  return path.startsWith('/api/') || path.startsWith('/mock/');
}

/** Host name and port of a Host header or an origin's host; the port is '' when not written. */
function hostAndPort(host: string): { name: string; port: string } | null {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(host.trim());
  return match ? { name: match[1]!.toLowerCase().replace(/\.$/, ''), port: match[2] ?? '' } : null;
}

/** An origin's host names the request's host when the names agree and so do the ports both write (an origin leaves out its scheme's port). */
function sameHost(originHost: string, requestHost: string | undefined): boolean {
  const a = hostAndPort(originHost);
  const b = requestHost ? hostAndPort(requestHost) : null;
  return !!a && !!b && a.name === b.name && (a.port === b.port || a.port === '' || b.port === '');
}

/** An http(s) origin as a URL; null for `null`, other schemes and anything unreadable. */
function webOrigin(origin: string): URL | null {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

type SiteOf = (request: FastifyRequest) => Promise<Pick<SiteConfig, 'slug' | 'domain_name'> | null>;

/**
 * Refuses, with a 403, a public write whose Origin is not the site its Host names: its own address,
 * or another address of the same site (its slug host or its domain). Requests without an Origin
 * (servers, curl, old clients) pass: browsers always send one with a cross-site POST.
 */
export function refuseForeignOrigins(app: FastifyInstance, deps: { siteOf: SiteOf; publicOriginSuffix: string | null }) {
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (origin === undefined || !isPublicWrite(request.method, request.url)) return;
    const web = webOrigin(origin);
    if (web && sameHost(web.host, request.headers.host)) return;
    if (web) {
      const site = await deps.siteOf(request);
      const target = parseHost(web.host, deps.publicOriginSuffix);
      const domain = site?.domain_name?.trim().toLowerCase().replace(/\.$/, '');
      if (site && target.kind === 'slug' && target.slug === site.slug) return;
      if (site && target.kind === 'domain' && domain && target.domain === domain) return;
    }
    return reply
      .code(403)
      .header('Cache-Control', 'no-store')
      .send({ message: `This dealer site only accepts forms sent from its own pages, not from ${origin.slice(0, 200)}.` });
  });
}
