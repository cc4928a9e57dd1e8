import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatLimits, chatPollMs, type ChatMessage, type ChatThreadStarted } from '@dealer/contracts/chat';
import { formMessages } from '@dealer/contracts/lead-values';
import { chatTextMessages } from '../chat/chat-text';
import { findSiteIdBySlug, loadSiteConfig } from '@dealer/db/site-store';
import { skipPostgres } from '@dealer/testing/postgres';
import { siteRequest, type TestPlatform } from '../testing/test-platform';
import { chatRequests, harbour, leadRateLimit, metro, noChat, openChatPlatform, pollRateLimit } from '../testing/chat-requests';
import { chatRefusals } from './chat';
import { ChatService } from '../chat/chat-service';
import { loadConfig } from '../config';

/**
 * What the built-in chat refuses and how it slows down: fields to fix, over-long messages, too many
 * messages or polls, a full conversation, too many new conversations from one connection, a site
 * without the chat and malformed input. The conversations themselves are in chat.conversations.test.ts.
 */

describe.each(['sqlite', 'postgres'] as const)('the built-in chat on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let platform: TestPlatform;

  beforeAll(async () => {
    ({ platform } = await openChatPlatform(engine));
  });
  afterAll(async () => {
    await platform?.close();
  });

  const { freshIp, newId, post, startBody, startChat, send, poll, admin } = chatRequests(() => platform, engine);

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
});
