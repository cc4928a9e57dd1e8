import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  consoleUsersOfSite,
  enqueueConsoleMail,
  ensureConsoleUser,
  grantConsoleRole,
  revokeSiteRoles,
} from '@dealer/db/console-account-store';
import { insertAudit } from '@dealer/db/console-lead-store';
import type { PlatformContext } from '../../platform-context';
import { checkFields, refusals } from '../admin/admin-schemas';
import { emailField as email, fieldErrors } from '../auth';
import type { ConsoleRequests } from './console-access';

/** The roles a site's own people hold (operators and group admins are given by the platform: `platform console-user`). */
const siteRoles = ['site_admin', 'staff'] as const;
const roleField = z.enum(siteRoles, { error: 'The role is site admin or staff.' });
const userParams = z.object({ site: z.string(), id: z.coerce.number().int().positive() });
const roleName = { site_admin: 'site admin', staff: 'staff' } as const;

/**
 * A site's users (`users.read`, `users.write`): listed; invited by e-mail as site admin or staff (the
 * address gets an e-mail saying so; it signs in with a code like everyone); their role changed; removed
 * from the site. Every change is audited. Nobody changes or removes their own role here, so a site is
 * never left by mistake without the admin who was using it.
 */
export function consoleUserRoutes(scope: FastifyInstance, ctx: PlatformContext, { userOf, siteOf }: ConsoleRequests) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const schemaError = (error: z.ZodError) => ({ status: 400, body: { message: checkFields, fields: fieldErrors(error) } });
  const listed = async (siteId: number) => ({ users: await consoleUsersOfSite(ctx.db, siteId) });

  app.get(
    '/api/console/sites/:site/users',
    {
      config: { console: 'users.read' },
      schema: { params: z.object({ site: z.string() }), response: { 200: z.looseObject({}), ...refusals } },
    },
    async (request, reply) => reply.send(await listed(siteOf(request).id)),
  );

  app.post(
    '/api/console/sites/:site/users',
    {
      bodyLimit: 2048,
      config: { console: 'users.write', schemaError },
      schema: {
        params: z.object({ site: z.string() }),
        body: z.object({ email, role: roleField }),
        response: { 200: z.looseObject({}), ...refusals },
      },
    },
    async (request, reply) => {
      const site = siteOf(request);
      const by = userOf(request);
      const { email: address, role } = request.body;
      if (address === by.email)
        return reply.code(409).send({ message: checkFields, fields: { email: 'That is you: your own role is changed by another admin.' } });
      const now = Date.now();
      const origin = `${request.protocol}://${(request.headers.host ?? '').toLowerCase()}`;
      await ctx.db.transaction().execute(async (trx) => {
        const before = (await consoleUsersOfSite(trx, site.id)).find((user) => user.email === address)?.role ?? null;
        const userId = await ensureConsoleUser(trx, address, null, now);
        await revokeSiteRoles(trx, userId, site.id);
        await grantConsoleRole(trx, userId, { role, siteId: site.id, group: null }, now);
        await enqueueConsoleMail(
          trx,
          {
            email: address,
            subject: `You have been added to ${site.name} in the dealer console`,
            body: `${by.email} has added you to ${site.name} in the dealer console as ${roleName[role]}.\n\nSign in at ${origin}/ with this e-mail address: we e-mail you a code each time.`,
            expiresAt: null,
          },
          now,
        );
        await insertAudit(
          trx,
          {
            siteId: site.id,
            userId: by.id,
            userEmail: by.email,
            action: 'users.write',
            target: `user ${address}`,
            before: { role: before },
            after: { role },
          },
          now,
        );
      });
      ctx.console.mail.nudge();
      return reply.send(await listed(site.id));
    },
  );

  app.post(
    '/api/console/sites/:site/users/:id/role',
    {
      bodyLimit: 1024,
      config: { console: 'users.write', schemaError },
      schema: { params: userParams, body: z.object({ role: roleField }), response: { 200: z.looseObject({}), ...refusals } },
    },
    async (request, reply) => {
      const site = siteOf(request);
      const by = userOf(request);
      const target = (await consoleUsersOfSite(ctx.db, site.id)).find((user) => user.id === request.params.id);
      if (!target) return reply.code(404).send({ message: 'Nobody with that id works on this site.' });
      if (target.id === by.id) return reply.code(409).send({ message: 'Your own role is changed by another admin.' });
      const now = Date.now();
      await ctx.db.transaction().execute(async (trx) => {
        await revokeSiteRoles(trx, target.id, site.id);
        await grantConsoleRole(trx, target.id, { role: request.body.role, siteId: site.id, group: null }, now);
        await insertAudit(
          trx,
          {
            siteId: site.id,
            userId: by.id,
            userEmail: by.email,
            action: 'users.write',
            target: `user ${target.email}`,
            before: { role: target.role },
            after: { role: request.body.role },
          },
          now,
        );
      });
      return reply.send(await listed(site.id));
    },
  );

  app.delete(
    '/api/console/sites/:site/users/:id',
    { config: { console: 'users.write' }, schema: { params: userParams, response: { 200: z.looseObject({}), ...refusals } } },
    async (request, reply) => {
      const site = siteOf(request);
      const by = userOf(request);
      const target = (await consoleUsersOfSite(ctx.db, site.id)).find((user) => user.id === request.params.id);
      if (!target) return reply.code(404).send({ message: 'Nobody with that id works on this site.' });
      if (target.id === by.id) return reply.code(409).send({ message: 'You cannot remove yourself: ask another admin.' });
      const now = Date.now();
      await ctx.db.transaction().execute(async (trx) => {
        await revokeSiteRoles(trx, target.id, site.id);
        await insertAudit(
          trx,
          {
            siteId: site.id,
            userId: by.id,
            userEmail: by.email,
            action: 'users.write',
            target: `user ${target.email}`,
            before: { role: target.role },
            after: { role: null },
          },
          now,
        );
      });
      return reply.send(await listed(site.id));
    },
  );
}
