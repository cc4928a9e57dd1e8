import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { refusalSchema } from '../http/zod-schemas';
import type { BookingTimes } from '@dealer/contracts/booking-values';
import type { BookingKind } from '@dealer/rules/booking-slots';
import { availabilityAt, bookableLocations, siteCarId } from '@dealer/leads/bookings';
import type { PlatformContext } from '../platform-context';

const files: Record<string, BookingKind> = {
  'available_appointment_bookings.json': 'appointment',
  'available_service_bookings.json': 'service',
};

/**
 * SPEC §7 "Service times" and "Test drive times":
 * `GET {api}/dealerships/{id}/available_service_bookings.json` and
 * `.../available_appointment_bookings.json`, optionally `?location_id=`. The dealership must be
 * one of the host's site; the times are the location's, in its own time zone, less the seats
 * already taken and, with `?car_id=`, less the times that car is out on another test drive. Answers (SPEC shows no shape, so this is ours):
 * `{ dealership_id, location_id, location_name, kind, time_zone, slot_minutes, days: [{ date, label, slots: [{ start, label }] }] }`.
 */
/** A query value as the handler reads it: a repeated one (`?car_id=1&car_id=2`) is its values joined with commas, and matches nothing. */
const queryValue = z
  .union([z.string(), z.array(z.string())])
  .transform(String)
  .optional();

const bookingTimesSchema = z.object({
  dealership_id: z.number(),
  location_id: z.number(),
  location_name: z.string(),
  kind: z.enum(['appointment', 'service']),
  time_zone: z.string(),
  slot_minutes: z.number(),
  days: z.array(z.object({ date: z.string(), label: z.string(), slots: z.array(z.object({ start: z.string(), label: z.string() })) })),
});

const schema = {
  params: z.object({ id: z.string(), file: z.string() }),
  querystring: z.object({ location_id: queryValue, car_id: queryValue }),
  response: { 200: bookingTimesSchema, '4xx': refusalSchema },
};

export async function bookingRoutes(scope: FastifyInstance, ctx: PlatformContext) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const prefixes = ['/api', ...(ctx.config.leads.mockMode ? ['/mock'] : [])];
  for (const prefix of prefixes) {
    app.get(`${prefix}/dealerships/:id/:file`, { config: { site: 'fresh' }, schema }, async (request, reply) => {
      const { site } = request;
      const kind = files[request.params.file];
      const dealershipId = /^\d{1,9}$/.test(request.params.id) ? Number(request.params.id) : NaN;
      if (!kind) return reply.code(404).send({ message: 'Not found.' });
      if (
        !site.dealerships.some((dealership) => dealership.id === dealershipId) &&
        !site.locations.some((location) => location.dealership_id === dealershipId)
      ) {
        return reply.code(404).send({ message: `No dealership ${request.params.id} on this site.` });
      }
      const locations = bookableLocations(site, kind, dealershipId);
      const asked = request.query.location_id;
      let location = locations[0];
      if (asked !== undefined && asked !== '') {
        location = /^\d{1,9}$/.test(asked) ? locations.find((entry) => entry.id === Number(asked)) : undefined;
        if (!location) {
          return reply.code(400).send({
            message: `Location ${asked} of dealership ${dealershipId} does not take ${kind === 'service' ? 'service bookings' : 'test drive bookings'}.`,
            fields: { location_id: 'Please choose one of the listed locations.' },
          });
        }
      }
      if (!location)
        return reply.code(404).send({
          message: `Dealership ${dealershipId} takes no ${kind === 'service' ? 'service bookings' : 'test drive bookings'} online.`,
        });
      // A test drive of one car: times it is already out on another test drive are left out.
      const askedCar = request.query.car_id;
      const carId = askedCar !== undefined && askedCar !== '' ? await siteCarId(ctx.db, site, askedCar) : undefined;
      if (askedCar !== undefined && askedCar !== '' && carId === undefined) {
        return reply
          .code(400)
          .send({ message: `No car ${askedCar} on this site.`, fields: { car_id: 'Please choose one of the listed cars.' } });
      }
      const availability = await availabilityAt(ctx.db, site, location, kind, Date.now(), { carId });
      const answer: BookingTimes = {
        dealership_id: dealershipId,
        location_id: location.id,
        location_name: location.name,
        kind,
        time_zone: availability.zone,
        slot_minutes: availability.policy.slotMinutes,
        days: availability.days,
      };
      return reply.header('Cache-Control', 'no-store').send(answer);
    });
  }
}
