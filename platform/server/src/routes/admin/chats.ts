import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { chatLimits } from '@dealer/contracts/chat';
import type { ChatService } from '../../chat/chat-service';
import { chatFieldErrors, lineTextSchema, messageTextSchema } from '../../chat/chat-text';
import type { AdminRequests } from './admin-access';
import { adminRefusal, nextCursor, page, pageParams, refusals, siteLevel, siteParam } from './admin-schemas';

const chatQuerySchema = z.object({
  site: siteParam,
  /** Only the conversations whose latest message is the shopper's (true), or the dealer's (false). */
  awaiting_reply: z
    .enum(['true', 'false'], { error: 'awaiting_reply must be true or false' })
    .optional()
    .transform((value) => (value === undefined ? undefined : value === 'true')),
  /** Mock-mode conversations: left out by default, 'only' or 'include'. */
  mock: z.enum(['only', 'include'], { error: 'mock must be only or include' }).optional(),
  ...pageParams,
});
const chatParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'the conversation id must be a number' })
    .int('the conversation id must be a whole number')
    .positive('the conversation id must be positive'),
});
const chatReplySchema = z.strictObject({
  body: messageTextSchema,
  author_name: lineTextSchema('author_name', chatLimits.authorNameMax).nullish(),
});
/** A reply of 1,000 characters (up to 4 bytes each in UTF-8) and who wrote it. */
const chatReplyBodyLimit = 8 * 1024;

const noChat = (id: number) => ({ message: `No chat conversation with id ${id}.` });

/**
 * The site's chat conversations (issue 11), and the dealer's replies. A conversation whose lead is
 * held as suspected spam shows once the lead is released.
 */
export function adminChatRoutes(scope: FastifyInstance, chat: ChatService, { accessOf, siteOf }: AdminRequests) {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  /** The conversations, latest activity first, each with its latest message; `awaiting_reply=true` for those the dealer has yet to answer. */
  app.get(
    '/api/admin/chats',
    { config: siteLevel('conversation'), schema: { querystring: chatQuerySchema, response: { 200: page('threads'), ...refusals } } },
    async (request, reply) => {
      const found = await siteOf(request, reply, request.query.site);
      if (!found) return reply;
      const { limit, cursor, awaiting_reply: awaitingReply, mock } = request.query;
      const threads = await chat.dealerThreads(
        found.siteId,
        { awaitingReply, mock: mock === 'only' ? true : mock === 'include' ? 'all' : false },
        { after: cursor, limit },
      );
      return reply.header('Cache-Control', 'no-store').send({ threads: threads.threads, next_cursor: nextCursor(threads.next) });
    },
  );

  /** The site a key opens by id (null: every site). */
  const chatSiteOf = (request: FastifyRequest) => {
    const access = accessOf(request);
    return access.kind === 'dealer' ? access.siteId : null;
  };

  /** One conversation whole, oldest message first; another dealer's is a 404, as if it did not exist. */
  app.get(
    '/api/admin/chats/:id',
    {
      config: siteLevel('conversation'),
      schema: {
        params: chatParamsSchema,
        response: { 200: z.object({ thread: z.looseObject({ id: z.number() }), messages: z.array(z.looseObject({})) }), ...refusals },
      },
    },
    async (request, reply) => {
      const found = await chat.dealerThread(request.params.id, chatSiteOf(request));
      if (!found) return reply.code(404).send(noChat(request.params.id));
      return reply.header('Cache-Control', 'no-store').send(found);
    },
  );

  /** The dealer's answer `{ body, author_name? }`: 201 `{ message }`, seen by the shopper's next poll; 409 once the conversation is full. */
  app.post(
    '/api/admin/chats/:id/replies',
    {
      bodyLimit: chatReplyBodyLimit,
      config: {
        adminAccess: 'site',
        schemaError: adminRefusal('conversation', (error) => chatFieldErrors(error, (key) => `${key} is not a field of a reply.`)),
      },
      schema: {
        params: chatParamsSchema,
        body: chatReplySchema,
        response: { 201: z.object({ message: z.looseObject({ id: z.number() }) }), ...refusals },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const result = await chat.reply(id, chatSiteOf(request), { body: request.body.body, authorName: request.body.author_name || null });
      switch (result.kind) {
        case 'not-found':
          return reply.code(404).send(noChat(id));
        case 'full':
          return reply.code(409).send({
            message: `Conversation ${id} has reached its ${chatLimits.messagesPerThread} messages: please call or e-mail the shopper to carry on.`,
          });
        case 'sent':
          return reply.code(201).header('Cache-Control', 'no-store').send({ message: result.message });
      }
    },
  );
}
