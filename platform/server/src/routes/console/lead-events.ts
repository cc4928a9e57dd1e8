import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PlatformContext } from '../../platform-context';
import { refusals } from '../admin/admin-schemas';
import type { ConsoleRequests } from './console-access';

/** Open inbox streams one console user may hold at once (tabs, devices); a stream holds a socket. */
export const leadStreamsPerUser = 10;
const heartbeatMs = 25_000;

/**
 * `GET /api/console/sites/:site/leads/events` (`leads.read`): server-sent events, one `lead` event
 * (`{ id, category, created_at }`) per new lead of the site, within a poll of the store (console/lead-feed.ts).
 * Asked without `Accept: text/event-stream`, it answers 406 (an EventSource always sends it).
 */
export function consoleLeadEventRoutes(scope: FastifyInstance, ctx: PlatformContext, { userOf, siteOf }: ConsoleRequests) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const open = new Map<number, number>();
  const closers = new Set<() => void>();
  scope.addHook('onClose', async () => {
    for (const close of closers) close();
  });

  app.get(
    '/api/console/sites/:site/leads/events',
    { config: { console: 'leads.read' }, schema: { params: z.object({ site: z.string() }), response: { ...refusals } } },
    async (request, reply) => {
      if (!String(request.headers.accept ?? '').includes('text/event-stream'))
        return reply.code(406).send({ message: 'This is a stream of server-sent events: ask for text/event-stream.' });
      const user = userOf(request);
      const site = siteOf(request);
      if ((open.get(user.id) ?? 0) >= leadStreamsPerUser)
        return reply.code(429).send({ message: `At most ${leadStreamsPerUser} inboxes can be open at once. Close one and try again.` });
      open.set(user.id, (open.get(user.id) ?? 0) + 1);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      });
      res.write('retry: 2000\n: listening\n\n');
      const unsubscribe = ctx.console.leadFeed.subscribe(site.id, (lead) => res.write(`event: lead\ndata: ${JSON.stringify(lead)}\n\n`));
      const heartbeat = setInterval(() => res.write(': still here\n\n'), heartbeatMs);
      heartbeat.unref();
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        unsubscribe();
        closers.delete(close);
        open.set(user.id, (open.get(user.id) ?? 1) - 1);
        if (open.get(user.id) === 0) open.delete(user.id);
        res.end();
      };
      closers.add(close);
      request.raw.on('close', close);
    },
  );
}
