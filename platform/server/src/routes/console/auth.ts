import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { consoleSites, type ConsoleUser } from '@dealer/db/console-account-store';
import { RateLimiter } from '@dealer/leads/spam';
import { clearedConsoleSessionCookie, consoleSessionCookie } from '../../console/console-cookie';
import { consoleCodeTtlMs } from '../../console/console-sign-in';
import { actionsOn } from '../../console/console-policy';
import { clientAddressKey } from '../../http/client-address';
import { tooManyRequests } from '../../http/too-many-requests';
import { messageSchema, noContentSchema, refusalSchema } from '../../http/zod-schemas';
import type { PlatformContext } from '../../platform-context';
import { checkFieldsMessage, emailField as email, fieldErrors } from '../auth';
import type { ConsoleRequests } from './console-access';

const verifyBodySchema = z
  .object({
    email: email.optional(),
    code: z
      .string({ error: 'The code is the 6 digits from the e-mail.' })
      .max(20, 'The code is the 6 digits from the e-mail.')
      .transform((code) => code.replace(/\s+/g, ''))
      .pipe(z.string().regex(/^\d{6}$/, 'The code is the 6 digits from the e-mail.'))
      .optional(),
    token: z.string({ error: 'token must be the text after token= in the link.' }).max(200).optional(),
  })
  .refine((body) => body.token !== undefined || (body.email !== undefined && body.code !== undefined), {
    message: 'Send the e-mail address and the code from the e-mail, or the token of the link.',
    path: ['code'],
  });

export const consoleWrongCode =
  'That code or link does not work: it may be mistyped, already used, more than 10 minutes old, or tried wrongly too often. Ask for a new one.';

/** Codes one client address may ask for in an hour, all addresses together; sign-in tries per 15 minutes. */
export const consoleCodeRateLimit = { max: 20, windowMs: 60 * 60_000 } as const;
export const consoleVerifyRateLimit = { max: 30, windowMs: 15 * 60_000 } as const;

const roleSchema = z.object({ role: z.string(), site_id: z.number().nullable(), group: z.string().nullable() });
const siteSchema = z.object({
  id: z.number(),
  slug: z.string(),
  name: z.string(),
  group: z.string().nullable(),
  actions: z.array(z.string()),
});
const meSchema = z.object({
  user: z.object({ id: z.number(), email: z.string(), name: z.string().nullable(), roles: z.array(roleSchema) }),
  sites: z.array(siteSchema),
});
const sessionSchema = z.object({
  id: z.string(),
  user_agent: z.string(),
  created_at: z.number(),
  last_seen_at: z.number(),
  current: z.boolean(),
});

/**
 * Sign-in to the dealer console and the signed-in user's own account:
 * - `POST /api/console/auth/code` `{ email }`: 202 whatever the address (only a console user's gets mail); 429 past a limit;
 * - `POST /api/console/auth/verify` `{ email, code }` or `{ token }`: 200 with the user and their sites, and the `dc_session` cookie;
 * - `GET /api/console/me`: the user, their roles and the sites they may open, each with the actions allowed there;
 * - `GET /api/console/me/sessions`, `DELETE /api/console/me/sessions/:id`: the user's sessions, listed and revoked;
 * - `POST /api/console/auth/sign-out`.
 */
export function consoleAuthRoutes(scope: FastifyInstance, ctx: PlatformContext, requests: ConsoleRequests) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { signIn } = ctx.console;
  const perClient = ctx.config.leads.rateLimit.max > 0;
  const codeLimiter = new RateLimiter(perClient ? consoleCodeRateLimit.max : 0, consoleCodeRateLimit.windowMs);
  const verifyLimiter = new RateLimiter(perClient ? consoleVerifyRateLimit.max : 0, consoleVerifyRateLimit.windowMs);
  const schemaError = (error: z.ZodError) => ({ status: 400, body: { message: checkFieldsMessage, fields: fieldErrors(error) } });
  const refusals = { '4xx': refusalSchema };
  const secure = (protocol: string) => protocol === 'https';

  const view = async (user: ConsoleUser) => {
    const all = await consoleSites(ctx.db);
    const sites = all.map((site) => ({ ...site, actions: actionsOn(user, site) })).filter((site) => site.actions.length > 0);
    return {
      user: {
        id: user.id,
        email: user.email,
        name: user.name,
        roles: user.roles.map((r) => ({ role: r.role, site_id: r.siteId, group: r.group })),
      },
      sites,
    };
  };

  app.post(
    '/api/console/auth/code',
    {
      bodyLimit: 2048,
      config: { console: 'public', schemaError },
      schema: { body: z.object({ email }), response: { 202: messageSchema, ...refusals } },
    },
    async (request, reply) => {
      const client = codeLimiter.take(clientAddressKey(request.ip));
      if (!client.ok)
        return tooManyRequests(
          reply,
          client.retryAfterMs,
          (wait) => `Too many sign-in codes asked for from your connection. You can ask for a new code in ${wait}.`,
        );
      // The link goes to the console's own host, as the request named it (checked by the guard), never an X-Forwarded-Host.
      const origin = `${request.protocol}://${(request.headers.host ?? '').toLowerCase()}`;
      const sent = await signIn.requestCode(request.body.email, origin);
      if (!sent.ok)
        return tooManyRequests(
          reply,
          sent.retryAfterMs,
          (wait) =>
            `This address has been sent the most codes we send in an hour. You can ask for a new code in ${wait}; the last code and its link still work.`,
        );
      return reply.code(202).send({
        message: `If ${request.body.email} belongs to a dealer console user, a 6-digit code and a sign-in link are on their way. They work for ${consoleCodeTtlMs / 60_000} minutes.`,
      });
    },
  );

  app.post(
    '/api/console/auth/verify',
    {
      bodyLimit: 2048,
      config: { console: 'public', schemaError },
      schema: { body: verifyBodySchema, response: { 200: meSchema, ...refusals } },
    },
    async (request, reply) => {
      const client = verifyLimiter.take(clientAddressKey(request.ip));
      if (!client.ok)
        return tooManyRequests(
          reply,
          client.retryAfterMs,
          (wait) => `Too many sign-in tries from your connection. Please try again in ${wait}.`,
        );
      const { token, email: address, code } = request.body;
      const agent = String(request.headers['user-agent'] ?? '');
      const signed = token !== undefined ? await signIn.verifyToken(token, agent) : await signIn.verifyCode(address!, code!, agent);
      if (!signed)
        return reply.code(400).send({ message: consoleWrongCode, fields: { [token !== undefined ? 'token' : 'code']: consoleWrongCode } });
      return reply.header('Set-Cookie', consoleSessionCookie(signed.sessionId, secure(request.protocol))).send(await view(signed.user));
    },
  );

  app.get(
    '/api/console/me',
    { config: { console: 'signed-in' }, schema: { response: { 200: meSchema, ...refusals } } },
    async (request, reply) => reply.send(await view(requests.userOf(request))),
  );

  app.get(
    '/api/console/me/sessions',
    { config: { console: 'signed-in' }, schema: { response: { 200: z.object({ sessions: z.array(sessionSchema) }), ...refusals } } },
    async (request, reply) => {
      const sessions = await signIn.sessions(requests.userOf(request), requests.sessionIdOf(request));
      return reply.send({
        sessions: sessions.map((s) => ({
          id: s.id,
          user_agent: s.userAgent,
          created_at: s.createdAt,
          last_seen_at: s.lastSeenAt,
          current: s.current,
        })),
      });
    },
  );

  app.delete(
    '/api/console/me/sessions/:id',
    {
      config: { console: 'signed-in' },
      schema: {
        params: z.object({ id: z.string().regex(/^[0-9a-f]{64}$/, 'not a session id') }),
        response: { 204: noContentSchema, ...refusals },
      },
    },
    async (request, reply) => {
      if (!(await signIn.revoke(requests.userOf(request), request.params.id)))
        return reply.code(404).send({ message: 'There is no such session.' });
      return reply.code(204).send(undefined);
    },
  );

  app.post(
    '/api/console/auth/sign-out',
    { bodyLimit: 1024, config: { console: 'signed-in' }, schema: { response: { 204: noContentSchema, ...refusals } } },
    async (request, reply) => {
      const sessionId = requests.sessionIdOf(request);
      if (sessionId) await signIn.signOut(requests.userOf(request), sessionId);
      return reply
        .code(204)
        .header('Set-Cookie', clearedConsoleSessionCookie(secure(request.protocol)))
        .send(undefined);
    },
  );
}
