import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { recordEvent } from '../db/event-store';
import type { PlatformContext } from '../platform-context';
import { siteDeps } from '../platform-context';
import { requireSite } from '../tenancy/site-context';

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

export async function eventRoutes(app: FastifyInstance, ctx: PlatformContext) {
  // sendBeacon posts text/plain or a Blob's type; accept JSON in either.
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(null, body);
    }
  });

  app.post('/api/events', async (request, reply) => {
    const resolved = await requireSite(request, reply, siteDeps(ctx));
    if (!resolved) return reply;
    const parsed = eventSchema.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send({ message: `Invalid event: ${parsed.error.issues[0]?.message ?? 'bad body'}` });
    const event = parsed.data;
    await recordEvent(ctx.db, {
      siteId: resolved.site.id,
      category: event.category,
      url: event.url ?? null,
      errorMessage: event.error_message ?? null,
      payload: { ...event, website_slug: resolved.site.slug },
    });
    return reply.code(202).send({ ok: true });
  });
}
