import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Shopper } from '../accounts/account-store';
import type { AccountServices } from '../accounts/account-services';

/** What the auth and garage routes share: the services, the site with a garage, the signed-in shopper. */
export type AccountRequests = {
  services: AccountServices;
  /** The shopper the session cookie signs in on the request's site, or null; a cookie that signs nobody in (any more) is cleared. */
  shopperOf(request: FastifyRequest, reply: FastifyReply): Promise<Shopper | null>;
  /** A route hook (`preValidation` or `preHandler`): a 401 unless a shopper is signed in, whom `shopper(request)` then names. */
  signedIn(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
  /** The shopper the route's `signedIn` hook found. */
  shopper(request: FastifyRequest): Shopper;
  /** Whether the request came over https (then the cookie is Secure). */
  secure(request: FastifyRequest): boolean;
};
