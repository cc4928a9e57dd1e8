/**
 * Every console route's access, decided here and nowhere else: the route says in `config.console`
 * what it needs (`public`, `signed-in`, or an action of the policy table, console-policy.ts), and
 * this guard checks it before the request's parameters are judged. Console routes answer on the
 * console's host only; a route under /api/console without `config.console` is refused, so a new
 * route cannot skip the policy (and the authorization matrix test finds it).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { consoleSiteBySlug, type ConsoleSite, type ConsoleUser } from '@dealer/db/console-account-store';
import { consoleSessionFromCookies } from '../../console/console-cookie';
import { mayAct, mayActOnPlatform, type ConsoleAction } from '../../console/console-policy';
import type { PlatformContext } from '../../platform-context';
import { isConsoleHost } from '../../tenancy/site-host';

export type ConsoleAccess = 'public' | 'signed-in' | ConsoleAction;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A console route: who may call it (routes/console/console-access.ts). */
    console?: ConsoleAccess;
  }
}

export type ConsoleRequests = {
  /** The signed-in user (routes that are not public). */
  userOf(request: FastifyRequest): ConsoleUser;
  /** The site named by `:site`, once the user's role on it allowed the route's action. */
  siteOf(request: FastifyRequest): ConsoleSite;
  /** The `dc_session` value the request came with. */
  sessionIdOf(request: FastifyRequest): string | null;
};

export const consoleRefusals = {
  signIn: 'Sign in to the dealer console first.',
  role: 'Your role does not allow this on this site.',
  unknownSite: 'There is no such site.',
  notConsole: 'The dealer console answers on its own address (console.…).',
  noPolicy: 'This console route has no entry in the policy table.',
} as const;

export function guardConsoleRoutes(app: FastifyInstance, ctx: PlatformContext): ConsoleRequests {
  const users = new WeakMap<FastifyRequest, ConsoleUser>();
  const sites = new WeakMap<FastifyRequest, ConsoleSite>();

  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      ctx.console.routes.push({ method, url: route.url, access: route.config?.console });
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    if (!isConsoleHost(request.headers.host, ctx.config.publicOriginSuffix))
      return reply.code(404).header('Cache-Control', 'no-store').send({ message: consoleRefusals.notConsole });
    void reply.header('Cache-Control', 'no-store');
  });

  // Before the body is read: nobody may make the server hold a body it will refuse.
  app.addHook('onRequest', async (request, reply) => {
    if (reply.sent) return;
    const need = request.routeOptions.config.console;
    if (need === undefined) return reply.code(500).send({ message: consoleRefusals.noPolicy });
    if (need === 'public') return;
    const user = await ctx.console.signIn.userOf(consoleSessionFromCookies(request.headers.cookie));
    if (!user) return reply.code(401).send({ message: consoleRefusals.signIn });
    users.set(request, user);
    if (need === 'signed-in') return;
    const slug = (request.params as { site?: unknown }).site;
    // A route that names no site asks the platform: only a role that may act on every site may call it.
    if (!request.routeOptions.url?.includes(':site')) {
      if (!mayActOnPlatform(user, need)) return reply.code(403).send({ message: consoleRefusals.role });
      return;
    }
    const site = typeof slug === 'string' ? await consoleSiteBySlug(ctx.db, slug) : null;
    if (!site) return reply.code(404).send({ message: consoleRefusals.unknownSite });
    if (!mayAct(user, need, site)) return reply.code(403).send({ message: consoleRefusals.role });
    sites.set(request, site);
  });

  return {
    userOf: (request) => users.get(request)!,
    siteOf: (request) => sites.get(request)!,
    sessionIdOf: (request) => consoleSessionFromCookies(request.headers.cookie),
  };
}
