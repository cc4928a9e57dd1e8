import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CarChangeConflict, carChangeSchema, updateCar } from '@dealer/db/car-store';
import type { PlatformContext } from '../../platform-context';
import { checkFields, orEmpty, platformLevel, refusals } from './admin-schemas';

const carParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'the car id must be a number' })
    .int('the car id must be a whole number')
    .positive('the car id must be positive'),
});

/** A dealer's changes to its cars, made with the platform key. */
export function adminCarRoutes(scope: FastifyInstance, ctx: PlatformContext) {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  /**
   * A dealer's change to one car (price, status, sold, reserved, tag...): saved in the store and
   * pushed to search before the answer, so the next search on the site shows it.
   */
  app.patch(
    '/api/admin/cars/:id',
    {
      config: platformLevel('car'),
      schema: {
        params: carParamsSchema,
        body: orEmpty(carChangeSchema),
        response: { 200: z.object({ car: z.looseObject({ id: z.number() }), searchUpdated: z.boolean() }), ...refusals },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      let updated;
      try {
        updated = await updateCar(ctx.db, id, request.body);
      } catch (error) {
        if (error instanceof CarChangeConflict) return reply.code(400).send({ message: checkFields, fields: error.fields });
        throw error;
      }
      if (!updated) return reply.code(404).send({ message: `No car with id ${id}.` });
      let searchUpdated = true;
      try {
        await ctx.indexer.indexCar(updated.siteId, updated.car);
      } catch (error) {
        // The store has the change; search catches up at the next full indexing (platform start).
        searchUpdated = false;
        request.log.error({ err: error, carId: updated.car.id }, 'car saved but not pushed to search');
      }
      return reply.header('Cache-Control', 'no-store').send({ car: updated.car, searchUpdated });
    },
  );
}
