import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { noContentSchema, refusalSchema } from '../http/zod-schemas';
import { z } from 'zod';
import { enqueueAdEvent } from '@dealer/db/ad-event-store';
import { hashedUserData, metaCookies, scrubbedPageUrl, type AdUserInput } from '../ads/ad-user-data';
import type { AdCustomData, ConversionsApiEvent } from '../ads/conversions-api';
import { clientAddressKey } from '../http/client-address';
import { RateLimiter } from '@dealer/leads/spam';
import type { PlatformContext } from '../platform-context';
import { tooManyRequests } from '../http/too-many-requests';

/** An ad event is a few hundred bytes: this leaves room for its content and nothing like a flood. */
export const adEventBodyLimit = 8 * 1024;

/** Addresses (with their site) the limit keeps count of at once. */
const trackedSenders = 10_000;

const optionalText = (max: number) => z.union([z.string().max(max), z.number().finite().transform(String)]).nullish();

/** SPEC §3 user data fields (saved user details), each optional. */
const userSchema = z.object({
  email: z.string().max(320).nullish(),
  phone: optionalText(50),
  first_name: z.string().max(100).nullish(),
  last_name: z.string().max(100).nullish(),
  postcode: optionalText(20),
  external_id: optionalText(200),
});

/** SPEC §3 ad-tracking content payload (`adTrackingContent`), forwarded as `custom_data`. */
const contentSchema = z.object({
  content_ids: z
    .array(z.union([z.string().max(100), z.number().finite().transform(String)]))
    .max(50)
    .optional(),
  quantity: z.number().int().min(0).max(10_000).optional(),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, 'currency must be a three-letter code')
    .transform((code) => code.toUpperCase())
    .optional(),
  value: z.number().finite().min(0).max(1e10).optional(),
  content_type: z.string().max(50).optional(),
  content_name: z.string().max(300).optional(),
  search_string: z.string().max(300).optional(),
});

/** Visible ASCII, no spaces: what a browser's event id (a UUID, a timestamp and a random part) is made of. */
const eventIdText = z
  .string()
  .trim()
  .regex(/^[\x21-\x7e]{1,100}$/, 'an event id is 1 to 100 visible ASCII characters');

/**
 * SPEC §3 server-side ad event body: eventName, eventId, uniqueFacebookEventId, contentOptions and
 * the user data fields (under `user`, or at the top level under their SPEC §3 saved-details names).
 */
const adEventSchema = z.object({
  eventName: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_]{0,49}$/, 'eventName must be a Meta event name such as Lead, ViewContent or DealerEvent22'),
  eventId: z.union([eventIdText, z.number().int().nonnegative().transform(String)]),
  uniqueFacebookEventId: eventIdText.nullish(),
  user: userSchema.nullish(),
  contentOptions: contentSchema.nullish(),
  event_source_url: z.string().max(2000).nullish(),
  email: userSchema.shape.email,
  phone: userSchema.shape.phone,
  name: z.string().max(100).nullish(),
  first_name: userSchema.shape.first_name,
  last_name: userSchema.shape.last_name,
  postcode: userSchema.shape.postcode,
});
type AdEventBody = z.infer<typeof adEventSchema>;

/** The shopper's details: `user` first, then the SPEC §3 top-level fields (`name` is the first name there). */
function userOf(body: AdEventBody): AdUserInput {
  const user = body.user ?? {};
  return {
    email: user.email ?? body.email,
    phone: user.phone ?? body.phone,
    first_name: user.first_name ?? body.first_name ?? body.name,
    last_name: user.last_name ?? body.last_name,
    postcode: user.postcode ?? body.postcode,
    external_id: user.external_id,
  };
}

function customDataOf(content: AdEventBody['contentOptions']): AdCustomData | undefined {
  if (!content) return undefined;
  const data = Object.fromEntries(Object.entries(content).filter(([, value]) => value !== undefined)) as AdCustomData;
  return Object.keys(data).length > 0 ? data : undefined;
}

/** The client's address as Meta reads it: an IPv4 address written as IPv6 (`::ffff:203.0.113.7`) as IPv4. */
const plainAddress = (ip: string) => /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip)?.[1] ?? ip;

/**
 * `POST /api/fb-events` (SPEC §7, issue 11): the browser's server-side copy of an ad conversion
 * event, sent 250 ms after the pixel's. JSON only, at most 8 KB, per IP and site at most
 * `AD_EVENTS_RATE_LIMIT` a minute.
 *
 * A site without a `facebook_pixel` has nowhere to send it: 204, nothing stored. Otherwise the
 * event is stored once per site and event id (the pixel event's eventID: `uniqueFacebookEventId`
 * when sent, else `eventId`) with the shopper's details hashed on receipt, answered 202 (a repeat:
 * 202 too, not stored again), and forwarded by the ad event outbox to the Conversions API.
 */
export async function adEventRoutes(scope: FastifyInstance, ctx: PlatformContext) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const outbox = ctx.adEvents;
  const limiter = new RateLimiter(ctx.config.adEvents.ratePerMinute, 60_000, trackedSenders);

  app.post(
    '/api/fb-events',
    {
      bodyLimit: adEventBodyLimit,
      config: {
        site: 'required',
        schemaError: (error) => {
          const issue = error.issues[0];
          return {
            status: 400,
            body: { message: `Invalid ad event: ${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'bad body'}` },
          };
        },
      },
      schema: {
        body: adEventSchema,
        response: {
          202: z.object({ ok: z.literal(true), duplicate: z.literal(true).optional() }),
          204: noContentSchema,
          '4xx': refusalSchema,
        },
      },
      // Before the body is read: anything but JSON is refused unread.
      onRequest: async (request, reply) => {
        if (request.mediaType !== 'application/json') {
          return reply.code(415).send({ message: 'Ad events must be sent as JSON (Content-Type: application/json).' });
        }
      },
      // After the site, before the body is judged: a flood is refused whatever it sends.
      preValidation: async (request, reply) => {
        const limited = limiter.take(`${request.site.id}|${clientAddressKey(request.ip)}`);
        if (!limited.ok) {
          return tooManyRequests(
            reply,
            limited.retryAfterMs,
            (wait) => `Too many events from your connection. Please try again in ${wait}.`,
          );
        }
      },
    },
    async (request, reply) => {
      const { site } = request;
      if (!site.third_party.facebook_pixel) return reply.code(204).send(undefined);

      const { body } = request;
      const now = Date.now();
      const user = userOf(body);
      const userAgent = request.headers['user-agent']?.slice(0, 512);
      const personal = [user.email, user.phone, user.first_name, user.last_name].filter(
        (value): value is string => typeof value === 'string',
      );
      const pageUrl = [body.event_source_url, request.headers.referer]
        .map((url) => (url ? scrubbedPageUrl(url, personal) : null))
        .find((url) => url !== null);
      const event: ConversionsApiEvent = {
        event_name: body.eventName,
        event_time: Math.floor(now / 1000),
        event_id: body.uniqueFacebookEventId ?? body.eventId,
        action_source: 'website',
        event_source_url: pageUrl ?? `${request.protocol}://${request.host}/`,
        user_data: hashedUserData(user, site.locale, { ip: plainAddress(request.ip), userAgent, ...metaCookies(request.headers.cookie) }),
      };
      const custom = customDataOf(body.contentOptions);
      if (custom) event.custom_data = custom;

      const stored = await enqueueAdEvent(ctx.db, site.id, event, now);
      if (stored === null) return reply.code(202).send({ ok: true, duplicate: true });
      outbox.nudge();
      return reply.code(202).send({ ok: true });
    },
  );
}
