import {
  chatTokenHeader,
  type ChatMessage,
  type ChatMessages,
  type ChatMessageSent,
  type ChatStartBody,
  type ChatThreadStarted,
} from '@dealer/contracts/chat';

/** A conversation this browser started on this site: kept so it carries on after a reload or on another page. */
export type Conversation = { threadId: number; token: string };

/** Where the site's API answers: `/api`, or `/mock` when the platform runs in mock mode (SPEC §7). */
export type ApiPrefix = '/api' | '/mock';

export type ChatCallResult<T> =
  { ok: true; value: T } | { ok: false; status: number | null; message: string; fields?: Record<string, string> };

const unreachable = 'We could not reach the dealership just now. Please check your connection and try again.';

/** A random id per message, so a retried send is stored once. */
export function newClientMessageId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

async function call<T>(path: string, init: RequestInit): Promise<ChatCallResult<T>> {
  let response: Response;
  try {
    response = await fetch(path, { ...init, headers: { 'Content-Type': 'application/json', ...init.headers } });
  } catch {
    return { ok: false, status: null, message: unreachable };
  }
  const body = (await response.json().catch(() => null)) as (T & { message?: string; fields?: Record<string, string> }) | null;
  if (response.ok && body) return { ok: true, value: body };
  return { ok: false, status: response.status, message: body?.message ?? unreachable, fields: body?.fields };
}

export const startConversation = (api: ApiPrefix, body: ChatStartBody) =>
  call<ChatThreadStarted>(`${api}/chat/threads`, { method: 'POST', body: JSON.stringify(body) });

export const sendMessage = (api: ApiPrefix, conversation: Conversation, text: string, clientMessageId: string) =>
  call<ChatMessageSent>(`${api}/chat/threads/${conversation.threadId}/messages`, {
    method: 'POST',
    headers: { [chatTokenHeader]: conversation.token },
    body: JSON.stringify({ body: text, client_message_id: clientMessageId }),
  });

export const messagesAfter = (api: ApiPrefix, conversation: Conversation, after: number) =>
  call<ChatMessages>(`${api}/chat/threads/${conversation.threadId}/messages?after=${after}`, {
    method: 'GET',
    headers: { [chatTokenHeader]: conversation.token },
  });

const storageKey = (siteSlug: string) => `dealer:${siteSlug}:chat-conversation`;

export function storedConversation(siteSlug: string): Conversation | null {
  try {
    const value = JSON.parse(localStorage.getItem(storageKey(siteSlug)) ?? 'null') as Partial<Conversation> | null;
    return value && typeof value.threadId === 'number' && typeof value.token === 'string'
      ? { threadId: value.threadId, token: value.token }
      : null;
  } catch {
    return null;
  }
}

export function storeConversation(siteSlug: string, conversation: Conversation | null) {
  try {
    if (conversation) localStorage.setItem(storageKey(siteSlug), JSON.stringify(conversation));
    else localStorage.removeItem(storageKey(siteSlug));
  } catch {
    // Storage refused: the conversation lasts for this page.
  }
}

/** Messages merged by id, oldest first (a poll and a send may bring the same one). */
export function mergeMessages(current: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  const byId = new Map(current.map((message) => [message.id, message]));
  for (const message of incoming) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}
