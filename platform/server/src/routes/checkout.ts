import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkoutPath } from '@dealer/rules/routes';
import { clientAddressKey } from '../http/client-address';
import { RateLimiter, retryAfterText } from '@dealer/leads/spam';
import type { CheckoutReply, ReservationService } from '../payments/reservation-service';
import type { PlatformContext } from '../platform-context';

/** A checkout body is a few contact fields or a card: anything larger is not one. */
const checkoutBodyLimit = 8 * 1024;
/** Provider notifications carry a whole PaymentIntent; Stripe's are well under this. */
const noticeBodyLimit = 256 * 1024;
/** Holds one address may start on a site in 15 minutes: a family comparing cars, not someone holding the yard. */
export const holdRateLimit = { max: 10, windowMs: 15 * 60_000 } as const;
/** Card tries one address may make in 10 minutes (card testing gets nowhere). */
export const cardTryRateLimit = { max: 20, windowMs: 10 * 60_000 } as const;

const tokenHeader = 'x-reservation-token';
const hostedGateways = ['till', 'st_george'] as const;

/**
 * Reserve-a-car checkout (issue 10):
 * - `POST /api/cars/:slug/reservations` holds the car and starts the deposit payment;
 * - `GET|DELETE /api/reservations/:id` reads or gives up the shopper's own reservation, and
 *   `POST /api/reservations/:id/test-payment` pays it with a test card (test provider only), each
 *   with the `X-Reservation-Token` the hold answered with;
 * - `POST /api/payments/stripe/webhook` and `/api/payments/{till,st_george}/notify` take the
 *   providers' signed notifications, read raw so the signature can be checked.
 */
export async function checkoutRoutes(app: FastifyInstance, ctx: PlatformContext, checkout: ReservationService) {
  const perClient = ctx.config.leads.rateLimit.max > 0;
  const holdLimiter = new RateLimiter(perClient ? holdRateLimit.max : 0, holdRateLimit.windowMs);
  const cardLimiter = new RateLimiter(perClient ? cardTryRateLimit.max : 0, cardTryRateLimit.windowMs);

  const siteOf = (request: FastifyRequest, reply: FastifyReply) => ctx.leads.sites.forRequestOrRefuse(request, reply);

  const send = (reply: FastifyReply, answer: CheckoutReply) => reply.code(answer.status).header('Cache-Control', 'no-store').send(answer.body);
  const tokenOf = (request: FastifyRequest) => {
    const raw = request.headers[tokenHeader];
    const token = Array.isArray(raw) ? raw[0] : raw;
    return token && token.length <= 100 ? token : null;
  };
  const idOf = (raw: string) => (/^\d{1,15}$/.test(raw) ? Number(raw) : 0);
  const limited = (reply: FastifyReply, limiter: RateLimiter, key: string, what: string) => {
    const taken = limiter.take(key);
    if (taken.ok) return false;
    void reply
      .code(429)
      .header('Retry-After', String(Math.ceil(taken.retryAfterMs / 1000)))
      .send({ message: `Too many ${what} from your connection. Please try again in ${retryAfterText(taken.retryAfterMs)}, or call the dealership.` });
    return true;
  };

  app.post<{ Params: { slug: string } }>('/api/cars/:slug/reservations', { bodyLimit: checkoutBodyLimit }, async (request, reply) => {
    const site = await siteOf(request, reply);
    if (!site) return reply;
    if (limited(reply, holdLimiter, `${site.id}|${clientAddressKey(request.ip)}`, 'reservations')) return reply;
    // The Host the site was found by, not X-Forwarded-Host: a gateway returns the shopper to this address.
    const origin = `${request.protocol}://${request.headers.host}`;
    return send(
      reply,
      await checkout.hold({
        site,
        slug: request.params.slug,
        body: request.body,
        returnUrl: (id) => `${origin}${checkoutPath(site, request.params.slug)}?reservation=${id}`,
      }),
    );
  });

  app.get<{ Params: { id: string } }>('/api/reservations/:id', async (request, reply) => {
    const site = await siteOf(request, reply);
    if (!site) return reply;
    return send(reply, await checkout.status(site, idOf(request.params.id), tokenOf(request)));
  });

  app.delete<{ Params: { id: string } }>('/api/reservations/:id', async (request, reply) => {
    const site = await siteOf(request, reply);
    if (!site) return reply;
    return send(reply, await checkout.cancel(site, idOf(request.params.id), tokenOf(request)));
  });

  app.post<{ Params: { id: string } }>('/api/reservations/:id/test-payment', { bodyLimit: checkoutBodyLimit }, async (request, reply) => {
    const site = await siteOf(request, reply);
    if (!site) return reply;
    if (limited(reply, cardLimiter, `${site.id}|${clientAddressKey(request.ip)}`, 'card payments')) return reply;
    return send(reply, await checkout.payWithTestCard(site, idOf(request.params.id), tokenOf(request), request.body));
  });

  // Notifications are read as bytes: a signature covers the body exactly as it was sent.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: noticeBodyLimit }, (_request, body, done) => done(null, body));
    const notice = async (request: FastifyRequest, reply: FastifyReply, kind: 'stripe' | (typeof hostedGateways)[number]) => {
      const site = await siteOf(request, reply);
      if (!site) return reply;
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      return send(reply, await checkout.notice(site, kind, body, request.headers));
    };
    scope.post('/api/payments/stripe/webhook', { bodyLimit: noticeBodyLimit }, (request, reply) => notice(request, reply, 'stripe'));
    for (const kind of hostedGateways) {
      scope.post(`/api/payments/${kind}/notify`, { bodyLimit: noticeBodyLimit }, (request, reply) => notice(request, reply, kind));
    }
  });
}
