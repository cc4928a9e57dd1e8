import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkoutPath } from '@dealer/rules/routes';
import { clientAddressKey } from '../http/client-address';
import { RateLimiter } from '@dealer/leads/spam';
import type { CheckoutRefusalReason, CheckoutResult } from '../payments/reservation-service';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { refusalSchema } from '../http/zod-schemas';
import type { PlatformContext } from '../platform-context';
import { tooManyRequests } from '../http/too-many-requests';

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
/** The HTTP answer to each of the checkout's refusals. */
export const checkoutRefusalStatus: Record<CheckoutRefusalReason, number> = {
  'no-checkout': 403,
  invalid: 400,
  'not-found': 404,
  conflict: 409,
  // A limit on the shopper, not on the car: Retry-After says when a hold of theirs runs out.
  'too-many-holds': 429,
  declined: 402,
  'payments-unavailable': 503,
  'provider-failed': 502,
};

/** A checkout result as HTTP: its value with `okStatus`, or `{ message, fields? }` with the refusal's status (and Retry-After when it says). */
export function sendCheckoutResult<T>(reply: FastifyReply, result: CheckoutResult<T>, okStatus: number) {
  if (result.ok) return reply.code(okStatus).send(result.value);
  const { reason, message, fields, retryAfterMs } = result;
  if (retryAfterMs !== undefined) reply.header('Retry-After', String(Math.ceil(retryAfterMs / 1000)));
  return reply.code(checkoutRefusalStatus[reason]).send(fields ? { message, fields } : { message });
}

const reservationViewSchema = z.object({
  id: z.number(),
  state: z.string(),
  car: z.object({ id: z.number(), slug: z.string(), name: z.string() }).nullable(),
  deposit: z.object({ amount_cents: z.number(), currency: z.string() }),
  held_until: z.number(),
  provider: z.string(),
  payment_reference: z.string().nullable(),
});
const reservationAnswer = z.object({ reservation: reservationViewSchema });
const refusals = { '4xx': refusalSchema, '5xx': refusalSchema };
/** A reservation id: anything but digits is no reservation (a 404 from the checkout, as for an id that is not the shopper's). */
const reservationParams = z.object({ id: z.string().transform((raw) => (/^\d{1,15}$/.test(raw) ? Number(raw) : 0)) });
const tokenHeaders = z.looseObject({ [tokenHeader]: z.string().optional() });
/**
 * The bodies (the shopper's details, a test card) are judged by the checkout with the forms'
 * own rules (its 400 names the fields as the form does), so their schema takes anything.
 */
const anyBody = z.unknown();

export async function checkoutRoutes(scope: FastifyInstance, ctx: PlatformContext) {
  const { checkout } = ctx;
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const perClient = ctx.config.leads.rateLimit.max > 0;
  const holdLimiter = new RateLimiter(perClient ? holdRateLimit.max : 0, holdRateLimit.windowMs);
  const cardLimiter = new RateLimiter(perClient ? cardTryRateLimit.max : 0, cardTryRateLimit.windowMs);
  const config = { site: 'required' } as const;

  const send = <T>(reply: FastifyReply, result: CheckoutResult<T>, okStatus = 200) =>
    sendCheckoutResult(reply.header('Cache-Control', 'no-store'), result, okStatus);
  const tokenOf = (headers: Record<string, unknown>) => {
    const raw = headers[tokenHeader];
    const token = Array.isArray(raw) ? (raw[0] as unknown) : raw;
    return typeof token === 'string' && token && token.length <= 100 ? token : null;
  };
  const limited = (reply: FastifyReply, limiter: RateLimiter, key: string, what: string) => {
    const taken = limiter.take(key);
    if (taken.ok) return false;
    void tooManyRequests(
      reply,
      taken.retryAfterMs,
      (wait) => `Too many ${what} from your connection. Please try again in ${wait}, or call the dealership.`,
    );
    return true;
  };

  app.post(
    '/api/cars/:slug/reservations',
    {
      bodyLimit: checkoutBodyLimit,
      config,
      schema: {
        params: z.object({ slug: z.string() }),
        body: anyBody,
        response: {
          201: z.object({
            reservation: reservationViewSchema,
            token: z.string(),
            payment: z.object({
              provider: z.string(),
              client_secret: z.string().nullable(),
              redirect_url: z.string().nullable(),
              publishable_key: z.string().nullable(),
            }),
          }),
          ...refusals,
        },
      },
    },
    async (request, reply) => {
      const { site } = request;
      const clientAddress = clientAddressKey(request.ip);
      if (limited(reply, holdLimiter, `${site.id}|${clientAddress}`, 'reservations')) return reply;
      // The Host the site was found by, not X-Forwarded-Host: a gateway returns the shopper to this address.
      const origin = `${request.protocol}://${request.headers.host}`;
      const result = await checkout.hold({
        site,
        slug: request.params.slug,
        body: request.body,
        clientAddress,
        log: request.log,
        returnUrl: (id) => `${origin}${checkoutPath(site, request.params.slug)}?reservation=${id}`,
      });
      return send(reply, result, 201);
    },
  );

  const owned = { config, schema: { params: reservationParams, headers: tokenHeaders, response: { 200: reservationAnswer, ...refusals } } };

  app.get('/api/reservations/:id', owned, async (request, reply) =>
    send(reply, await checkout.status(request.site, request.params.id, tokenOf(request.headers))),
  );

  app.delete('/api/reservations/:id', owned, async (request, reply) =>
    send(reply, await checkout.cancel(request.site, request.params.id, tokenOf(request.headers))),
  );

  app.post(
    '/api/reservations/:id/test-payment',
    { ...owned, bodyLimit: checkoutBodyLimit, schema: { ...owned.schema, body: anyBody } },
    async (request, reply) => {
      const { site } = request;
      if (limited(reply, cardLimiter, `${site.id}|${clientAddressKey(request.ip)}`, 'card payments')) return reply;
      return send(reply, await checkout.payWithTestCard(site, request.params.id, tokenOf(request.headers), request.body));
    },
  );

  // Notifications are read as bytes: a signature covers the body exactly as it was sent.
  await app.register(async (noticeScope) => {
    const notices = noticeScope.withTypeProvider<ZodTypeProvider>();
    notices.removeAllContentTypeParsers();
    notices.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: noticeBodyLimit }, (_request, body, done) => done(null, body));
    const schema = {
      body: z.instanceof(Buffer).nullable(),
      response: {
        200: z.object({ received: z.literal(true), ignored: z.string().optional(), state: z.string().nullable().optional() }),
        ...refusals,
      },
    };
    const notice = async (request: FastifyRequest, reply: FastifyReply, kind: 'stripe' | (typeof hostedGateways)[number]) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      return send(reply, await checkout.notice(request.site, kind, body, request.headers));
    };
    notices.post('/api/payments/stripe/webhook', { bodyLimit: noticeBodyLimit, config, schema }, (request, reply) =>
      notice(request, reply, 'stripe'),
    );
    for (const kind of hostedGateways) {
      notices.post(`/api/payments/${kind}/notify`, { bodyLimit: noticeBodyLimit, config, schema }, (request, reply) =>
        notice(request, reply, kind),
      );
    }
  });
}
