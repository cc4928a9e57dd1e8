import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Shopper } from '../accounts/account-store';
import { clearedSessionCookie, sessionIdFromCookies } from '../accounts/session-cookie';
import type { PlatformContext } from '../platform-context';
import type { AccountRequests } from './account-requests';
import { authRoutes } from './auth';
import { garageRoutes } from './garage';

export const noGarageMessage = 'This site has no garage.';
export const signInFirstMessage = 'Please sign in to your garage first.';

/**
 * Shopper accounts and the garage (issue 11, SPEC §6 "if garage_enabled, a signed-in user and
 * watchlist are loaded"): `/api/auth/*` (routes/auth.ts) and `/api/garage/*` (routes/garage.ts).
 * The shoppers' mail outbox and the garage alert sweep are run by workers.ts.
 */
export async function accountRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const services = ctx.accounts;
  // Every route here is a site's (config.site): a site without a garage answers 404.
  app.addHook('preValidation', async (request, reply) => {
    if (!request.site.garage_enabled) return reply.code(404).send({ message: noGarageMessage });
  });
  // Every answer here is about one shopper: never kept by a cache.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('Cache-Control', 'no-store');
    return payload;
  });

  const secure = (request: FastifyRequest) => request.protocol === 'https';
  const shopperOf = async (request: FastifyRequest, reply: FastifyReply) => {
    const sessionId = sessionIdFromCookies(request.headers.cookie);
    if (sessionId === null) return null;
    const shopper = await services.signIn.shopperOf(request.site, sessionId);
    if (shopper !== null && shopper !== 'expired') return shopper;
    reply.header('Set-Cookie', clearedSessionCookie(secure(request)));
    return null;
  };
  const signedInShoppers = new WeakMap<FastifyRequest, Shopper>();
  const requests: AccountRequests = {
    services,
    secure,
    shopperOf,
    async signedIn(request, reply) {
      const shopper = await shopperOf(request, reply);
      if (!shopper) return reply.code(401).send({ message: signInFirstMessage });
      signedInShoppers.set(request, shopper);
      return undefined;
    },
    shopper(request) {
      const shopper = signedInShoppers.get(request);
      if (!shopper) throw new Error(`${request.method} ${request.url}: no signedIn hook found the shopper.`);
      return shopper;
    },
  };
  await authRoutes(app, ctx, requests);
  await garageRoutes(app, ctx, requests);
}
