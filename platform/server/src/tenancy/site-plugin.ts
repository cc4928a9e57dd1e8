import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SiteConfig } from '@dealer/contracts/site';
import { siteDeps, type PlatformContext } from '../platform-context';
import { resolveSite, type KnownSite, type SiteContext } from './site-context';

/**
 * What a route needs of the request's site, in its route options (`config: { site: ... }`):
 * - `'required'`: the site from the short-lived SiteCache (the API hot path: leads, chat, garage,
 *   checkout); a malformed Host is answered 400 and a host no site serves 404 before the handler;
 * - `'fresh'`: the same answers, but the site read fresh from the store, with its public config
 *   (`request.siteContext()`), so a dealer's switch applies on the next request.
 * Routes that need the 'index' / 'invalid' distinctions (the document, robots.txt, the sitemap)
 * or can do without a site call `request.siteContext()` themselves.
 */
export type SiteNeed = 'required' | 'fresh';

export type SiteLookup = SiteContext | 'index' | 'invalid' | null;

declare module 'fastify' {
  interface FastifyContextConfig {
    site?: SiteNeed;
  }
  interface FastifyRequest {
    /** The request's site, on a route with `config.site` (reading it elsewhere is a bug, and throws). */
    readonly site: SiteConfig;
    /**
     * The request's site read fresh, with its public config and origin; looked up once per request
     * however often it is asked for. `known`: what the first caller already read of it (its id and stamp).
     */
    siteContext(known?: KnownSite): Promise<SiteLookup>;
  }
}

export const siteRefusals = {
  invalidHost: 'The Host header is not a valid host name.',
  noSite: 'No dealer site is served at this address.',
} as const;

export type SitePluginOptions = {
  /** The site read fresh from the store (tenancy/site-context.ts resolveSite). */
  fresh(request: FastifyRequest, known?: KnownSite): Promise<SiteLookup>;
  /** The site from the TTL cache (tenancy/site-cache.ts SiteCache.forRequest). */
  cached(request: FastifyRequest): Promise<SiteConfig | 'invalid' | null>;
};

const resolvedSites = new WeakMap<FastifyRequest, SiteConfig>();
const freshLookups = new WeakMap<FastifyRequest, Promise<SiteLookup>>();

/**
 * Resolves the tenant once per request: `request.site` on routes that declare `config.site`,
 * answered 400 / 404 `{ message }` before validation and the handler when there is none, and
 * `request.siteContext()` (memoised) for the routes that read the site fresh. Registered with
 * fastify-plugin, so its hook and decorators apply to every route of the app.
 */
export const sitePlugin = fp<SitePluginOptions>(
  async (app, options) => {
    app.decorateRequest('siteContext', function siteContext(this: FastifyRequest, known?: KnownSite) {
      let lookup = freshLookups.get(this);
      if (!lookup) {
        lookup = options.fresh(this, known);
        freshLookups.set(this, lookup);
      }
      return lookup;
    });
    app.decorateRequest('site', {
      getter(this: FastifyRequest) {
        const site = resolvedSites.get(this);
        if (!site)
          throw new Error(`request.site was read on ${this.method} ${this.routeOptions.url ?? this.url}, a route without config.site.`);
        return site;
      },
    });

    // Before validation: a request to no site is refused before its body or parameters are judged.
    app.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
      const need = request.routeOptions.config.site;
      if (!need) return;
      let site: SiteConfig | 'invalid' | null;
      if (need === 'fresh') {
        const lookup = await request.siteContext();
        site = lookup === 'invalid' ? 'invalid' : lookup === 'index' || lookup === null ? null : lookup.site;
      } else site = await options.cached(request);
      if (site === 'invalid') return reply.code(400).send({ message: siteRefusals.invalidHost });
      if (!site) return reply.code(404).send({ message: siteRefusals.noSite });
      resolvedSites.set(request, site);
    });
  },
  { name: 'dealer-site', fastify: '5.x' },
);

/** The fresh site context of a route with `config.site: 'fresh'` (resolved by the plugin's hook before the handler). */
export async function freshSiteContext(request: FastifyRequest): Promise<SiteContext> {
  const lookup = await request.siteContext();
  if (typeof lookup !== 'object' || lookup === null)
    throw new Error(`${request.method} ${request.url}: siteContext() is read on a route without config.site 'fresh'.`);
  return lookup;
}

/** The plugin's lookups on the platform: fresh from the store (resolveSite), or through the platform's SiteCache. */
export const sitePluginOptions = (ctx: PlatformContext): SitePluginOptions => ({
  fresh: (request, known) => resolveSite(request, siteDeps(ctx), known),
  cached: (request) => ctx.sites.forRequest(request),
});
