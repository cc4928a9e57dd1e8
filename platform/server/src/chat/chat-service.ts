import { createHmac, randomBytes } from 'node:crypto';
import { chatLeadSubcategory, chatLimits, type ChatMessage, type ChatThreadStarted, type DealerChatThread } from '@dealer/contracts/chat';
import type { SiteConfig } from '@dealer/contracts/site';
import { defaultEnquiryCategory } from '@dealer/rules/enquiry';
import type { PlatformDb } from '@dealer/db/database';
import {
  appendMessage,
  findMessageByClientId,
  findThread,
  findThreadOfLead,
  insertThread,
  latestMessages,
  messagesAfter,
  threadPage,
  type StoredChatMessage,
  type StoredChatThread,
  type ThreadFilter,
} from '@dealer/db/chat-store';
import type { Page, PagePosition } from '@dealer/db/page-cursor';
import { ruleErrors } from '@dealer/leads/lead-schema';
import { tokenMatches, type LeadService } from '@dealer/leads/lead-service';
import { RateLimiter } from '@dealer/leads/spam';

/**
 * A conversation's token: an HMAC of its id and random salt under the leads' token secret. Its own
 * prefix keeps it apart from a lead's update token (`lead-update:`), so neither opens the other.
 */
export function chatTokenOf(secret: string, threadId: number, salt: string): string {
  return createHmac('sha256', secret).update(`chat-thread:${threadId}:${salt}`).digest('base64url');
}

/** The shopper's first message and details, checked and cleaned by the route. */
export type ChatStart = {
  name?: string;
  phone?: string;
  email?: string;
  message: string;
  client_message_id: string;
  url?: string;
  form_started_at?: number;
};

export type StartResult =
  | { kind: 'started'; created: boolean; started: ChatThreadStarted }
  /** The lead pipeline refused the lead (400 with fields, 429...): its answer, as it gave it. */
  | { kind: 'refused'; status: number; body: { message: string; fields?: Record<string, string> }; headers?: Record<string, string> }
  /** The client id already started something else (another first message, or a lead of its own). */
  | { kind: 'id-taken' };

export type SendResult =
  | { kind: 'sent'; created: boolean; message: ChatMessage }
  | { kind: 'not-found' }
  | { kind: 'full' }
  | { kind: 'too-many'; retryAfterMs: number };

export type PollResult = { kind: 'messages'; messages: ChatMessage[] } | { kind: 'not-found' } | { kind: 'too-many'; retryAfterMs: number };

export type ReplyResult = { kind: 'sent'; message: ChatMessage } | { kind: 'not-found' } | { kind: 'full' };

/** The shopper's way into a conversation: the site it is on, which door (/api or /mock) and its token. */
export type ShopperKey = { site: SiteConfig; mock: boolean; threadId: number; token: string | null };

export const toChatMessage = (message: StoredChatMessage): ChatMessage => ({
  id: message.id,
  author: message.author,
  author_name: message.author_name,
  body: message.body,
  sent_at: message.created_at,
});

const dealerView = (thread: StoredChatThread, last: StoredChatMessage): DealerChatThread => ({
  id: thread.id,
  lead_id: thread.lead_id,
  name: thread.name,
  phone: thread.phone,
  email: thread.email,
  created_at: thread.created_at,
  last_message: toChatMessage(last),
  awaiting_reply: thread.last_author === 'shopper',
});

/**
 * The built-in chat (issue 11). A conversation starts as a lead through the lead pipeline (stored,
 * checked and delivered once like any enquiry), with the conversation and its first message in
 * the lead's transaction; the shopper then talks on it with its token and the dealer answers
 * through the admin API. Each conversation holds at most `chatLimits.messagesPerThread` messages,
 * and its shopper sends at most `shopperMessagesPerWindow` per `windowMs`.
 */
export class ChatService {
  /** Shopper messages per conversation (in memory, bounded like every RateLimiter). */
  private readonly limiter = new RateLimiter(chatLimits.shopperMessagesPerWindow, chatLimits.windowMs);
  /** Polls per conversation a minute (CHAT_POLL_RATE_LIMIT); 0: no limit. */
  private readonly pollLimiter: RateLimiter;

  constructor(private readonly deps: { db: PlatformDb; leads: LeadService; tokenSecret: string; pollsPerMinute: number }) {
    this.pollLimiter = new RateLimiter(deps.pollsPerMinute, 60_000);
  }

  private tokenOf(thread: Pick<StoredChatThread, 'id' | 'token_salt'>) {
    return chatTokenOf(this.deps.tokenSecret, thread.id, thread.token_salt);
  }

  /** The SPEC §5 problems of the shopper's name, phone and email, to show beside the chat's own when its body is refused. */
  contactProblems(site: SiteConfig, values: { name?: unknown; phone?: unknown; email?: unknown }): Record<string, string> {
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    const problems = ruleErrors(
      { category: defaultEnquiryCategory, name: text(values.name), phone: text(values.phone), email: text(values.email) },
      site,
      true,
    );
    return Object.fromEntries(Object.entries(problems).filter(([field]) => field === 'name' || field === 'phone' || field === 'email'));
  }

  async start(request: {
    site: SiteConfig;
    body: ChatStart;
    mock: boolean;
    ip: string;
    userAgent: string;
    now?: number;
  }): Promise<StartResult> {
    const now = request.now ?? Date.now();
    const { site, body } = request;
    const lead: Record<string, unknown> = {
      category: defaultEnquiryCategory,
      subcategory: chatLeadSubcategory,
      name: body.name,
      phone: body.phone,
      email: body.email,
      message: body.message,
      url: body.url,
      form_started_at: body.form_started_at,
    };
    for (const [field, value] of Object.entries(lead)) if (value === undefined) delete lead[field];
    const written: { thread?: { threadId: number; tokenSalt: string; message: StoredChatMessage } } = {};
    const reply = await this.deps.leads.create({
      site,
      lead,
      // A retry of the start (same client id) is answered with the conversation it started.
      idempotencyKey: `chat:${body.client_message_id}`,
      userAgent: request.userAgent,
      ip: request.ip,
      mock: request.mock,
      now,
      withinTransaction: async (trx, leadId) => {
        const tokenSalt = randomBytes(16).toString('base64url');
        const inserted = await insertThread(
          trx,
          {
            siteId: site.id,
            leadId,
            tokenSalt,
            name: body.name ?? '',
            phone: body.phone ?? '',
            email: body.email ?? '',
            body: body.message,
            clientMessageId: body.client_message_id,
          },
          now,
        );
        written.thread = { ...inserted, tokenSalt };
      },
    });
    if (!('lead_id' in reply.body)) {
      // The lead pipeline's answer to an Idempotency-Key reused for another body.
      if (reply.status === 422) return { kind: 'id-taken' };
      return { kind: 'refused', status: reply.status, body: reply.body, headers: 'headers' in reply ? reply.headers : undefined };
    }
    const leadId = reply.body.lead_id;
    if (reply.status === 201 && written.thread) {
      const { threadId, tokenSalt, message } = written.thread;
      // The first message counts towards the shopper's messages on the conversation.
      this.limiter.take(`thread:${threadId}`, now);
      return {
        kind: 'started',
        created: true,
        started: {
          thread_id: threadId,
          lead_id: leadId,
          token: this.tokenOf({ id: threadId, token_salt: tokenSalt }),
          messages: [toChatMessage(message)],
        },
      };
    }
    const thread = await findThreadOfLead(this.deps.db, leadId);
    if (!thread) return { kind: 'id-taken' };
    const messages = await messagesAfter(this.deps.db, thread.id, 0, chatLimits.messagesPerThread);
    return {
      kind: 'started',
      created: false,
      started: { thread_id: thread.id, lead_id: leadId, token: this.tokenOf(thread), messages: messages.map(toChatMessage) },
    };
  }

  /** The conversation when the key opens it: its site, its door (/api or /mock) and its token; null for anything else, alike. */
  private async open(key: ShopperKey): Promise<StoredChatThread | null> {
    if (!key.token) return null;
    const thread = await findThread(this.deps.db, key.threadId);
    if (!thread || thread.site_id !== key.site.id || thread.mock !== key.mock) return null;
    return tokenMatches(key.token, this.tokenOf(thread)) ? thread : null;
  }

  /** A shopper's follow-up message. A retry (same client id) is answered with the message stored first, and not counted again. */
  async send(key: ShopperKey, body: { body: string; client_message_id: string }, now = Date.now()): Promise<SendResult> {
    const thread = await this.open(key);
    if (!thread) return { kind: 'not-found' };
    const earlier = await findMessageByClientId(this.deps.db, thread.id, body.client_message_id);
    if (earlier) return { kind: 'sent', created: false, message: toChatMessage(earlier) };
    if (thread.message_count >= chatLimits.messagesPerThread) return { kind: 'full' };
    const limited = this.limiter.take(`thread:${thread.id}`, now);
    if (!limited.ok) return { kind: 'too-many', retryAfterMs: limited.retryAfterMs };
    const appended = await appendMessage(
      this.deps.db,
      thread.id,
      { author: 'shopper', authorName: null, body: body.body, clientMessageId: body.client_message_id },
      chatLimits.messagesPerThread,
      now,
    );
    if (appended.kind === 'full') return { kind: 'full' };
    return { kind: 'sent', created: appended.kind === 'stored', message: toChatMessage(appended.message) };
  }

  /**
   * The messages after the given one, oldest first (the chat window's poll). Counted once the token
   * opens the conversation, so polls with a made-up token (404s) spend none of the shopper's.
   */
  async poll(key: ShopperKey, after: number, now = Date.now()): Promise<PollResult> {
    const thread = await this.open(key);
    if (!thread) return { kind: 'not-found' };
    const limited = this.pollLimiter.take(`thread:${thread.id}`, now);
    if (!limited.ok) return { kind: 'too-many', retryAfterMs: limited.retryAfterMs };
    return {
      kind: 'messages',
      messages: (await messagesAfter(this.deps.db, thread.id, after, chatLimits.messagesPerThread)).map(toChatMessage),
    };
  }

  /** A page of a site's conversations for its dealer, latest activity first. */
  async dealerThreads(
    siteId: number,
    filter: ThreadFilter,
    page: Page,
  ): Promise<{ threads: DealerChatThread[]; next: PagePosition | null }> {
    const { threads, next } = await threadPage(this.deps.db, siteId, filter, page);
    const latest = await latestMessages(
      this.deps.db,
      threads.map((thread) => thread.id),
    );
    return { threads: threads.flatMap((thread) => (latest.has(thread.id) ? [dealerView(thread, latest.get(thread.id)!)] : [])), next };
  }

  /** A conversation whole, if it is on the given site (null: any site, the platform's key). */
  async dealerThread(threadId: number, siteId: number | null): Promise<{ thread: DealerChatThread; messages: ChatMessage[] } | null> {
    const thread = await findThread(this.deps.db, threadId);
    if (!thread || (siteId !== null && thread.site_id !== siteId)) return null;
    const messages = await messagesAfter(this.deps.db, thread.id, 0, chatLimits.messagesPerThread);
    const last = messages[messages.length - 1];
    if (!last) return null;
    return { thread: dealerView(thread, last), messages: messages.map(toChatMessage) };
  }

  /** The dealer's answer, which the shopper's next poll picks up. */
  async reply(
    threadId: number,
    siteId: number | null,
    reply: { body: string; authorName: string | null },
    now = Date.now(),
  ): Promise<ReplyResult> {
    const thread = await findThread(this.deps.db, threadId);
    if (!thread || (siteId !== null && thread.site_id !== siteId)) return { kind: 'not-found' };
    const appended = await appendMessage(
      this.deps.db,
      thread.id,
      { author: 'dealer', authorName: reply.authorName, body: reply.body, clientMessageId: null },
      chatLimits.messagesPerThread,
      now,
    );
    if (appended.kind === 'full') return { kind: 'full' };
    return { kind: 'sent', message: toChatMessage(appended.message) };
  }
}
