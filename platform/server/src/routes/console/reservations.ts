import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { insertAudit } from '@dealer/db/console-lead-store';
import { findReservation, reservationPage } from '@dealer/db/reservation-store';
import { dealerView } from '../../payments/reservation-service';
import type { PlatformContext } from '../../platform-context';
import { nextCursor, page, pageParams, refusals } from '../admin/admin-schemas';
import { sendCheckoutResult } from '../checkout';
import type { ConsoleRequests } from './console-access';

/**
 * A site's reservations (`reservations.read`), newest first: held, paid, refunded or released, with
 * the car and the lead; and the dealer's release (`reservations.release`): the deposit refunded
 * through the provider that took it, the car free again, audited.
 */
export function consoleReservationRoutes(scope: FastifyInstance, ctx: PlatformContext, { userOf, siteOf }: ConsoleRequests) {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/console/sites/:site/reservations',
    {
      config: { console: 'reservations.read' },
      schema: {
        params: z.object({ site: z.string() }),
        querystring: z.object(pageParams),
        response: { 200: page('reservations'), ...refusals },
      },
    },
    async (request, reply) => {
      const found = await reservationPage(ctx.db, siteOf(request).id, { after: request.query.cursor, limit: request.query.limit });
      return reply.send({ reservations: found.reservations.map(dealerView), next_cursor: nextCursor(found.next) });
    },
  );

  app.post(
    '/api/console/sites/:site/reservations/:id/release',
    {
      bodyLimit: 1024,
      config: { console: 'reservations.release' },
      schema: {
        params: z.object({ site: z.string(), id: z.coerce.number().int().positive() }),
        response: { 200: z.looseObject({}), ...refusals },
      },
    },
    async (request, reply) => {
      const site = siteOf(request);
      const user = userOf(request);
      const found = await findReservation(ctx.db, request.params.id);
      if (!found || found.site_id !== site.id)
        return reply.code(404).send({ message: `No reservation with id ${request.params.id} on this site.` });
      const before = dealerView(found);
      const answer = await ctx.checkout.release(site.id, found.id);
      if (answer.ok)
        await insertAudit(
          ctx.db,
          {
            siteId: site.id,
            userId: user.id,
            userEmail: user.email,
            action: 'reservations.release',
            target: `reservation ${found.id}`,
            before: { state: before.state },
            after: { state: answer.value.reservation.state },
          },
          Date.now(),
        );
      return sendCheckoutResult(reply, answer, 200);
    },
  );
}
