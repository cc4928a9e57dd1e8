import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SiteConfig } from '@dealer/contracts/site';
import { optOut } from '@dealer/db/mail-opt-out-store';
import type { MailOptOutSource } from '@dealer/db/schema';
import { RateLimiter } from '@dealer/leads/spam';
import { maxUnsubscribeTokenChars, verifyUnsubscribeToken } from '../accounts/unsubscribe-token';
import { clientAddressKey } from '../http/client-address';
import { tooManyRequests } from '../http/too-many-requests';
import { messageSchema, refusalSchema } from '../http/zod-schemas';
import type { PlatformContext } from '../platform-context';

/** An address, or a token of a few hundred characters: far under this. */
const unsubscribeBodyLimit = 2 * 1024;
/** RFC 8058's body is `List-Unsubscribe=One-Click`: anything much larger is not a mail program's one-click. */
const oneClickBodyLimit = 1024;

/** Opt-outs one client address may ask for on a site in a minute, by the form or the e-mail's link. */
export const unsubscribeRateLimit = { max: 10, windowMs: 60_000 } as const;

export const badEmailMessage = 'Enter an e-mail address like name@example.com.';
export const brokenLinkMessage =
  'This unsubscribe link does not work here: it may have been cut short or changed. Open it again from the e-mail, or enter your e-mail address on this page.';

/** The answer to every opt-out, whether or not the address is a customer's: it tells nobody who is. */
export const unsubscribedMessage = (email: string, site: Pick<SiteConfig, 'name'>) =>
  `Done: ${email} will get no more offers or alert e-mails from ${site.name}.`;

const emailField = z
  .string({ error: badEmailMessage })
  .trim()
  .toLowerCase()
  .max(254, badEmailMessage)
  .pipe(z.email({ error: badEmailMessage }));

const tokenField = z.string({ error: brokenLinkMessage }).min(1, brokenLinkMessage).max(maxUnsubscribeTokenChars, brokenLinkMessage);

const refusals = { '4xx': refusalSchema };

/**
 * Opting out of a site's offers and alert e-mails (issue 24). Sign-in codes an address asks for
 * still go: they are the shopper's own request.
 * - `POST /api/unsubscribe` `{ email }`: the `/unsubscribe` page's form; 200 `{ message }`, the
 *   same for every address; 400 with `fields.email` for one that is not an address; 429 beyond
 *   `unsubscribeRateLimit` per client address;
 * - `POST /api/unsubscribe/confirm` `{ token }`: the page's "Yes, unsubscribe" button for the link in
 *   an alert e-mail (the page never opts out on opening it: mail scanners open links); 400 for a
 *   token that is not this site's;
 * - `POST /api/unsubscribe/one-click?t=<token>`: a mail program's one-click unsubscribe (RFC 8058,
 *   the alert e-mails' List-Unsubscribe header). Not limited per client address: mail programs
 *   post from a few servers for all their users, and only a signed token opts out.
 */
export async function unsubscribeRoutes(scope: FastifyInstance, ctx: PlatformContext) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const secret = ctx.config.leads.tokenSecret;
  const perClient = ctx.config.leads.rateLimit.max > 0;
  const limiter = new RateLimiter(perClient ? unsubscribeRateLimit.max : 0, unsubscribeRateLimit.windowMs);

  // Every answer here is about one address: never kept by a cache.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('Cache-Control', 'no-store');
    return payload;
  });

  /** Counted before the body is judged, so malformed tries count too. */
  const limited = async (request: FastifyRequest, reply: FastifyReply) => {
    const client = limiter.take(`${request.site.id}|${clientAddressKey(request.ip)}`);
    if (!client.ok)
      return tooManyRequests(reply, client.retryAfterMs, (wait) => `Too many tries from your connection. Please try again in ${wait}.`);
    return undefined;
  };

  const record = async (site: SiteConfig, email: string, source: MailOptOutSource) => {
    await optOut(ctx.db, site.id, email, source, Date.now());
    return { message: unsubscribedMessage(email, site) };
  };

  /** The address a token names for this site, or null: a forged token, or another site's. */
  const addressOf = (site: SiteConfig, token: string) => {
    const named = verifyUnsubscribeToken(secret, token);
    return named && named.siteId === site.id ? named.email : null;
  };

  const fieldRefusal = (field: string, message: string) => ({ status: 400, body: { message, fields: { [field]: message } } });

  app.post(
    '/api/unsubscribe',
    {
      bodyLimit: unsubscribeBodyLimit,
      preValidation: limited,
      config: { site: 'required', schemaError: () => fieldRefusal('email', badEmailMessage) },
      schema: { body: z.object({ email: emailField }), response: { 200: messageSchema, ...refusals } },
    },
    async (request, reply) => reply.send(await record(request.site, request.body.email, 'page')),
  );

  app.post(
    '/api/unsubscribe/confirm',
    {
      bodyLimit: unsubscribeBodyLimit,
      preValidation: limited,
      config: { site: 'required', schemaError: () => fieldRefusal('token', brokenLinkMessage) },
      schema: { body: z.object({ token: tokenField }), response: { 200: messageSchema, ...refusals } },
    },
    async (request, reply) => {
      const email = addressOf(request.site, request.body.token);
      if (email === null) return reply.code(400).send({ message: brokenLinkMessage, fields: { token: brokenLinkMessage } });
      return reply.send(await record(request.site, email, 'link'));
    },
  );

  // A mail program posts a form (RFC 8058: `List-Unsubscribe=One-Click`, urlencoded, some send it
  // as multipart): whatever its type, the body is read as text and not needed, the token is all.
  await app.register(async (oneClickScope) => {
    const oneClick = oneClickScope.withTypeProvider<ZodTypeProvider>();
    oneClick.removeAllContentTypeParsers();
    oneClick.addContentTypeParser('*', { parseAs: 'string', bodyLimit: oneClickBodyLimit }, (_request, body, done) => done(null, body));
    oneClick.post(
      '/api/unsubscribe/one-click',
      {
        bodyLimit: oneClickBodyLimit,
        config: { site: 'required', schemaError: () => ({ status: 400, body: { message: brokenLinkMessage } }) },
        schema: { querystring: z.object({ t: tokenField }), response: { 200: messageSchema, ...refusals } },
      },
      async (request, reply) => {
        const email = addressOf(request.site, request.query.t);
        if (email === null) return reply.code(400).send({ message: brokenLinkMessage });
        return reply.send(await record(request.site, email, 'one-click'));
      },
    );
  });
}
