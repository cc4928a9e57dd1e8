// The built-in chat's API (issue 11): plain types and values only, so mf-chat can import them
// without the schema library. The server checks every body itself.

/**
 * Bounds of the built-in chat. A message is at most `messageMax` characters; a conversation keeps
 * at most `messagesPerThread` messages (then the shopper is asked to call); a shopper may send
 * `shopperMessagesPerWindow` messages per `windowMs` on one conversation.
 */
export const chatLimits = {
  messageMax: 1000,
  messagesPerThread: 200,
  shopperMessagesPerWindow: 20,
  windowMs: 10 * 60_000,
  authorNameMax: 60,
} as const;

/** The lead a conversation becomes: a general enquiry the dealer's CRM can route as web chat. */
export const chatLeadSubcategory = 'Web Chat';

/** The header carrying a conversation's token (handed out when it starts) on the shopper's calls. */
export const chatTokenHeader = 'X-Chat-Token';

/** How often an open chat window asks for the dealer's replies. */
export const chatPollMs = 4000;

/**
 * POST /api/chat/threads: the shopper's first message and their details (SPEC §5 rules, as the
 * enquiry form's), which become the lead. `client_message_id` makes a retry safe: the same id
 * answers the same conversation.
 */
export type ChatStartBody = {
  name: string;
  phone: string;
  email: string;
  message: string;
  client_message_id: string;
  url?: string;
  form_started_at?: number;
};

/** POST /api/chat/threads/{id}/messages with the token header. */
export type ChatMessageBody = { body: string; client_message_id: string };

export type ChatMessage = {
  id: number;
  author: 'shopper' | 'dealer';
  /** The dealer's person who answered (null for the shopper's own messages). */
  author_name: string | null;
  body: string;
  /** ms since the epoch */
  sent_at: number;
};

/** The answer to starting a conversation (201, or 200 for a retry). */
export type ChatThreadStarted = { thread_id: number; lead_id: number; token: string; messages: ChatMessage[] };

/** GET /api/chat/threads/{id}/messages?after={message id}: the messages after the given one. */
export type ChatMessages = { messages: ChatMessage[] };

/** POST /api/chat/threads/{id}/messages: 201 with the stored message (200 for a retry). */
export type ChatMessageSent = { message: ChatMessage };

/** A conversation as the dealer lists it (GET /api/admin/chats). */
export type DealerChatThread = {
  id: number;
  lead_id: number;
  name: string;
  phone: string;
  email: string;
  created_at: number;
  last_message: ChatMessage;
  /** The shopper spoke last: the dealer has not answered yet. */
  awaiting_reply: boolean;
};
