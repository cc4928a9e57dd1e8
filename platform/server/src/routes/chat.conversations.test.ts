import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatLeadSubcategory, type ChatMessage, type ChatThreadStarted } from '@dealer/contracts/chat';
import { findSiteIdBySlug } from '@dealer/db/site-store';
import { skipPostgres } from '@dealer/testing/postgres';
import { siteRequest, type TestPlatform } from '../testing/test-platform';
import { chatRequests, harbour, metro, openChatPlatform, shopper, type ListedLead } from '../testing/chat-requests';
import { chatRefusals } from './chat';

/**
 * The built-in chat's conversations: a shopper's first message becomes a lead, follow-ups and retries are
 * stored once, the dealer lists, pages and answers them, and each stays with its site, its token and its
 * lead. What the chat refuses and how it slows down is in chat.refusals-and-limits.test.ts.
 */

describe.each(['sqlite', 'postgres'] as const)('the built-in chat on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let platform: TestPlatform;
  let harbourKey: string;
  let metroKey: string;

  beforeAll(async () => {
    ({ platform, harbourKey, metroKey } = await openChatPlatform(engine));
  });
  afterAll(async () => {
    await platform?.close();
  });

  const { freshIp, newId, post, startBody, startChat, send, poll, admin, jobsOf, leadsWithKey, listChats } = chatRequests(
    () => platform,
    engine,
  );

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
