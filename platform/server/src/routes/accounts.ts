import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SiteConfig } from '@dealer/contracts/site';
import type { Shopper } from '../accounts/account-store';
import { accountServicesOf, type AccountServices } from '../accounts/account-services';
import { clearedSessionCookie, sessionIdFromCookies } from '../accounts/session-cookie';
import type { PlatformContext } from '../platform-context';
import { authRoutes } from './auth';
import { garageRoutes } from './garage';

export const noGarageMessage = 'This site has no garage.';
export const signInFirstMessage = 'Please sign in to your garage first.';

/** What the auth and garage routes share: the services, the site with a garage, the signed-in shopper. */
export type AccountRequests = {
  services: AccountServices;
  /** The request's site if it has a garage; null once a 400 or 404 has been sent. */
  garageSite(request: FastifyRequest, reply: FastifyReply): Promise<SiteConfig | null>;
  /** The shopper the session cookie signs in, or null; a cookie that signs nobody in (any more) is cleared. */
  shopperOf(request: FastifyRequest, reply: FastifyReply, site: SiteConfig): Promise<Shopper | null>;
  /** The signed-in shopper; null once a 401 has been sent. */
  signedIn(request: FastifyRequest, reply: FastifyReply, site: SiteConfig): Promise<Shopper | null>;
  /** Whether the request came over https (then the cookie is Secure). */
  secure(request: FastifyRequest): boolean;
};

/**
 * Shopper accounts and the garage (issue 11, SPEC §6 "if garage_enabled, a signed-in user and
 * watchlist are loaded"): `/api/auth/*` (routes/auth.ts) and `/api/garage/*` (routes/garage.ts).
 * The shoppers' mail outbox and the garage alert sweep run once the server listens, where the
 * lead outbox worker runs (LEAD_DELIVERY_WORKER); a test drives them by hand.
 */
export async function accountRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const services = accountServicesOf(ctx, app.log);
  app.addHook('onListen', async () => {
    if (!ctx.config.leads.delivery.worker) return;
    services.mail.start();
    services.alerts.start(ctx.config.accounts.alertIntervalMs);
  });
  app.addHook('onClose', async () => {
    await services.alerts.stop();
    await services.mail.stop();
  });
  // Every answer here is about one shopper: never kept by a cache.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('Cache-Control', 'no-store');
    return payload;
  });

  const secure = (request: FastifyRequest) => request.protocol === 'https';
  const shopperOf = async (request: FastifyRequest, reply: FastifyReply, site: SiteConfig) => {
    const sessionId = sessionIdFromCookies(request.headers.cookie);
    if (sessionId === null) return null;
    const shopper = await services.signIn.shopperOf(site, sessionId);
    if (shopper !== null && shopper !== 'expired') return shopper;
    reply.header('Set-Cookie', clearedSessionCookie(secure(request)));
    return null;
  };
  const requests: AccountRequests = {
    services,
    secure,
    shopperOf,
    async garageSite(request, reply) {
      const site = await ctx.leads.sites.forRequestOrRefuse(request, reply);
      if (!site) return null;
      if (site.garage_enabled) return site;
      await reply.code(404).send({ message: noGarageMessage });
      return null;
    },
    async signedIn(request, reply, site) {
      const shopper = await shopperOf(request, reply, site);
      if (shopper) return shopper;
      await reply.code(401).send({ message: signInFirstMessage });
      return null;
    },
  };
  await authRoutes(app, ctx, requests);
  await garageRoutes(app, ctx, requests);
}
