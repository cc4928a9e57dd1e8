import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { remoteNames, type RemoteName } from '@dealer/contracts/remote-modules';
import { insertAudit } from '@dealer/db/console-lead-store';
import { loadSiteConfig, setSiteRemote } from '@dealer/db/site-store';
import { signPreview } from '../../remotes/remote-preview';
import type { PlatformContext } from '../../platform-context';
import { checkFields, refusals } from '../admin/admin-schemas';
import { fieldErrors } from '../auth';
import type { ConsoleRequests } from './console-access';

const remoteParams = z.object({
  site: z.string(),
  remote: z.enum(remoteNames, { error: `remote must be one of ${remoteNames.join(', ')}` }),
});
const switchBody = z
  .object({
    enabled: z.boolean({ error: 'enabled is true or false' }).optional(),
    /** A published version to pin, or null to follow the latest. */
    version: z.string().max(80).nullable().optional(),
  })
  .refine((body) => body.enabled !== undefined || body.version !== undefined, {
    message: 'Switch the remote on or off, or choose a version.',
    path: ['version'],
  });

type RemoteState = { enabled: boolean; version: string | null };

/**
 * The remotes of a site (`remotes.read`, `remotes.write`), the same switch as `platform remote`:
 * - `GET /api/console/sites/:site/remote-settings`: each remote on or off, pinned or following the
 *   latest, the version its shoppers get, the published versions with their date and CHANGELOG notes,
 *   and the history of changes (each can be rolled back by applying its `before`);
 * - `POST /api/console/sites/:site/remote-settings/:remote` `{ enabled?, version? }`: applied at once
 *   (shoppers' next page follows it, no restart), audited.
 */
export function consoleSiteRemoteRoutes(scope: FastifyInstance, ctx: PlatformContext, { userOf, siteOf }: ConsoleRequests) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const schemaError = (error: z.ZodError) => ({ status: 400, body: { message: checkFields, fields: fieldErrors(error) } });

  const stateOf = async (siteId: number) => {
    const config = await loadSiteConfig(ctx.db, siteId);
    return new Map((config?.remotes ?? []).map((remote) => [remote.name, { enabled: remote.enabled, version: remote.version ?? null }]));
  };

  app.get(
    '/api/console/sites/:site/remote-settings',
    {
      config: { console: 'remotes.read' },
      schema: { params: z.object({ site: z.string() }), response: { 200: z.looseObject({}), ...refusals } },
    },
    async (request, reply) => {
      const site = siteOf(request);
      const state = await stateOf(site.id);
      const remotes = remoteNames.map((name) => {
        const setting = state.get(name) ?? { enabled: false, version: null };
        const latest = ctx.registry.latest(name);
        const pinnedPublished = setting.version !== null && ctx.registry.hasVersion(name, setting.version);
        return {
          name,
          enabled: setting.enabled,
          pinned: setting.version,
          latest,
          running: setting.enabled ? (pinnedPublished ? setting.version : latest) : null,
          versions: ctx.registry
            .published(name)
            .map((one) => ({ version: one.version, published_at: Math.round(one.publishedAt), notes: one.notes })),
        };
      });
      const history = await ctx.db
        .selectFrom('console_audit')
        .select(['id', 'user_email', 'target', 'before', 'after', 'created_at'])
        .where('site_id', '=', site.id)
        .where('action', '=', 'remotes.write')
        .orderBy('id', 'desc')
        .limit(30)
        .execute();
      return reply.send({
        remotes,
        history: history.map((entry) => ({
          id: Number(entry.id),
          user_email: entry.user_email,
          remote: entry.target.replace(/^remote /, ''),
          before: entry.before === null ? null : (JSON.parse(entry.before) as RemoteState),
          after: entry.after === null ? null : (JSON.parse(entry.after) as RemoteState),
          created_at: Number(entry.created_at),
        })),
      });
    },
  );

  app.post(
    '/api/console/sites/:site/remote-settings/:remote',
    {
      bodyLimit: 2048,
      config: { console: 'remotes.write', schemaError },
      schema: { params: remoteParams, body: switchBody, response: { 200: z.looseObject({}), ...refusals } },
    },
    async (request, reply) => {
      const site = siteOf(request);
      const user = userOf(request);
      const remote = request.params.remote as RemoteName;
      const { enabled, version } = request.body;
      if (version != null && !ctx.registry.hasVersion(remote, version))
        return reply.code(400).send({
          message: checkFields,
          fields: {
            version: `${remote} has no published version ${version}. Published: ${ctx.registry.versions(remote).join(', ') || 'none'}.`,
          },
        });
      const now = Date.now();
      const before = (await stateOf(site.id)).get(remote) ?? { enabled: false, version: null };
      await ctx.db.transaction().execute(async (trx) => {
        if (enabled !== undefined) await setSiteRemote(trx, site.id, remote, { enabled }, now);
        if (version !== undefined) await setSiteRemote(trx, site.id, remote, { version }, now);
        const after = { enabled: enabled ?? before.enabled, version: version === undefined ? before.version : version };
        await insertAudit(
          trx,
          { siteId: site.id, userId: user.id, userEmail: user.email, action: 'remotes.write', target: `remote ${remote}`, before, after },
          now,
        );
      });
      // The site's cached config goes now; other servers' within its few seconds.
      ctx.sites.clear();
      const after = (await stateOf(site.id)).get(remote) ?? { enabled: false, version: null };
      return reply.send({ remote, ...after });
    },
  );

  app.post(
    '/api/console/sites/:site/remote-settings/preview',
    {
      bodyLimit: 4096,
      config: { console: 'remotes.write', schemaError },
      schema: {
        params: z.object({ site: z.string() }),
        body: z.object({
          remotes: z
            .array(z.object({ name: z.enum(remoteNames), enabled: z.boolean(), version: z.string().max(80).nullable() }))
            .max(remoteNames.length),
        }),
        response: { 200: z.object({ url: z.string(), expires_in_minutes: z.number() }), ...refusals },
      },
    },
    async (request, reply) => {
      const site = siteOf(request);
      const state = await stateOf(site.id);
      const chosen = new Map(request.body.remotes.map((remote) => [remote.name, remote]));
      for (const remote of request.body.remotes)
        if (remote.version !== null && !ctx.registry.hasVersion(remote.name, remote.version))
          return reply
            .code(400)
            .send({ message: checkFields, fields: { version: `${remote.name} has no published version ${remote.version}.` } });
      const remotes = remoteNames.map((name) => chosen.get(name) ?? { name, ...(state.get(name) ?? { enabled: false, version: null }) });
      const token = signPreview(ctx.config.leads.tokenSecret, site.id, remotes);
      // The site on the same suffix as the console's own host (console.localhost:3000 → <slug>.localhost:3000).
      const host = (request.headers.host ?? '').toLowerCase().replace(/^console\./, `${site.slug}.`);
      return reply.send({ url: `${request.protocol}://${host}/?dp_preview=${token}`, expires_in_minutes: 60 });
    },
  );
}
