/**
 * Test support for the built-in chat suites (routes/chat.conversations.test.ts and
 * routes/chat.refusals-and-limits.test.ts): the platform with the chat's limits made small, a
 * dealer key for two sales desks, and the requests a shopper's chat window and a dealer make.
 * Production code does not import it.
 */
import { expect } from 'vitest';
import type { ChatThreadStarted, DealerChatThread } from '@dealer/contracts/chat';
import { createTestPlatform, siteRequest, testAdminKey, type TestPlatform } from './test-platform';

/** Demo sites: Metro and Harbour have the chat on (AU numbers), Lone Star has it off. */
export const metro = 'metro-motor-group';
export const harbour = 'harbour-used-cars';
export const noChat = 'lone-star-auto';
/** New conversations per connection and site: small, so the lead API's own limit shows. */
export const leadRateLimit = 3;
/** Polls per conversation token a minute: small, so a test reaches it. */
export const pollRateLimit = 10;

type ChatList = { threads: DealerChatThread[]; next_cursor: string | null };
export type ListedLead = { id: number; category: string; payload: Record<string, unknown>; mock: boolean; suspected_spam: boolean };

export const shopper = { name: 'Jane Citizen', phone: '0411 222 333', email: 'jane@example.com' };

/** The platform on `engine` with the small limits above, and a dealer key of Harbour's and of Metro's sales desk. */
export async function openChatPlatform(engine: 'sqlite' | 'postgres') {
  const platform = await createTestPlatform({
    engine,
    env: { LEADS_RATE_LIMIT: String(leadRateLimit), LEADS_MOCK_MODE: '1', CHAT_POLL_RATE_LIMIT: String(pollRateLimit) },
  });
  try {
    const keyFor = async (site: string) => {
      const created = await platform.app.inject({
        method: 'POST',
        url: '/api/admin/dealer-keys',
        headers: { authorization: `Bearer ${testAdminKey}` },
        payload: { site, label: 'Sales desk' },
      });
      expect(created.statusCode, created.body).toBe(201);
      return created.json<{ key: string }>().key;
    };
    const harbourKey = await keyFor(harbour);
    const metroKey = await keyFor(metro);
    return { platform, harbourKey, metroKey };
  } catch (error) {
    await platform.close();
    throw error;
  }
}

/** The shopper's and the dealer's requests to the chat of the platform `platform()` gives (once it is open). */
export function chatRequests(platform: () => TestPlatform, engine: 'sqlite' | 'postgres') {
  /** A fresh client address per shopper, so the per-connection lead limit of one test never trips another. */
  let addresses = 0;
  const freshIp = () => {
    addresses += 1;
    return `10.77.${(addresses >> 8) & 255}.${addresses & 255}`;
  };
  let ids = 0;
  const newId = () => `msg-${engine}-${++ids}`;

  const post = (slug: string, url: string, payload: unknown, headers: Record<string, string> = {}) =>
    siteRequest(platform().app, slug, 'POST', url, {
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp(), ...headers },
    });
  const startBody = (extra: Record<string, unknown> = {}) => ({
    ...shopper,
    message: 'Is the Corolla still available?',
    client_message_id: newId(),
    ...extra,
  });
  const startChat = async (slug = metro, extra: Record<string, unknown> = {}) => {
    const res = await post(slug, '/api/chat/threads', startBody(extra));
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ChatThreadStarted>();
  };
  const send = (slug: string, thread: Pick<ChatThreadStarted, 'thread_id' | 'token'>, payload: unknown, prefix = '/api') =>
    post(slug, `${prefix}/chat/threads/${thread.thread_id}/messages`, payload, { 'x-chat-token': thread.token });
  /** As mf-chat polls: with a JSON content type even though a GET has no body. */
  const poll = (slug: string, thread: Pick<ChatThreadStarted, 'thread_id' | 'token'>, query = '', prefix = '/api') =>
    siteRequest(platform().app, slug, 'GET', `${prefix}/chat/threads/${thread.thread_id}/messages${query}`, {
      headers: { 'x-chat-token': thread.token, 'content-type': 'application/json' },
    });
  const admin = (method: 'GET' | 'POST', url: string, payload?: unknown, key = testAdminKey) =>
    platform().app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${key}`, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
    });
  const jobsOf = (leadId: number) =>
    platform().ctx.db.selectFrom('lead_delivery_jobs').select('id').where('lead_id', '=', leadId).execute();
  const leadsWithKey = (key: string) => platform().ctx.db.selectFrom('leads').select('id').where('idempotency_key', '=', key).execute();
  const listChats = async (query: string, key = testAdminKey) => {
    const res = await admin('GET', `/api/admin/chats?${query}`, undefined, key);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ChatList>();
  };

  return { freshIp, newId, post, startBody, startChat, send, poll, admin, jobsOf, leadsWithKey, listChats };
}
