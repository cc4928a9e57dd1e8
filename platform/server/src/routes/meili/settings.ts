import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { settingNames } from '@dealer/search-engine/index-settings';
import { checkSetting, readSettings, settingFromRoute } from '@dealer/search-engine/settings-request';
import type { PlatformContext } from '../../platform-context';
import { adminKey } from './meili-access';
import { enqueuedTaskSchema, indexParams, indexWrite, objectBody, readingAs, refusals } from './meili-schemas';

/** A setting's route name (`filterable-attributes`); one Meilisearch does not have is its 404. */
const settingParams = z.object({ uid: z.string(), setting: z.string().transform(readingAs(settingFromRoute)) });
const settingWrite = { ...adminKey, schema: { params: settingParams, response: { 202: enqueuedTaskSchema, ...refusals } } };

/** An index's settings, all at once or one by its route name: the search admin key only. */
export function meiliSettingRoutes(scope: FastifyInstance, ctx: PlatformContext) {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/meili/indexes/:uid/settings',
    { ...adminKey, schema: { params: indexParams, response: { 200: z.record(z.string(), z.unknown()), ...refusals } } },
    async (request) => ctx.search.existingIndex(request.params.uid).allSettings(),
  );

  app.patch('/meili/indexes/:uid/settings', { ...indexWrite, schema: { ...indexWrite.schema, body: objectBody } }, async (request, reply) =>
    reply.code(202).send(ctx.search.updateSettings(request.params.uid, readSettings(request.body))),
  );

  app.delete('/meili/indexes/:uid/settings', indexWrite, async (request, reply) =>
    reply.code(202).send(ctx.search.updateSettings(request.params.uid, Object.fromEntries(settingNames.map((name) => [name, null])))),
  );

  // 200 is the setting's value as JSON text, serialised by the route: Fastify would send a bare string (`byWord`) as text/plain, and null as nothing.
  app.get(
    '/meili/indexes/:uid/settings/:setting',
    { ...adminKey, schema: { params: settingParams, response: { 200: z.string(), ...refusals } } },
    async (request, reply) =>
      reply
        .type('application/json')
        .send(JSON.stringify(ctx.search.existingIndex(request.params.uid).allSettings()[request.params.setting])),
  );

  app.route({
    ...settingWrite,
    // The value, any JSON: checked against the setting the path names.
    schema: { ...settingWrite.schema, body: z.unknown() },
    method: ['PUT', 'PATCH'],
    url: '/meili/indexes/:uid/settings/:setting',
    handler: async (request, reply) => {
      const { setting } = request.params;
      const value = request.body === undefined ? null : request.body;
      checkSetting(setting, value, '');
      return reply.code(202).send(ctx.search.updateSettings(request.params.uid, { [setting]: value }));
    },
  });

  app.delete('/meili/indexes/:uid/settings/:setting', settingWrite, async (request, reply) =>
    reply.code(202).send(ctx.search.updateSettings(request.params.uid, { [request.params.setting]: null })),
  );
}
