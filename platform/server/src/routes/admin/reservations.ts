import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findReservation, reservationPage } from '@dealer/db/reservation-store';
import { dealerView, type ReservationService } from '../../payments/reservation-service';
import type { PlatformContext } from '../../platform-context';
import { sendCheckoutResult } from '../checkout';
import type { AdminRequests } from './admin-access';
import { nextCursor, page, pageParams, refusals, siteLevel, siteParam } from './admin-schemas';

const reservationQuerySchema = z.object({ site: siteParam, ...pageParams });
const reservationParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'the reservation id must be a number' })
    .int('the reservation id must be a whole number')
    .positive('the reservation id must be positive'),
});

/** A site's reservations (deposits on cars), and the dealer's release of one. */
export function adminReservationRoutes(
  scope: FastifyInstance,
  ctx: PlatformContext,
  checkout: ReservationService,
  { accessOf, siteOf }: AdminRequests,
) {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  /** A page of the site's reservations, newest first: who, which car, the deposit, its payment and refund references, the lead raised. */
  app.get(
    '/api/admin/reservations',
    {
      config: siteLevel('reservation'),
      schema: { querystring: reservationQuerySchema, response: { 200: page('reservations'), ...refusals } },
    },
    async (request, reply) => {
      const found = await siteOf(request, reply, request.query.site);
      if (!found) return reply;
      const reservations = await reservationPage(ctx.db, found.siteId, { after: request.query.cursor, limit: request.query.limit });
      return reply
        .header('Cache-Control', 'no-store')
        .send({ reservations: reservations.reservations.map(dealerView), next_cursor: nextCursor(reservations.next) });
    },
  );

  /** The dealer gives a reserved car back: the deposit is refunded through the provider that took it, and the car is free again. */
  app.post(
    '/api/admin/reservations/:id/release',
    {
      config: siteLevel('reservation'),
      schema: {
        params: reservationParamsSchema,
        response: { 200: z.object({ reservation: z.looseObject({ id: z.number() }) }), ...refusals },
      },
    },
    async (request, reply) => {
      const access = accessOf(request);
      const { id } = request.params;
      const found = await findReservation(ctx.db, id);
      // A dealer key sees only its own site's reservations: another's is as if it did not exist.
      if (!found || (access.kind === 'dealer' && found.site_id !== access.siteId))
        return reply.code(404).send({ message: `No reservation with id ${id}.` });
      const answer = await checkout.release(found.site_id, found.id);
      return sendCheckoutResult(reply.header('Cache-Control', 'no-store'), answer, 200);
    },
  );
}
