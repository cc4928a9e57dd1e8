import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { chatLimits } from '@dealer/contracts/chat';
import { chatFieldErrors, messageTextSchema } from '../../chat/chat-text';
import type { PlatformContext } from '../../platform-context';
import { checkFields, nextCursor, page, pageParams, refusals } from '../admin/admin-schemas';
import type { ConsoleRequests } from './console-access';

const chatParams = z.object({ site: z.string(), id: z.coerce.number().int().positive() });
const noChat = (id: number) => ({ message: `No chat conversation with id ${id} on this site.` });

/**
 * The chat inbox of a site (`chats.read`, `chats.reply`): conversations awaiting a reply first, then
 * the rest, latest activity first; one conversation whole, with the lead it belongs to; a reply, signed
 * with the user's name, seen by the shopper's open chat at its next poll.
 */
export function consoleChatRoutes(scope: FastifyInstance, ctx: PlatformContext, { userOf, siteOf }: ConsoleRequests) {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/console/sites/:site/chats',
    {
      config: { console: 'chats.read' },
      schema: {
        params: z.object({ site: z.string() }),
        querystring: z.object({ awaiting_reply: z.enum(['true', 'false']).optional(), ...pageParams }),
        response: { 200: page('threads'), ...refusals },
      },
    },
    async (request, reply) => {
      const { awaiting_reply: awaiting, cursor, limit } = request.query;
      const threads = await ctx.chat.dealerThreads(
        siteOf(request).id,
        { awaitingReply: awaiting === undefined ? undefined : awaiting === 'true', mock: false },
        { after: cursor, limit },
      );
      return reply.send({ threads: threads.threads, next_cursor: nextCursor(threads.next) });
    },
  );

  app.get(
    '/api/console/sites/:site/chats/:id',
    { config: { console: 'chats.read' }, schema: { params: chatParams, response: { 200: z.looseObject({}), ...refusals } } },
    async (request, reply) => {
      const found = await ctx.chat.dealerThread(request.params.id, siteOf(request).id);
      return found ? reply.send(found) : reply.code(404).send(noChat(request.params.id));
    },
  );

  app.post(
    '/api/console/sites/:site/chats/:id/replies',
    {
      bodyLimit: 8 * 1024,
      config: {
        console: 'chats.reply',
        schemaError: (error: z.ZodError) => ({
          status: 400,
          body: { message: checkFields, fields: chatFieldErrors(error, (key) => `${key} is not a field of a reply.`) },
        }),
      },
      schema: { params: chatParams, body: z.strictObject({ body: messageTextSchema }), response: { 201: z.looseObject({}), ...refusals } },
    },
    async (request, reply) => {
      const user = userOf(request);
      const { id } = request.params;
      const result = await ctx.chat.reply(id, siteOf(request).id, {
        body: request.body.body,
        authorName: (user.name ?? user.email.split('@')[0]!).slice(0, chatLimits.authorNameMax),
      });
      switch (result.kind) {
        case 'not-found':
          return reply.code(404).send(noChat(id));
        case 'full':
          return reply.code(409).send({
            message: `This conversation has reached its ${chatLimits.messagesPerThread} messages: please call or e-mail the shopper to carry on.`,
          });
        case 'sent':
          return reply.code(201).send({ message: result.message });
      }
    },
  );
}
