import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { refusalSchema } from '../http/zod-schemas';
import { z } from 'zod';
import { recordEvent } from '@dealer/db/event-store';
import { RateLimiter } from '@dealer/leads/spam';
import type { PlatformContext } from '../platform-context';
import { clientAddressKey } from '../http/client-address';
import { tooManyRequests } from '../http/too-many-requests';
import { depthCheckedJsonParser } from '../http/limit-json-depth';

/** SPEC §3 analytics event (the fields the browser may send). */
const eventSchema = z.object({
  category: z.string().min(1).max(100),
  url: z.string().max(2000).optional(),
  lead_id: z.number().int().nullish(),
  anon_id: z.string().max(100).optional(),
  session_id: z.string().max(100).optional(),
  error_message: z.string().max(1000).optional(),
  event_properties: z.record(z.string(), z.unknown()).optional(),
});

/** An event is a few hundred bytes; this leaves room for its properties and nothing like a flood. */
export const eventBodyLimit = 8 * 1024;

/** Addresses (with their site) the events limit keeps count of at once. */
const trackedSenders = 10_000;

/** Refused unread: what a browser's page, a form or a script may post is JSON. */
export const eventTypeMessage = "Events must be sent as JSON (Content-Type: application/json, or text/plain from the site's own pages).";

/**
 * Whether a text/plain event comes from one of the site's own pages: `navigator.sendBeacon` with a
 * string sends text/plain, which a form on any website can send too. A browser names the page's
 * origin on every POST, and `refuseForeignOrigins` has already refused any but the site's own, so
 * an Origin here is the site's; so is a fetch the browser marks same-origin.
 */
const fromOwnPage = (headers: Record<string, string | string[] | undefined>) =>
  headers.origin !== undefined || headers['sec-fetch-site'] === 'same-origin';

/**
 * `POST /api/events`: the browser's analytics and remote-failure reports (sent with
 * `navigator.sendBeacon` and a string, or `fetch`), into the platform's event log. JSON only (as
 * text/plain from the site's pages: a beacon with a Blob of JSON made the page's main thread wait
 * on the browser process twice, 3–20 ms on a phone-like CPU at load, issue 25), at most 8 KB, and
 * per IP and site at most `EVENTS_RATE_LIMIT` a minute; kept EVENTS_RETENTION_DAYS, then only
 * counted per site, kind and day (events/event-retention.ts).
 */
export async function eventRoutes(scope: FastifyInstance, ctx: PlatformContext) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const limiter = new RateLimiter(ctx.config.events.ratePerMinute, 60_000, trackedSenders);
  // A beacon's text is JSON, read as the JSON parser reads it: nesting too deep is a 400.
  scope.removeContentTypeParser('text/plain');
  scope.addContentTypeParser('text/plain', { parseAs: 'string' }, depthCheckedJsonParser(scope));

  app.post(
    '/api/events',
    {
      bodyLimit: eventBodyLimit,
      config: {
        site: 'fresh',
        schemaError: (error) => ({ status: 400, body: { message: `Invalid event: ${error.issues[0]?.message ?? 'bad body'}` } }),
      },
      schema: { body: eventSchema, response: { 202: z.object({ ok: z.literal(true) }), '4xx': refusalSchema } },
      // Before the body is read: anything but JSON is refused unread.
      onRequest: async (request, reply) => {
        const json = request.mediaType === 'application/json' || (request.mediaType === 'text/plain' && fromOwnPage(request.headers));
        if (!json) return reply.code(415).send({ message: eventTypeMessage });
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
      const { site, body: event } = request;
      await recordEvent(ctx.db, {
        siteId: site.id,
        category: event.category,
        url: event.url ?? null,
        errorMessage: event.error_message ?? null,
        payload: { ...event, website_slug: site.slug },
      });
      return reply.code(202).send({ ok: true });
    },
  );
}
