import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { messageSchema, noContentSchema, refusalSchema } from '../http/zod-schemas';
import { z } from 'zod';
import { maxSavedCars, watchlistOf, type Shopper } from '../accounts/account-store';
import {
  clearedDeviceCookie,
  clearedSessionCookie,
  deviceCookie,
  deviceFromCookies,
  sessionCookie,
  sessionIdFromCookies,
} from '../accounts/session-cookie';
import { signInCodeTtlMs, type CodeRefusal } from '../accounts/sign-in';
import { clientAddressKey } from '../http/client-address';
import { RateLimiter } from '@dealer/leads/spam';
import type { PlatformContext } from '../platform-context';
import type { AccountRequests } from './account-requests';
import { tooManyRequests } from '../http/too-many-requests';

/** An address, or an address and a code, or a link's token with up to 200 favourites: a few KB at most. */
const codeBodyLimit = 2 * 1024;
const verifyBodyLimit = 8 * 1024;
const emptyBodyLimit = 1024;

/** Codes one client address may ask for on a site in an hour, for all e-mail addresses together (besides the limits per e-mail address, SIGN_IN_CODES_PER_*). */
export const codeRequestRateLimit = { max: 20, windowMs: 60 * 60_000 } as const;
/** Sign-in tries one client address may make on a site in 15 minutes, right or wrong, by code or link. */
export const verifyRateLimit = { max: 30, windowMs: 15 * 60_000 } as const;

export const wrongCodeMessage =
  'That code or link does not work: it may be mistyped, already used, more than 10 minutes old, or tried wrongly too often. Ask for a new one.';

/** Why no code was sent to the address, and when one can be asked for (`wait`: "12 minutes"). */
export function codeRefusalMessage(refusal: Pick<CodeRefusal, 'limit' | 'max'>, wait: string): string {
  return refusal.limit === 'client'
    ? `You have asked for ${refusal.max} codes for this address within the hour. You can ask for a new code in ${wait}; the last code we e-mailed, and its link, work for ${signInCodeTtlMs / 60_000} minutes after it was sent.`
    : `This address has been sent ${refusal.max} codes within the hour, the most we send. You can ask for a new code in ${wait}, or now on a device where you have signed in to your garage before.`;
}

/** An e-mail address as the sign-in forms take it (trimmed, lower case). */
export const emailField = z
  .string({ error: 'Please enter your e-mail address.' })
  .trim()
  .toLowerCase()
  .max(254, 'An e-mail address is at most 254 characters.')
  .pipe(z.email({ error: 'Please enter a valid e-mail address.' }));

const codeBodySchema = z.object({ email: emailField });

const verifyBodySchema = z
  .object({
    email: emailField.optional(),
    code: z
      .string({ error: 'The code is the 6 digits from the e-mail.' })
      .max(20, 'The code is the 6 digits from the e-mail.')
      .transform((code) => code.replace(/\s+/g, ''))
      .pipe(z.string().regex(/^\d{6}$/, 'The code is the 6 digits from the e-mail.'))
      .optional(),
    token: z
      .string({ error: 'token must be the text after sign_in= in the link.' })
      .max(200, 'token must be the text after sign_in= in the link.')
      .optional(),
    /** The browser's own favourites, merged into the garage (SPEC §3 favourites are stored per site in the browser). */
    favourites: z
      .array(
        z
          .number({ error: 'favourites must be car ids' })
          .int('favourites must be car ids')
          .positive('favourites must be car ids')
          .max(Number.MAX_SAFE_INTEGER),
        {
          error: 'favourites must be a list of car ids',
        },
      )
      .max(maxSavedCars, `At most ${maxSavedCars} favourites can be added at once.`)
      .optional(),
  })
  .refine((body) => body.token !== undefined || (body.email !== undefined && body.code !== undefined), {
    message: 'Send the e-mail address and the code from the e-mail, or the token of the link.',
    path: ['code'],
  });

export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) fields[issue.path.join('.') || 'body'] ??= issue.message;
  return fields;
}

export const checkFieldsMessage = 'Please check the highlighted fields.';

const userSchema = z.object({ id: z.number(), email: z.string(), name: z.string().optional() });
const signedInSchema = z.object({ user: userSchema, watchlist: z.array(z.number()) });

const userOf = (shopper: Shopper) => ({ id: shopper.id, email: shopper.email, ...(shopper.name ? { name: shopper.name } : {}) });

/**
 * Passwordless sign-in to a site's garage:
 * - `POST /api/auth/code` `{ email }`: 202, a code and a link are on their way (the same answer
 *   for every address, with an account or not); 429 with Retry-After beyond a limit (per
 *   connection, per connection and address, per address unless this device signed in to it before);
 * - `POST /api/auth/verify` `{ email, code }` or `{ token }`, optionally `favourites`: 200
 *   `{ user, watchlist }`, the `dp_session` cookie and the `dp_device` one; 400 for a code or link
 *   that does not work;
 * - `GET /api/auth`: `{ user, watchlist }` (SPEC §7), `user` null when not signed in;
 * - `POST /api/auth/sign-out`: 204, the session ended and the cookie cleared;
 * - `DELETE /api/auth/account`: 204, the account and all it kept deleted, both cookies cleared.
 */
export async function authRoutes(scope: FastifyInstance, ctx: PlatformContext, requests: AccountRequests) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { services, signedIn, shopper: signedInShopper, shopperOf, secure } = requests;
  const perClient = ctx.config.leads.rateLimit.max > 0;
  const codeLimiter = new RateLimiter(perClient ? codeRequestRateLimit.max : 0, codeRequestRateLimit.windowMs);
  const verifyLimiter = new RateLimiter(perClient ? verifyRateLimit.max : 0, verifyRateLimit.windowMs);
  const config = {
    site: 'required',
    schemaError: (error: z.ZodError) => ({ status: 400, body: { message: checkFieldsMessage, fields: fieldErrors(error) } }),
  } as const;
  const refusals = { '4xx': refusalSchema };

  app.post(
    '/api/auth/code',
    { bodyLimit: codeBodyLimit, config, schema: { body: codeBodySchema, response: { 202: messageSchema, ...refusals } } },
    async (request, reply) => {
      const { site } = request;
      const client = codeLimiter.take(`${site.id}|${clientAddressKey(request.ip)}`);
      if (!client.ok) {
        return tooManyRequests(
          reply,
          client.retryAfterMs,
          (wait) => `Too many sign-in codes asked for from your connection. You can ask for a new code in ${wait}.`,
        );
      }
      // The link goes to the address the site was found at (its Host, checked by the site lookup), never
      // to an X-Forwarded-Host, which a proxy may pass on from the client: a link to another host would hand it the token.
      const origin = `${request.protocol}://${(request.headers.host ?? '').toLowerCase()}`;
      const requester = { client: clientAddressKey(request.ip), device: deviceFromCookies(request.headers.cookie) };
      const sent = await services.signIn.requestCode(site, request.body.email, origin, requester);
      if (!sent.ok) return tooManyRequests(reply, sent.retryAfterMs, (wait) => codeRefusalMessage(sent, wait));
      return reply.code(202).send({
        message: `We have e-mailed a 6-digit code and a sign-in link to ${request.body.email}. They work for ${signInCodeTtlMs / 60_000} minutes.`,
      });
    },
  );

  app.post(
    '/api/auth/verify',
    { bodyLimit: verifyBodyLimit, config, schema: { body: verifyBodySchema, response: { 200: signedInSchema, ...refusals } } },
    async (request, reply) => {
      const { site } = request;
      const clientKey = clientAddressKey(request.ip);
      const client = verifyLimiter.take(`${site.id}|${clientKey}`);
      if (!client.ok)
        return tooManyRequests(
          reply,
          client.retryAfterMs,
          (wait) => `Too many sign-in tries from your connection. Please try again in ${wait}.`,
        );
      const { token, email: address, code, favourites = [] } = request.body;
      const signed =
        token !== undefined
          ? await services.signIn.verifyToken(site, token, favourites)
          : await services.signIn.verifyCode(site, address!, code!, clientKey, favourites);
      if (!signed)
        return reply.code(400).send({ message: wrongCodeMessage, fields: { [token !== undefined ? 'token' : 'code']: wrongCodeMessage } });
      const device = services.signIn.deviceCookieValue(site.id, signed.shopper.email);
      return reply
        .header('Set-Cookie', [sessionCookie(signed.sessionId, secure(request)), deviceCookie(device, secure(request))])
        .send({ user: userOf(signed.shopper), watchlist: signed.watchlist });
    },
  );

  app.get(
    '/api/auth',
    { config, schema: { response: { 200: z.object({ user: userSchema.nullable(), watchlist: z.array(z.number()) }), ...refusals } } },
    async (request, reply) => {
      const shopper = await shopperOf(request, reply);
      if (!shopper) return reply.send({ user: null, watchlist: [] });
      return reply.send({ user: userOf(shopper), watchlist: await watchlistOf(ctx.db, shopper) });
    },
  );

  app.post(
    '/api/auth/sign-out',
    { bodyLimit: emptyBodyLimit, config, schema: { response: { 204: noContentSchema, ...refusals } } },
    async (request, reply) => {
      await services.signIn.signOut(request.site, sessionIdFromCookies(request.headers.cookie));
      return reply
        .code(204)
        .header('Set-Cookie', clearedSessionCookie(secure(request)))
        .send(undefined);
    },
  );

  app.delete(
    '/api/auth/account',
    { bodyLimit: emptyBodyLimit, config, preHandler: signedIn, schema: { response: { 204: noContentSchema, ...refusals } } },
    async (request, reply) => {
      await services.signIn.deleteAccount(signedInShopper(request));
      return reply
        .code(204)
        .header('Set-Cookie', [clearedSessionCookie(secure(request)), clearedDeviceCookie(secure(request))])
        .send(undefined);
    },
  );
}
