import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chatLeadSubcategory,
  chatLimits,
  chatPollMs,
  type ChatMessage,
  type ChatThreadStarted,
  type DealerChatThread,
} from '@dealer/contracts/chat';
import { formMessages } from '@dealer/contracts/lead-values';
import { chatTextMessages } from '../chat/chat-text';
import { findSiteIdBySlug, loadSiteConfig } from '@dealer/db/site-store';
import { skipPostgres } from '@dealer/testing/postgres';
import { createTestPlatform, siteRequest, testAdminKey, type TestPlatform } from '../testing/test-platform';
import { chatRefusals } from './chat';
import { ChatService } from '../chat/chat-service';
import { loadConfig } from '../config';

/** Demo sites: Metro and Harbour have the chat on (AU numbers), Lone Star has it off. */
const metro = 'metro-motor-group';
const harbour = 'harbour-used-cars';
const noChat = 'lone-star-auto';
/** New conversations per connection and site: small, so the lead API's own limit shows. */
const leadRateLimit = 3;
/** Polls per conversation token a minute: small, so a test reaches it. */
const pollRateLimit = 10;

type ChatList = { threads: DealerChatThread[]; next_cursor: string | null };
type ListedLead = { id: number; category: string; payload: Record<string, unknown>; mock: boolean; suspected_spam: boolean };

const shopper = { name: 'Jane Citizen', phone: '0411 222 333', email: 'jane@example.com' };

describe.each(['sqlite', 'postgres'] as const)('the built-in chat on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let platform: TestPlatform;
  let harbourKey: string;
  let metroKey: string;

  beforeAll(async () => {
    platform = await createTestPlatform({
      engine,
      env: { LEADS_RATE_LIMIT: String(leadRateLimit), LEADS_MOCK_MODE: '1', CHAT_POLL_RATE_LIMIT: String(pollRateLimit) },
    });
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
    harbourKey = await keyFor(harbour);
    metroKey = await keyFor(metro);
  });
  afterAll(async () => {
    await platform?.close();
  });

  /** A fresh client address per shopper, so the per-connection lead limit of one test never trips another. */
  let addresses = 0;
  const freshIp = () => {
    addresses += 1;
    return `10.77.${(addresses >> 8) & 255}.${addresses & 255}`;
  };
  let ids = 0;
  const newId = () => `msg-${engine}-${++ids}`;

  const post = (slug: string, url: string, payload: unknown, headers: Record<string, string> = {}) =>
    siteRequest(platform.app, slug, 'POST', url, {
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
    siteRequest(platform.app, slug, 'GET', `${prefix}/chat/threads/${thread.thread_id}/messages${query}`, {
      headers: { 'x-chat-token': thread.token, 'content-type': 'application/json' },
    });
  const admin = (method: 'GET' | 'POST', url: string, payload?: unknown, key = testAdminKey) =>
    platform.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${key}`, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
    });
  const jobsOf = (leadId: number) => platform.ctx.db.selectFrom('lead_delivery_jobs').select('id').where('lead_id', '=', leadId).execute();
  const leadsWithKey = (key: string) => platform.ctx.db.selectFrom('leads').select('id').where('idempotency_key', '=', key).execute();
  const listChats = async (query: string, key = testAdminKey) => {
    const res = await admin('GET', `/api/admin/chats?${query}`, undefined, key);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ChatList>();
  };

  it('turns a shopper’s first message into a Web Chat lead the dealer gets once, with the message in it', async () => {
    const before = Date.now();
    const started = await startChat(metro, { url: 'https://metro.example/cars/1', form_started_at: before - 60_000 });
    expect(started).toEqual({
      thread_id: expect.any(Number),
      lead_id: expect.any(Number),
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      messages: [
        {
          id: expect.any(Number),
          author: 'shopper',
          author_name: null,
          body: 'Is the Corolla still available?',
          sent_at: expect.any(Number),
        },
      ],
    });
    expect(started.messages[0]!.sent_at).toBeGreaterThanOrEqual(before);

    const leads = await admin('GET', `/api/admin/leads?site=${metro}&limit=5`);
    const lead = leads.json<{ leads: ListedLead[] }>().leads.find((listed) => listed.id === started.lead_id);
    expect(lead).toMatchObject({
      category: 'General Enquiry',
      mock: false,
      suspected_spam: false,
      payload: {
        subcategory: chatLeadSubcategory,
        name: 'Jane Citizen',
        phone: '0411 222 333',
        email: 'jane@example.com',
        message: 'Is the Corolla still available?',
        url: 'https://metro.example/cars/1',
      },
    });
    expect(await jobsOf(started.lead_id)).toHaveLength(1);
  });

  it('answers a retried start with the same conversation, and makes no second lead', async () => {
    const body = startBody();
    const first = await post(metro, '/api/chat/threads', body);
    expect(first.statusCode).toBe(201);
    const again = await post(metro, '/api/chat/threads', body);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await leadsWithKey(`chat:${body.client_message_id}`)).toHaveLength(1);
    expect(await jobsOf(first.json<ChatThreadStarted>().lead_id)).toHaveLength(1);

    // The same id with another first message is not that conversation.
    const other = await post(metro, '/api/chat/threads', { ...body, message: 'Something else entirely' });
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({ message: chatRefusals.idTaken, fields: { client_message_id: chatRefusals.idTaken } });
  });

  it('keeps the shopper’s follow-up messages in order, a retried one stored once', async () => {
    const thread = await startChat();
    const followUp = { body: 'Could I see it on Saturday?', client_message_id: newId() };
    const sent = await send(metro, thread, followUp);
    expect(sent.statusCode, sent.body).toBe(201);
    const message = sent.json<{ message: ChatMessage }>().message;
    expect(message).toEqual({
      id: expect.any(Number),
      author: 'shopper',
      author_name: null,
      body: followUp.body,
      sent_at: expect.any(Number),
    });

    const retried = await send(metro, thread, followUp);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toEqual({ message });
    expect((await send(metro, thread, { body: 'Around 10am?', client_message_id: newId() })).statusCode).toBe(201);

    const all = await poll(metro, thread);
    expect(all.statusCode).toBe(200);
    expect(all.headers['cache-control']).toBe('no-store');
    expect(all.json<{ messages: ChatMessage[] }>().messages.map((entry) => entry.body)).toEqual([
      'Is the Corolla still available?',
      'Could I see it on Saturday?',
      'Around 10am?',
    ]);
    const stored = await platform.ctx.db.selectFrom('chat_messages').select('id').where('thread_id', '=', thread.thread_id).execute();
    expect(stored).toHaveLength(3);
  });

  it('stores a start and a message sent twice at once (a double tap, a retry racing the first) once', async () => {
    const body = startBody();
    const ip = freshIp();
    const starts = await Promise.all([0, 1].map(() => post(metro, '/api/chat/threads', body, { 'x-forwarded-for': ip })));
    expect(starts.map((res) => res.statusCode).sort()).toEqual([200, 201]);
    const [a, b] = starts.map((res) => res.json<ChatThreadStarted>());
    expect(a!.thread_id).toBe(b!.thread_id);
    expect(a!.token).toBe(b!.token);
    expect(await leadsWithKey(`chat:${body.client_message_id}`)).toHaveLength(1);

    const followUp = { body: 'Sent twice', client_message_id: newId() };
    const sends = await Promise.all([0, 1, 2].map(() => send(metro, a!, followUp)));
    expect(sends.map((res) => res.statusCode).sort()).toEqual([200, 200, 201]);
    expect(new Set(sends.map((res) => res.json<{ message: ChatMessage }>().message.id)).size).toBe(1);
    const stored = await platform.ctx.db
      .selectFrom('chat_threads')
      .select('message_count')
      .where('id', '=', a!.thread_id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.message_count)).toBe(2);
    expect((await poll(metro, a!)).json<{ messages: ChatMessage[] }>().messages).toHaveLength(2);
  });

  it('lists the conversations awaiting a reply; the dealer answers and the shopper’s next poll shows it', async () => {
    const thread = await startChat(metro, { message: 'Do you take trade-ins?' });
    const waiting = await listChats(`site=${metro}&awaiting_reply=true`);
    const listed = waiting.threads.find((entry) => entry.id === thread.thread_id);
    expect(listed).toEqual({
      id: thread.thread_id,
      lead_id: thread.lead_id,
      name: 'Jane Citizen',
      phone: '0411 222 333',
      email: 'jane@example.com',
      created_at: expect.any(Number),
      last_message: thread.messages[0],
      awaiting_reply: true,
    });
    expect(waiting.threads.every((entry) => entry.awaiting_reply)).toBe(true);
    // Newest activity first.
    expect(waiting.threads[0]!.id).toBe(thread.thread_id);

    const answered = await admin('POST', `/api/admin/chats/${thread.thread_id}/replies`, {
      body: 'We do! Bring it in any time.',
      author_name: 'Sam from Sales',
    });
    expect(answered.statusCode, answered.body).toBe(201);
    const reply = answered.json<{ message: ChatMessage }>().message;
    expect(reply).toEqual({
      id: expect.any(Number),
      author: 'dealer',
      author_name: 'Sam from Sales',
      body: 'We do! Bring it in any time.',
      sent_at: expect.any(Number),
    });

    expect((await listChats(`site=${metro}&awaiting_reply=true`)).threads.map((entry) => entry.id)).not.toContain(thread.thread_id);
    expect((await listChats(`site=${metro}&awaiting_reply=false`)).threads.find((entry) => entry.id === thread.thread_id)).toMatchObject({
      awaiting_reply: false,
      last_message: reply,
    });

    const seen = await poll(metro, thread, `?after=${thread.messages[0]!.id}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toEqual({ messages: [reply] });
    expect((await poll(metro, thread, `?after=${reply.id}`)).json()).toEqual({ messages: [] });

    const whole = await admin('GET', `/api/admin/chats/${thread.thread_id}`, undefined, metroKey);
    expect(whole.statusCode).toBe(200);
    expect(whole.json()).toEqual({
      thread: expect.objectContaining({ id: thread.thread_id, awaiting_reply: false, last_message: reply }),
      messages: [thread.messages[0], reply],
    });

    // The shopper answers back: the conversation waits for the dealer again, and the reply without a name has none.
    expect((await send(metro, thread, { body: 'Great, see you Saturday', client_message_id: newId() })).statusCode).toBe(201);
    expect((await listChats(`site=${metro}&awaiting_reply=true`)).threads[0]!.id).toBe(thread.thread_id);
    const unnamed = await admin('POST', `/api/admin/chats/${thread.thread_id}/replies`, { body: 'See you then.' }, metroKey);
    expect(unnamed.statusCode).toBe(201);
    expect(unnamed.json<{ message: ChatMessage }>().message.author_name).toBeNull();
  });

  it('pages the dealer’s conversations with a cursor, no conversation twice', async () => {
    for (let n = 0; n < 3; n++) await startChat(harbour);
    const seen: number[] = [];
    let url = `site=${harbour}&limit=2`;
    for (;;) {
      const page = await listChats(url);
      expect(page.threads.length).toBeLessThanOrEqual(2);
      seen.push(...page.threads.map((thread) => thread.id));
      if (!page.next_cursor) break;
      url = `site=${harbour}&limit=2&cursor=${page.next_cursor}`;
    }
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(new Set(seen).size).toBe(seen.length);
    for (const [query, message] of [
      ['awaiting_reply=yes', 'awaiting_reply: awaiting_reply must be true or false'],
      ['limit=0', 'limit: limit must be at least 1'],
      ['cursor=nope', 'cursor: is not a cursor this listing handed out; start again from the first page (no cursor)'],
    ]) {
      const res = await admin('GET', `/api/admin/chats?site=${harbour}&${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toEqual({ message });
    }
    expect((await admin('GET', '/api/admin/chats')).statusCode).toBe(400);
    expect((await admin('GET', '/api/admin/chats?site=no-such-site')).statusCode).toBe(404);
  });

  it('treats another site’s conversation, a wrong or missing token, and a lead’s update token as not found', async () => {
    const thread = await startChat(metro);
    const message = () => ({ body: 'Hello?', client_message_id: newId() });
    const notFound = { message: chatRefusals.notFound };

    for (const res of [await send(harbour, thread, message()), await poll(harbour, thread)]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(notFound);
    }
    const wrong = { ...thread, token: `${thread.token.slice(0, -1)}${thread.token.endsWith('A') ? 'B' : 'A'}` };
    expect((await send(metro, wrong, message())).statusCode).toBe(404);
    expect((await poll(metro, wrong)).statusCode).toBe(404);
    const missing = await post(metro, `/api/chat/threads/${thread.thread_id}/messages`, message());
    expect(missing.statusCode).toBe(404);
    expect((await siteRequest(platform.app, metro, 'GET', `/api/chat/threads/${thread.thread_id}/messages`)).statusCode).toBe(404);

    // The lead's own update token (from the lead API) never opens the conversation.
    const lead = await post(metro, '/api/leads', { lead: { category: 'General Enquiry', ...shopper, message: 'A form enquiry' } });
    expect(lead.statusCode, lead.body).toBe(201);
    expect((await poll(metro, { thread_id: thread.thread_id, token: lead.json<{ update_token: string }>().update_token })).statusCode).toBe(
      404,
    );

    for (const id of ['0', 'abc', '99999999999', '1e3', '-1', '9'.repeat(40)]) {
      const res = await siteRequest(platform.app, metro, 'GET', `/api/chat/threads/${id}/messages`, {
        headers: { 'x-chat-token': thread.token },
      });
      expect(res.statusCode, id).toBe(404);
    }
    // Nothing was added by any of those.
    expect((await poll(metro, thread)).json<{ messages: ChatMessage[] }>().messages).toHaveLength(1);
  });

  it('lets a dealer key read and answer its own site’s conversations only', async () => {
    const thread = await startChat(metro);
    expect((await admin('GET', `/api/admin/chats/${thread.thread_id}`, undefined, harbourKey)).statusCode).toBe(404);
    const answered = await admin('POST', `/api/admin/chats/${thread.thread_id}/replies`, { body: 'Not my customer' }, harbourKey);
    expect(answered.statusCode).toBe(404);
    expect(answered.json()).toEqual({ message: `No chat conversation with id ${thread.thread_id}.` });
    expect((await admin('GET', `/api/admin/chats?site=${metro}`, undefined, harbourKey)).statusCode).toBe(403);
    expect((await listChats('', harbourKey)).threads.map((entry) => entry.id)).not.toContain(thread.thread_id);
    expect((await listChats('', metroKey)).threads.map((entry) => entry.id)).toContain(thread.thread_id);
    // Nothing was added by the other dealer.
    expect((await poll(metro, thread)).json<{ messages: ChatMessage[] }>().messages).toHaveLength(1);

    const noKey = await platform.app.inject({ method: 'GET', url: `/api/admin/chats/${thread.thread_id}` });
    expect(noKey.statusCode).toBe(401);
    expect((await admin('GET', '/api/admin/chats/abc')).statusCode).toBe(400);
    expect((await admin('GET', '/api/admin/chats/999999999')).statusCode).toBe(404);
  });

  it('refuses a start with the fields to fix, as the enquiry form shows them, and stores nothing', async () => {
    const leadsBefore = (await platform.ctx.db.selectFrom('leads').select('id').execute()).length;
    const refused = async (payload: unknown) => {
      const res = await post(metro, '/api/chat/threads', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      const body = res.json<{ message: string; fields: Record<string, string> }>();
      expect(body.message).toBe('Please check the highlighted fields.');
      return body.fields;
    };

    expect(await refused(startBody({ message: undefined }))).toEqual({ message: formMessages.required });
    expect(await refused(startBody({ message: '  \n ' }))).toEqual({ message: formMessages.required });
    expect(await refused(startBody({ message: 42 }))).toEqual({ message: chatTextMessages.notText });
    // Every field to fix at once: the chat's own and the details' SPEC §5 ones.
    expect(await refused({ message: '', client_message_id: newId(), email: 'not-an-email' })).toEqual({
      message: formMessages.required,
      name: formMessages.required,
      phone: expect.any(String),
      email: formMessages.invalidEmail,
    });
    // Through the lead API's own checks when the chat's pass.
    expect(await refused(startBody({ email: 'jane@' }))).toEqual({ email: formMessages.invalidEmail });
    expect(await refused(startBody({ name: 'J4ne' }))).toEqual({ name: formMessages.alphabetical });
    expect(Object.keys(await refused(startBody({ phone: '12' })))).toEqual(['phone']);
    expect(await refused(startBody({ name: undefined }))).toEqual({ name: formMessages.required });

    expect(await refused(startBody({ client_message_id: undefined }))).toEqual({ client_message_id: chatTextMessages.clientMessageId });
    expect(await refused(startBody({ client_message_id: 'has spaces' }))).toEqual({ client_message_id: chatTextMessages.clientMessageId });
    expect(await refused(startBody({ client_message_id: 'x'.repeat(65) }))).toEqual({
      client_message_id: chatTextMessages.clientMessageId,
    });
    expect(await refused(startBody({ website: 'http://spam.example', lead_status: 'Incomplete' }))).toEqual({
      website: 'website is not a field of a chat message.',
      lead_status: 'lead_status is not a field of a chat message.',
    });
    expect(await refused(startBody({ form_started_at: 'yesterday' }))).toHaveProperty('form_started_at');
    expect(await refused(startBody({ name: 'Jane\u0000Citizen' }))).toEqual({ name: `name ${chatTextMessages.oneLine}` });
    expect(await refused([startBody()])).toEqual({ body: 'Send a JSON object.' });
    expect(await refused('"just text"')).toEqual({ body: 'Send a JSON object.' });
    expect(await refused('null')).toEqual({ body: 'Send a JSON object.' });

    expect((await platform.ctx.db.selectFrom('leads').select('id').execute()).length).toBe(leadsBefore);
  });

  it('refuses a message over the length limit, from the shopper and the dealer alike', async () => {
    const tooLong = 'a'.repeat(chatLimits.messageMax + 1);
    const start = await post(metro, '/api/chat/threads', startBody({ message: tooLong }));
    expect(start.statusCode).toBe(400);
    expect(start.json()).toEqual({ message: 'Please check the highlighted fields.', fields: { message: chatTextMessages.tooLong } });
    expect(chatTextMessages.tooLong).toContain(String(chatLimits.messageMax));

    // Characters as a person counts them: 1,000 emoji fit.
    const thread = await startChat(metro, { message: '🚗'.repeat(chatLimits.messageMax) });
    expect([...thread.messages[0]!.body]).toHaveLength(chatLimits.messageMax);
    const followUp = await send(metro, thread, { body: tooLong, client_message_id: newId() });
    expect(followUp.statusCode).toBe(400);
    expect(followUp.json()).toEqual({ message: 'Please check the highlighted fields.', fields: { body: chatTextMessages.tooLong } });
    const reply = await admin('POST', `/api/admin/chats/${thread.thread_id}/replies`, { body: tooLong });
    expect(reply.statusCode).toBe(400);
    expect(reply.json()).toEqual({ message: 'Please check the highlighted fields.', fields: { body: chatTextMessages.tooLong } });
    const badName = await admin('POST', `/api/admin/chats/${thread.thread_id}/replies`, {
      body: 'Hi',
      author_name: 'x'.repeat(chatLimits.authorNameMax + 1),
      extra: 1,
    });
    expect(badName.json()).toEqual({
      message: 'Please check the highlighted fields.',
      fields: { author_name: `author_name is at most ${chatLimits.authorNameMax} characters.`, extra: 'extra is not a field of a reply.' },
    });
  });

  it('slows a conversation down past its message limit, with Retry-After, and still answers a retry', async () => {
    const thread = await startChat(metro);
    const accepted: string[] = [];
    let limited = null;
    for (let n = 0; n < chatLimits.shopperMessagesPerWindow + 2; n++) {
      const res = await send(metro, thread, { body: `Message ${n}`, client_message_id: newId() });
      if (res.statusCode === 429) {
        limited = res;
        break;
      }
      expect(res.statusCode, res.body).toBe(201);
      accepted.push(res.json<{ message: ChatMessage }>().message.body);
    }
    // The first message counts too.
    expect(accepted).toHaveLength(chatLimits.shopperMessagesPerWindow - 1);
    expect(limited).not.toBeNull();
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited!.json<{ message: string }>().message).toMatch(
      /Please wait \d+ (minutes?|seconds?) before the next one, or call the dealership\./,
    );
    // A retry of a message already stored is answered, not counted.
    const stored = await platform.ctx.db
      .selectFrom('chat_messages')
      .select('client_message_id')
      .where('thread_id', '=', thread.thread_id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect((await send(metro, thread, { body: accepted.at(-1), client_message_id: stored.client_message_id })).statusCode).toBe(200);
    // The dealer is not limited by the shopper's allowance.
    expect((await admin('POST', `/api/admin/chats/${thread.thread_id}/replies`, { body: 'Sorry for the wait!' })).statusCode).toBe(201);
  });

  it('slows a chat window that asks for messages too often, with Retry-After, and leaves its sending and other conversations alone', async () => {
    const thread = await startChat(metro);
    const other = await startChat(metro);
    // Someone guessing at the conversation with made-up tokens spends none of the shopper's polls.
    const guess = { ...thread, token: 'made-up-token' };
    for (let n = 0; n <= pollRateLimit; n++) expect((await poll(metro, guess)).statusCode).toBe(404);

    for (let n = 0; n < pollRateLimit; n++) expect((await poll(metro, thread)).statusCode).toBe(200);
    const limited = await poll(metro, thread);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['cache-control']).toBe('no-store');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json<{ message: string }>().message).toMatch(
      new RegExp(
        `^This conversation was checked for new messages more than ${pollRateLimit} times in a minute\\. Please wait (\\d+ seconds?|1 minute) before checking again; no message is lost meanwhile\\.$`,
      ),
    );

    expect((await send(metro, thread, { body: 'Still keen', client_message_id: newId() })).statusCode).toBe(201);
    expect((await poll(metro, other)).statusCode).toBe(200);
  });

  it('keeps an open chat window’s polling, even in two tabs of a lively conversation, well under the default limit', async () => {
    const { pollsPerMinute } = loadConfig({}).chat;
    const service = new ChatService({
      db: platform.ctx.db,
      leads: platform.ctx.leads.service,
      tokenSecret: platform.ctx.config.leads.tokenSecret,
      pollsPerMinute,
    });
    const started = await startChat(metro);
    const site = (await loadSiteConfig(platform.ctx.db, (await findSiteIdBySlug(platform.ctx.db, metro))!))!;
    const key = { site, mock: false, threadId: started.thread_id, token: started.token };
    // Each tab asks every chatPollMs, and once more whenever a message arrives: here one every 4 polls.
    const tabs = 2;
    let now = Date.now();
    for (let tick = 0; tick < (10 * 60_000) / chatPollMs; tick++, now += chatPollMs) {
      const polls = tick % 4 === 0 ? tabs * 2 : tabs;
      for (let n = 0; n < polls; n++)
        expect((await service.poll(key, 0, now)).kind, `poll ${n} at ${tick * chatPollMs} ms`).toBe('messages');
    }
    // A window gone wrong, asking four times a second, is slowed down within its first minute.
    now += 60_000;
    const runaway = [];
    for (let n = 0; n < 4 * 60; n++) runaway.push((await service.poll(key, 0, now + n * 250)).kind);
    expect(runaway).toContain('too-many');
  });

  it('asks the shopper to call once a conversation is full, and refuses the dealer’s reply too', async () => {
    const thread = await startChat(harbour);
    await platform.ctx.db
      .updateTable('chat_threads')
      .set({ message_count: chatLimits.messagesPerThread })
      .where('id', '=', thread.thread_id)
      .execute();
    const res = await send(harbour, thread, { body: 'One more thing', client_message_id: newId() });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toMatch(
      new RegExp(
        `^This conversation has reached its ${chatLimits.messagesPerThread} messages\\. Please call the dealership on [\\d ()+]+ to carry on\\.$`,
      ),
    );
    const reply = await admin('POST', `/api/admin/chats/${thread.thread_id}/replies`, { body: 'Let us call you' });
    expect(reply.statusCode).toBe(409);
    expect((await poll(harbour, thread)).json<{ messages: ChatMessage[] }>().messages).toHaveLength(1);
  });

  it('gives the lead API’s 429 to a connection starting too many conversations', async () => {
    const ip = '10.99.0.1';
    for (let n = 0; n < leadRateLimit; n++)
      expect((await post(metro, '/api/chat/threads', startBody(), { 'x-forwarded-for': ip })).statusCode).toBe(201);
    const res = await post(metro, '/api/chat/threads', startBody(), { 'x-forwarded-for': ip });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(res.json<{ message: string }>().message).toMatch(/^Too many enquiries have been sent from your connection/);
  });

  it('has no chat on a site with the mf-chat remote off', async () => {
    const start = await post(noChat, '/api/chat/threads', startBody());
    expect(start.statusCode).toBe(404);
    expect(start.json()).toEqual({ message: chatRefusals.noChat });
    const thread = await startChat(metro);
    expect((await send(noChat, thread, { body: 'Hi', client_message_id: newId() })).statusCode).toBe(404);
    expect((await poll(noChat, thread)).statusCode).toBe(404);
    expect((await siteRequest(platform.app, 'no-such-dealer', 'GET', '/api/chat/threads/1/messages')).statusCode).toBe(404);
  });

  it('answers malformed input with a 4xx, never a server error', async () => {
    const thread = await startChat(metro);
    const starts: [string, string | undefined][] = [
      ['{"name":', 'application/json'],
      ['', 'application/json'],
      ['name=Jane', 'application/x-www-form-urlencoded'],
      ['plain words', 'text/plain'],
      [JSON.stringify({ ...startBody(), message: 'x'.repeat(20_000) }), 'application/json'],
      [JSON.stringify(startBody({ url: 'u'.repeat(5000) })), 'application/json'],
      [JSON.stringify(startBody({ message: { nested: true } })), 'application/json'],
      ['{"__proto__":{"x":1},"message":"hi"}', 'application/json'],
      [`${'['.repeat(50)}${']'.repeat(50)}`, 'application/json'],
    ];
    for (const [payload, type] of starts) {
      const res = await siteRequest(platform.app, metro, 'POST', '/api/chat/threads', {
        payload,
        headers: { ...(type ? { 'content-type': type } : {}), 'x-forwarded-for': freshIp() },
      });
      expect(res.statusCode, payload.slice(0, 60)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, payload.slice(0, 60)).toBeLessThan(500);
    }
    for (const query of ['?after=-1', '?after=abc', '?after=1.5', '?after=1e3', '?after=1&after=2', `?after=${'9'.repeat(30)}`]) {
      const res = await poll(metro, thread, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toEqual({ message: chatRefusals.badAfter });
    }
    for (const payload of [
      null,
      [],
      'text',
      { body: null, client_message_id: newId() },
      { body: 'hi' },
      { body: 'hi', client_message_id: newId(), author: 'dealer' },
    ]) {
      const res = await send(metro, thread, payload === null ? 'null' : payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    for (const payload of [null, [], { body: '' }, { body: 'hi', author_name: 'Sam\nSmith' }, { body: 'hi', author_name: 5 }]) {
      const res = await admin('POST', `/api/admin/chats/${thread.thread_id}/replies`, payload === null ? 'null' : payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    // Control characters a shopper cannot see are dropped, so any text can be stored (PostgreSQL text holds no NUL).
    const odd = await send(metro, thread, { body: 'Line one\r\nLine\u0000 two\u0007\t!', client_message_id: newId() });
    expect(odd.statusCode, odd.body).toBe(201);
    expect(odd.json<{ message: ChatMessage }>().message.body).toBe('Line one\nLine two\t!');
    const nulStart = await post(metro, '/api/chat/threads', startBody({ message: '\u0000Hi\u0000 there' }));
    expect(nulStart.statusCode, nulStart.body).toBe(201);
    expect(nulStart.json<ChatThreadStarted>().messages[0]!.body).toBe('Hi there');
  });

  it('holds a chat the spam time trap catches out of the dealer’s list until its lead is released', async () => {
    const thread = await startChat(metro, { form_started_at: Date.now() });
    const lead = await admin('GET', `/api/admin/leads?site=${metro}&status=suspected_spam`);
    expect(lead.json<{ leads: ListedLead[] }>().leads.map((entry) => entry.id)).toContain(thread.lead_id);
    expect(await jobsOf(thread.lead_id)).toHaveLength(0);
    expect((await listChats(`site=${metro}&limit=500`)).threads.map((entry) => entry.id)).not.toContain(thread.thread_id);
    // The shopper is answered as usual all the same.
    expect((await send(metro, thread, { body: 'Anyone there?', client_message_id: newId() })).statusCode).toBe(201);

    expect((await admin('POST', `/api/admin/leads/${thread.lead_id}/release`)).statusCode).toBe(200);
    expect(await jobsOf(thread.lead_id)).toHaveLength(1);
    expect((await listChats(`site=${metro}`)).threads[0]!.id).toBe(thread.thread_id);
  });

  it('keeps mock-mode conversations apart: a mock lead, never delivered, listed only when asked for', async () => {
    const res = await post(metro, '/mock/chat/threads', startBody());
    expect(res.statusCode, res.body).toBe(201);
    const thread = res.json<ChatThreadStarted>();
    expect(await jobsOf(thread.lead_id)).toHaveLength(0);
    expect((await send(metro, thread, { body: 'Mock follow-up', client_message_id: newId() }, '/mock')).statusCode).toBe(201);
    expect((await poll(metro, thread, '', '/mock')).json<{ messages: ChatMessage[] }>().messages).toHaveLength(2);
    // Not through the real door.
    expect((await poll(metro, thread)).statusCode).toBe(404);
    expect((await listChats(`site=${metro}&limit=500`)).threads.map((entry) => entry.id)).not.toContain(thread.thread_id);
    expect((await listChats(`site=${metro}&mock=only`)).threads.map((entry) => entry.id)).toEqual([thread.thread_id]);
  });

  it('deletes a conversation and its messages with its lead', async () => {
    const thread = await startChat(harbour);
    expect((await send(harbour, thread, { body: 'Still there?', client_message_id: newId() })).statusCode).toBe(201);
    const siteId = (await findSiteIdBySlug(platform.ctx.db, harbour))!;
    await platform.ctx.db.deleteFrom('leads').where('id', '=', thread.lead_id).where('site_id', '=', siteId).execute();
    expect(await platform.ctx.db.selectFrom('chat_threads').select('id').where('id', '=', thread.thread_id).execute()).toEqual([]);
    expect(await platform.ctx.db.selectFrom('chat_messages').select('id').where('thread_id', '=', thread.thread_id).execute()).toEqual([]);
    expect((await poll(harbour, thread)).statusCode).toBe(404);
  });
});
