import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bookingPage } from '@dealer/db/admin-pages';
import { releaseBooking } from '@dealer/db/booking-store';
import type { PlatformContext } from '../../platform-context';
import type { AdminRequests } from './admin-access';
import { nextCursor, page, pageParams, refusals, siteLevel, siteParam } from './admin-schemas';

const bookingQuerySchema = z.object({
  site: siteParam,
  from: z.coerce.number().int().nonnegative().optional(),
  to: z.coerce.number().int().nonnegative().optional(),
  ...pageParams,
});
const bookingParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'the booking id must be a number' })
    .int('the booking id must be a whole number')
    .positive('the booking id must be positive'),
});

/** A site's diary of test drives and service drop-offs, and the dealer's release of a booking. */
export function adminBookingRoutes(scope: FastifyInstance, ctx: PlatformContext, { accessOf, siteOf }: AdminRequests) {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  /** The site's diary, soonest first: confirmed test drives and service drop-offs and live holds, from now (or `from`) for 30 days (or to `to`), epoch ms. */
  app.get(
    '/api/admin/bookings',
    { config: siteLevel('booking'), schema: { querystring: bookingQuerySchema, response: { 200: page('bookings'), ...refusals } } },
    async (request, reply) => {
      const found = await siteOf(request, reply, request.query.site);
      if (!found) return reply;
      const now = Date.now();
      const from = request.query.from ?? now;
      const { limit, cursor } = request.query;
      const bookings = await bookingPage(
        ctx.db,
        found.siteId,
        { from, to: request.query.to ?? from + 30 * 86_400_000, now },
        { after: cursor, limit },
      );
      return reply.header('Cache-Control', 'no-store').send({ bookings: bookings.bookings, next_cursor: nextCursor(bookings.next) });
    },
  );

  /**
   * The dealer gives a booking's seat back (the shopper called to cancel, or one address filled the
   * diary): others may book the time at once. The lead stays as it was. Logged with the key that did it.
   */
  app.post(
    '/api/admin/bookings/:id/release',
    {
      config: siteLevel('booking'),
      schema: { params: bookingParamsSchema, response: { 200: z.object({ booking: z.looseObject({ id: z.number() }) }), ...refusals } },
    },
    async (request, reply) => {
      const access = accessOf(request);
      const { id } = request.params;
      // A dealer key releases only its own site's bookings: another's is as if it did not exist.
      const released = await releaseBooking(ctx.db, { id, siteId: access.kind === 'dealer' ? access.siteId : null });
      if (!released) return reply.code(404).send({ message: `No booking with id ${id}.` });
      request.log.info(
        { bookingId: id, leadId: released.lead_id, by: access.kind === 'dealer' ? `dealer key ${access.keyId}` : 'platform key' },
        'booking released by the dealer',
      );
      return reply.header('Cache-Control', 'no-store').send({ booking: released });
    },
  );
}
