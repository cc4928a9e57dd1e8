import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { refusalSchema } from '../http/zod-schemas';
import { demoRegister, httpRegister, lookupRego, type RegoRegister } from '@dealer/leads/rego-lookup';
import { RateLimiter } from '@dealer/leads/spam';
import type { PlatformContext } from '../platform-context';
import { clientAddressKey } from '../http/client-address';
import { tooManyRequests } from '../http/too-many-requests';

/**
 * SPEC §7 "Rego lookup for trade-in: sends rego and regoState": `POST {api}/rego-lookup` with
 * `{ rego, regoState }` answers `{ found: true, vehicle }` or `{ found: false, message }`; a bad
 * plate or state is a 400 naming the field, a register that cannot answer a 502. The register's
 * key stays on the server, and so does the VIN. Lookups cost the dealer money with a real
 * register, so each address gets 30 per 10 minutes (across all sites); /mock uses the demo register.
 */
const registeredVehicleSchema = z.looseObject({});
/**
 * The body is `{ rego, regoState }`, judged by lookupRego itself (its 400 names the field as the
 * trade-in form does), so the schema takes anything and leaves it to it.
 */
const schema = {
  body: z.unknown(),
  response: {
    200: z.union([
      z.object({ found: z.literal(true), vehicle: registeredVehicleSchema }),
      z.object({ found: z.literal(false), message: z.string() }),
    ]),
    '4xx': refusalSchema,
    502: refusalSchema,
  },
};

export async function vehicleLookupRoutes(scope: FastifyInstance, ctx: PlatformContext, register?: RegoRegister) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const registerInUse =
    register ?? (ctx.config.regoLookup ? httpRegister(ctx.config.regoLookup.url, ctx.config.regoLookup.key) : demoRegister);
  const limiter = new RateLimiter(ctx.config.leads.rateLimit.max === 0 ? 0 : 30, 10 * 60_000);
  const prefixes = ['/api', ...(ctx.config.leads.mockMode ? ['/mock'] : [])];
  for (const prefix of prefixes) {
    app.post(`${prefix}/rego-lookup`, { config: { site: 'fresh' }, schema }, async (request, reply) => {
      // Per address across all sites: another Host header does not buy more lookups.
      const limited = limiter.take(clientAddressKey(request.ip));
      if (!limited.ok) {
        return tooManyRequests(
          reply,
          limited.retryAfterMs,
          (wait) => `Too many lookups from your connection. Please try again in ${wait}, or enter your car’s details below.`,
        );
      }
      // Mock calls never spend the dealer's money on a real register.
      const answer = await lookupRego(prefix === '/mock' ? demoRegister : registerInUse, request.site.locale, request.body, (error) =>
        request.log.warn({ err: error, register: registerInUse.name }, 'rego lookup failed'),
      );
      return reply.code(answer.status).header('Cache-Control', 'no-store').send(answer.body);
    });
  }
}
