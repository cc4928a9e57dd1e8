import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { refusalSchema, type RequestPart } from '../http/zod-schemas';
import { z } from 'zod';
import { chatLimits, chatTokenHeader, type ChatMessages, type ChatMessageSent } from '@dealer/contracts/chat';
import type { SiteConfig } from '@dealer/contracts/site';
import { phoneRegion } from '@dealer/rules/locale';
import { formatPhoneForDisplay } from '@dealer/rules/phone';
import { chatFieldErrors, clientMessageIdSchema, lineTextSchema, messageTextSchema } from '../chat/chat-text';
import { clientAddressKey } from '../http/client-address';
import { checkFieldsMessage } from '@dealer/leads/lead-service';
import type { PlatformContext } from '../platform-context';
import { tooManyRequests } from '../http/too-many-requests';

/** A first message with the shopper's details and the page (a long address at most): far under this. */
const startBodyLimit = 16 * 1024;
/** A message of 1,000 characters, each up to 4 bytes of UTF-8, and its id. */
const messageBodyLimit = 8 * 1024;

/** ChatStartBody, strictly: the name, phone and email are the lead's, checked by its SPEC §5 rules. */
const startBodySchema = z.strictObject({
  name: lineTextSchema('name', 200).optional(),
  phone: lineTextSchema('phone', 50).optional(),
  email: lineTextSchema('email', 320).optional(),
  message: messageTextSchema,
  client_message_id: clientMessageIdSchema,
  url: z
    .string({ error: 'url must be the address of the page the chat was opened on.' })
    .max(4000, 'url is at most 4000 characters.')
    .optional(),
  form_started_at: z.number({ error: 'form_started_at must be a time in ms since the epoch.' }).optional(),
});

/** ChatMessageBody, strictly. */
const messageBodySchema = z.strictObject({ body: messageTextSchema, client_message_id: clientMessageIdSchema });

const unknownField = (key: string) => `${key} is not a field of a chat message.`;

export const chatRefusals = {
  notFound: 'This conversation was not found on this site. Please start a new one.',
  noChat: 'This site has no chat. Please use the enquiry form or call the dealership.',
  idTaken: 'This client_message_id was already used for another message. Send a new id with a new message.',
  badAfter: 'after must be the id of the last message received (a whole number; 0 or left out for all).',
} as const;

/** The shopper is asked to call once a conversation holds `messagesPerThread` messages. */
function fullMessage(site: SiteConfig) {
  const phone = site.phone ? formatPhoneForDisplay(site.phone, phoneRegion(site.locale)) : '';
  return `This conversation has reached its ${chatLimits.messagesPerThread} messages. Please call the dealership${phone ? ` on ${phone}` : ''} to carry on.`;
}

const chatEnabled = (site: SiteConfig) => site.remotes.some((remote) => remote.name === 'mf-chat' && remote.enabled);

const tokenHeaderName = chatTokenHeader.toLowerCase();

const chatMessageSchema = z.object({
  id: z.number(),
  author: z.enum(['shopper', 'dealer']),
  author_name: z.string().nullable(),
  body: z.string(),
  sent_at: z.number(),
});
const threadStartedSchema = z.object({
  thread_id: z.number(),
  lead_id: z.number(),
  token: z.string(),
  messages: z.array(chatMessageSchema),
});
const messageSentSchema = z.object({ message: chatMessageSchema });

/**
 * The shopper's side of the built-in chat (issue 11), under /api (and /mock in mock mode, as the
 * lead calls: mock conversations make mock leads, never delivered). 404 on a site whose `mf-chat`
 * remote is off. Every answer is `no-store`.
 * - `POST /chat/threads` ChatStartBody: 201 ChatThreadStarted, 200 for a retry with the same
 *   client_message_id; the lead API's 400 `{ message, fields }` and 429; 422 for a client id
 *   already used for something else.
 * - `POST /chat/threads/:id/messages` (X-Chat-Token) ChatMessageBody: 201 ChatMessageSent, 200
 *   with the stored message for a retry; 404 for a wrong token or another site's conversation,
 *   429 with Retry-After past the per-conversation limit, 409 once the conversation is full.
 * - `GET /chat/threads/:id/messages?after=` (X-Chat-Token): ChatMessages after that id; 429 with
 *   Retry-After past CHAT_POLL_RATE_LIMIT polls a minute on the conversation (an open window makes 15,
 *   and one more per message it gets).
 */
export async function chatRoutes(scope: FastifyInstance, ctx: PlatformContext) {
  const { chat } = ctx;
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
  });
  // Every chat route is a site's (config.site): a site without the chat switched on answers 404.
  app.addHook('preValidation', async (request, reply) => {
    if (!chatEnabled(request.site)) return reply.code(404).send({ message: chatRefusals.noChat });
  });

  /** A conversation's id that cannot be one is a conversation not found; a bad body a 400 naming its fields. */
  const refusal = (error: z.ZodError, part: RequestPart) =>
    part === 'params'
      ? { status: 404, body: { message: chatRefusals.notFound } }
      : part === 'querystring'
        ? { status: 400, body: { message: chatRefusals.badAfter } }
        : { status: 400, body: { message: checkFieldsMessage, fields: chatFieldErrors(error, unknownField) } };
  const threadParams = z.object({
    id: z
      .string()
      .regex(/^\d{1,15}$/)
      .transform(Number)
      .refine((id) => id > 0),
  });
  const tokenHeaders = z.looseObject({ [tokenHeaderName]: z.string().optional() });
  const tokenOf = (headers: Record<string, unknown>) => {
    const raw = headers[tokenHeaderName];
    return typeof raw === 'string' && raw !== '' ? raw : null;
  };

  const prefixes = [{ prefix: '/api', mock: false }, ...(ctx.config.leads.mockMode ? [{ prefix: '/mock', mock: true }] : [])];
  for (const { prefix, mock } of prefixes) {
    app.post(
      `${prefix}/chat/threads`,
      {
        bodyLimit: startBodyLimit,
        config: {
          site: 'required',
          // The details' own problems too, so the shopper sees every field to fix at once.
          schemaError: (error, _part, request) => {
            const raw = request.body;
            const contact = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? chat.contactProblems(request.site, raw) : {};
            return { status: 400, body: { message: checkFieldsMessage, fields: { ...contact, ...chatFieldErrors(error, unknownField) } } };
          },
        },
        schema: { body: startBodySchema, response: { 200: threadStartedSchema, 201: threadStartedSchema, '4xx': refusalSchema } },
      },
      async (request, reply) => {
        const { site } = request;
        const result = await chat.start({
          site,
          body: request.body,
          mock,
          ip: clientAddressKey(request.ip),
          userAgent: String(request.headers['user-agent'] ?? ''),
        });
        switch (result.kind) {
          case 'started':
            return reply.code(result.created ? 201 : 200).send(result.started);
          case 'id-taken':
            return reply.code(422).send({ message: chatRefusals.idTaken, fields: { client_message_id: chatRefusals.idTaken } });
          case 'refused':
            if (result.headers) void reply.headers(result.headers);
            return reply.code(result.status).send(result.body);
        }
      },
    );

    app.post(
      `${prefix}/chat/threads/:id/messages`,
      {
        bodyLimit: messageBodyLimit,
        config: { site: 'required', schemaError: refusal },
        schema: {
          params: threadParams,
          headers: tokenHeaders,
          body: messageBodySchema,
          response: { 200: messageSentSchema, 201: messageSentSchema, '4xx': refusalSchema },
        },
      },
      async (request, reply) => {
        const { site } = request;
        const result = await chat.send({ site, mock, threadId: request.params.id, token: tokenOf(request.headers) }, request.body);
        switch (result.kind) {
          case 'sent':
            return reply.code(result.created ? 201 : 200).send({ message: result.message } satisfies ChatMessageSent);
          case 'not-found':
            return reply.code(404).send({ message: chatRefusals.notFound });
          case 'full':
            return reply.code(409).send({ message: fullMessage(site) });
          case 'too-many':
            return tooManyRequests(
              reply,
              result.retryAfterMs,
              (wait) =>
                `You can send ${chatLimits.shopperMessagesPerWindow} messages in ${chatLimits.windowMs / 60_000} minutes. Please wait ${wait} before the next one, or call the dealership.`,
            );
        }
      },
    );

    app.get(
      `${prefix}/chat/threads/:id/messages`,
      {
        config: { site: 'required', schemaError: refusal },
        schema: {
          params: threadParams,
          headers: tokenHeaders,
          querystring: z.object({
            after: z
              .string()
              .regex(/^(\d{1,15})?$/)
              .optional(),
          }),
          response: { 200: z.object({ messages: z.array(chatMessageSchema) }), '4xx': refusalSchema },
        },
      },
      async (request, reply) => {
        const after = request.query.after ? Number(request.query.after) : 0;
        const result = await chat.poll({ site: request.site, mock, threadId: request.params.id, token: tokenOf(request.headers) }, after);
        switch (result.kind) {
          case 'messages':
            return reply.send({ messages: result.messages } satisfies ChatMessages);
          case 'not-found':
            return reply.code(404).send({ message: chatRefusals.notFound });
          case 'too-many':
            return tooManyRequests(
              reply,
              result.retryAfterMs,
              (wait) =>
                `This conversation was checked for new messages more than ${ctx.config.chat.pollsPerMinute} times in a minute. Please wait ${wait} before checking again; no message is lost meanwhile.`,
            );
        }
      },
    );
  }
}
