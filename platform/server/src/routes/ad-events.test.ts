import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SiteConfig } from '@dealer/contracts/site';
import { adEventMaxAgeMs, type AdEventOutbox } from '../ads/ad-event-outbox';
import { adEventFilePath } from '../ads/conversions-api';
import { startFakeGraph, type FakeGraph } from '@dealer/testing/fake-graph-server';
import { findSiteIdBySlug } from '@dealer/db/site-store';
import { skipPostgres } from '@dealer/testing/postgres';
import { createTestPlatform, siteRequest, type TestPlatform } from '../testing/test-platform';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Demo sites: Metro (AU, pixel; given a token here), Harbour (AU, pixel, no token), Outback (no pixel), Lone Star (US, pixel; given a token). */
const withToken = 'metro-motor-group';
const withoutToken = 'harbour-used-cars';
const noPixel = 'outback-campers';
const usSite = 'lone-star-auto';
const capiToken = 'EAAB-capi-token-DEMO_SECRET';
const rateLimit = 5;

const shopper = {
  email: ' Ana.Shopper@Example.com ',
  phone: '0411 222 333',
  first_name: 'Ana',
  last_name: 'Shopper',
  postcode: '2000',
  external_id: 'anon-42',
};
const content = {
  content_ids: ['MMG30007'],
  quantity: 1,
  currency: 'AUD',
  value: 25990,
  content_type: 'product',
  content_name: '2017 Kia Picanto GT-Line',
};
/** The raw personal values that must never be stored. */
const rawValues = [
  'Ana.Shopper@Example.com',
  'ana.shopper@example.com',
  '0411 222 333',
  '0411222333',
  '61411222333',
  '+61411222333',
  'Shopper',
  'anon-42',
];

describe.each(['sqlite', 'postgres'] as const)('server-side ad events (POST /api/fb-events) on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let platform: TestPlatform;
  let graph: FakeGraph;
  let outbox: AdEventOutbox;
  let metroPixel: string;
  let usPixel: string;

  async function setSecret(slug: string, token: string) {
    const row = await platform.ctx.db.selectFrom('sites').select(['id', 'config']).where('slug', '=', slug).executeTakeFirstOrThrow();
    const config = JSON.parse(row.config) as SiteConfig;
    config.secrets.facebook_capi_token = token;
    await platform.ctx.db
      .updateTable('sites')
      .set({ config: JSON.stringify(config) })
      .where('id', '=', row.id)
      .execute();
    platform.ctx.sites.clear();
    return config.third_party.facebook_pixel!;
  }

  beforeAll(async () => {
    graph = await startFakeGraph();
    // Retries at once, three attempts: a test runs the outbox by hand until nothing is due.
    platform = await createTestPlatform({
      engine,
      env: {
        FACEBOOK_GRAPH_URL: `${graph.url}/`,
        LEAD_DELIVERY_BACKOFF_MS: '0',
        LEAD_DELIVERY_MAX_ATTEMPTS: '3',
        AD_EVENTS_RATE_LIMIT: String(rateLimit),
      },
    });
    outbox = platform.ctx.adEvents;
    metroPixel = await setSecret(withToken, capiToken);
    usPixel = await setSecret(usSite, capiToken);
  });
  afterAll(async () => {
    await platform?.close();
    await graph?.close();
  });

  // Each post from an address of its own, unless said: the per-address limit is small here.
  let senders = 0;
  const post = (slug: string, payload: unknown, opts: { ip?: string; headers?: Record<string, string> } = {}) =>
    siteRequest(platform.app, slug, 'POST', '/api/fb-events', {
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'TestBrowser/1.0',
        'x-forwarded-for': opts.ip ?? `198.51.100.${++senders % 250}`,
        ...opts.headers,
      },
    });
  let ids = 0;
  const newEventId = () => `evt-${engine}-${++ids}-${Date.now()}`;
  /** Runs the outbox until nothing is due (with no backoff, a retried event is due again at once). */
  const drain = async () => {
    for (let round = 0; round < 20; round++) if ((await outbox.runOnce()) === 0) return;
    throw new Error('the outbox kept finding due events');
  };
  const rowsOf = (eventId: string) => platform.ctx.db.selectFrom('ad_events').selectAll().where('event_id', '=', eventId).execute();

  it('stores the event hashed, answers 202, and delivers it to the Graph API in the Conversions API shape', async () => {
    const eventId = newEventId();
    const res = await post(
      withToken,
      {
        eventName: 'Lead',
        eventId,
        user: shopper,
        contentOptions: content,
        event_source_url: 'https://www.metro.example/success?email=ana.shopper%40example.com&utm_source=fb',
      },
      { ip: '203.0.113.10', headers: { cookie: '_fbp=fb.1.1790000000000.1234567890; other=1' } },
    );
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ ok: true });

    // Stored before it is sent: hashes only.
    const [row] = await rowsOf(eventId);
    expect(row).toMatchObject({ status: 'pending', event_name: 'Lead', attempts: 0 });
    const stored = JSON.stringify(row);
    for (const raw of rawValues) expect(stored).not.toContain(raw);

    const before = Math.floor(Date.now() / 1000);
    await drain();
    const requests = graph.requestsFor(eventId);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe(`/v21.0/${metroPixel}/events`);
    expect(request!.query.get('access_token')).toBe(capiToken);
    expect(request!.contentType).toBe('application/json');
    expect(request!.body).toEqual({
      data: [
        {
          event_name: 'Lead',
          event_time: expect.any(Number),
          event_id: eventId,
          action_source: 'website',
          event_source_url: 'https://www.metro.example/success?utm_source=fb',
          user_data: {
            em: [sha256('ana.shopper@example.com')],
            ph: [sha256('61411222333')],
            fn: sha256('ana'),
            ln: sha256('shopper'),
            zp: sha256('2000'),
            external_id: sha256('anon-42'),
            client_ip_address: '203.0.113.10',
            client_user_agent: 'TestBrowser/1.0',
            fbp: 'fb.1.1790000000000.1234567890',
          },
          custom_data: content,
        },
      ],
    });
    const eventTime = (request!.body as { data: { event_time: number }[] }).data[0]!.event_time;
    expect(Math.abs(eventTime - before)).toBeLessThanOrEqual(5);

    // Once sent, the hashes and the client's address are gone too.
    const [sent] = await rowsOf(eventId);
    expect(sent).toMatchObject({ status: 'sent', attempts: 1, payload: '', last_error: null, claim_token: null });
    expect(sent!.sent_at).not.toBeNull();
  });

  it('stores and sends a repeated event id once (the browser pixel event carries the same id)', async () => {
    const eventId = newEventId();
    const body = { eventName: 'ViewContent', eventId, contentOptions: content };
    const first = await post(withToken, body);
    const again = await post(withToken, { ...body, user: shopper });
    expect([first.statusCode, again.statusCode]).toEqual([202, 202]);
    expect(again.json()).toEqual({ ok: true, duplicate: true });
    expect(await rowsOf(eventId)).toHaveLength(1);
    await drain();
    expect((await post(withToken, body)).json()).toEqual({ ok: true, duplicate: true });
    await drain();
    expect(graph.requestsFor(eventId)).toHaveLength(1);
    expect(await rowsOf(eventId)).toHaveLength(1);
    // The same id on another site is another site's event.
    expect((await post(usSite, body)).json()).toEqual({ ok: true });
    await drain();
    expect(graph.requestsFor(eventId)).toHaveLength(2);
  });

  it("uses uniqueFacebookEventId, when sent, as the event id (the pixel's eventID), and takes SPEC §3's top-level user fields", async () => {
    const unique = newEventId();
    const res = await post(usSite, {
      eventName: 'DealerEvent22',
      eventId: 22,
      uniqueFacebookEventId: unique,
      email: 'Bo@Example.com',
      phone: '(212) 555-0123',
      name: 'Bo',
      postcode: '90210-1234',
    });
    expect(res.statusCode).toBe(202);
    await drain();
    const [request] = graph.requestsFor(unique);
    expect(request!.path).toBe(`/v21.0/${usPixel}/events`);
    const [event] = (request!.body as { data: { event_name: string; event_source_url: string; user_data: Record<string, unknown> }[] })
      .data;
    expect(event!.event_name).toBe('DealerEvent22');
    expect(event!.event_source_url).toBe(`http://${usSite}.localhost:3000/`);
    expect(event!.user_data).toEqual({
      em: [sha256('bo@example.com')],
      ph: [sha256('12125550123')],
      fn: sha256('bo'),
      zp: sha256('90210'),
      client_ip_address: expect.any(String),
      client_user_agent: 'TestBrowser/1.0',
    });
    // Another post with eventId 22 but its own unique id is another event.
    const other = newEventId();
    expect((await post(usSite, { eventName: 'DealerEvent22', eventId: 22, uniqueFacebookEventId: other })).json()).toEqual({ ok: true });
    await drain();
    expect(graph.requestsFor(other)).toHaveLength(1);
  });

  it('answers 204 and stores nothing for a site without a Meta pixel', async () => {
    const siteId = (await findSiteIdBySlug(platform.ctx.db, noPixel))!;
    const res = await post(noPixel, { eventName: 'Lead', eventId: newEventId(), user: shopper, contentOptions: content });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await platform.ctx.db.selectFrom('ad_events').select('id').where('site_id', '=', siteId).execute()).toEqual([]);
  });

  it('writes the event to DATA_DIR/outbox/ad-events/<site>/<id>.json for a site with a pixel but no Conversions API token', async () => {
    const eventId = newEventId();
    expect((await post(withoutToken, { eventName: 'Lead', eventId, user: shopper, contentOptions: content })).statusCode).toBe(202);
    const [row] = await rowsOf(eventId);
    await drain();
    const file = adEventFilePath(platform.ctx.config.dataDir, withoutToken, Number(row!.id));
    expect(existsSync(file)).toBe(true);
    const text = await readFile(file, 'utf8');
    for (const raw of rawValues) expect(text).not.toContain(raw);
    const written = JSON.parse(text) as { data: { event_id: string; user_data: { em: string[]; ph: string[] }; custom_data: unknown }[] };
    expect(written.data).toHaveLength(1);
    expect(written.data[0]).toMatchObject({ event_id: eventId, event_name: 'Lead', action_source: 'website', custom_data: content });
    expect(written.data[0]!.user_data).toMatchObject({ em: [sha256('ana.shopper@example.com')], ph: [sha256('61411222333')] });
    expect(graph.requestsFor(eventId)).toEqual([]);
    expect((await rowsOf(eventId))[0]).toMatchObject({ status: 'sent', payload: '' });
  });

  it('retries after a Graph 500 and delivers on the next attempt', async () => {
    const eventId = newEventId();
    await post(withToken, { eventName: 'Lead', eventId, user: shopper });
    graph.answers.push({ status: 500, body: { error: { message: 'An unknown error occurred', code: 1, is_transient: true } } });
    await outbox.runOnce();
    const [failed] = await rowsOf(eventId);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failed!.last_error).toContain('500');
    expect(failed!.payload).not.toBe('');
    await drain();
    expect(graph.requestsFor(eventId)).toHaveLength(2);
    expect((await rowsOf(eventId))[0]).toMatchObject({ status: 'sent', attempts: 2, payload: '', last_error: null });
  });

  it('does not retry a Graph 400: the event is given up, its data erased, the reason kept without the token', async () => {
    const eventId = newEventId();
    await post(withToken, { eventName: 'Lead', eventId, user: shopper });
    graph.answers.push({
      status: 400,
      body: { error: { message: 'Invalid parameter', type: 'OAuthException', code: 100, fbtrace_id: 'trace-400' } },
    });
    await drain();
    await drain();
    expect(graph.requestsFor(eventId)).toHaveLength(1);
    const [dead] = await rowsOf(eventId);
    expect(dead).toMatchObject({ status: 'dead', attempts: 1, payload: '' });
    expect(dead!.last_error).toContain('Invalid parameter');
    expect(dead!.last_error).not.toContain(capiToken);
  });

  it('gives an event up after the last attempt of a Graph that keeps failing', async () => {
    const eventId = newEventId();
    await post(withToken, { eventName: 'Lead', eventId });
    graph.answers.push({ status: 503, body: {} }, { status: 502, body: {} }, { status: 500, body: {} });
    await drain();
    expect(graph.requestsFor(eventId)).toHaveLength(3);
    expect((await rowsOf(eventId))[0]).toMatchObject({ status: 'dead', attempts: 3, payload: '' });
  });

  it('gives up unsent an event too old for the Conversions API', async () => {
    const eventId = newEventId();
    await post(withToken, { eventName: 'Lead', eventId, user: shopper });
    const old = Date.now() - adEventMaxAgeMs - 1_000;
    await platform.ctx.db.updateTable('ad_events').set({ created_at: old }).where('event_id', '=', eventId).execute();
    await drain();
    expect(graph.requestsFor(eventId)).toEqual([]);
    expect((await rowsOf(eventId))[0]).toMatchObject({ status: 'expired', payload: '' });
  });

  it('refuses bad bodies with a 4xx, never a 5xx, and stores none of them', async () => {
    const count = async () =>
      Number(
        (
          await platform.ctx.db
            .selectFrom('ad_events')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const eventId = newEventId();
    const notJson = await siteRequest(platform.app, withToken, 'POST', '/api/fb-events', {
      payload: 'eventName=Lead',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(notJson.statusCode).toBe(415);
    const plain = await siteRequest(platform.app, withToken, 'POST', '/api/fb-events', {
      payload: JSON.stringify({ eventName: 'Lead', eventId }),
      headers: { 'content-type': 'text/plain' },
    });
    expect(plain.statusCode).toBe(415);
    const big = await post(withToken, { eventName: 'Lead', eventId, contentOptions: { ...content, content_name: 'x'.repeat(9000) } });
    expect(big.statusCode).toBe(413);

    const bad: [string, unknown][] = [
      ['broken JSON', '{"eventName":'],
      ['null', 'null'],
      ['an array', [{ eventName: 'Lead', eventId }]],
      ['no eventName', { eventId }],
      ['no eventId', { eventName: 'Lead' }],
      ['an event name with markup', { eventName: '<img src=x>', eventId }],
      ['an empty event id', { eventName: 'Lead', eventId: '' }],
      ['an event id over 100 characters', { eventName: 'Lead', eventId: 'e'.repeat(101) }],
      ['an event id with spaces', { eventName: 'Lead', eventId: 'a b' }],
      ['an object for an e-mail', { eventName: 'Lead', eventId, user: { email: { $ne: 1 } } }],
      ['a string for the user', { eventName: 'Lead', eventId, user: 'ana@example.com' }],
      ['a negative value', { eventName: 'Lead', eventId, contentOptions: { value: -1 } }],
      ['a bad currency', { eventName: 'Lead', eventId, contentOptions: { currency: 'dollars' } }],
      [
        'too deep',
        JSON.stringify({ eventName: 'Lead', eventId, contentOptions: JSON.parse(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`) as unknown }),
      ],
    ];
    for (const [what, body] of bad) {
      const res = await post(withToken, body);
      expect(res.statusCode, what).toBe(400);
      expect(res.json<{ message: string }>().message, what).toEqual(expect.any(String));
    }
    expect(await count()).toBe(before);
  });

  it('answers 404 for a host no site is served at, 403 to a page of another website, and 429 past the per-address limit', async () => {
    const unknown = await platform.app.inject({
      method: 'POST',
      url: '/api/fb-events',
      headers: { host: 'nobody.localhost:3000', 'content-type': 'application/json' },
      payload: { eventName: 'Lead', eventId: 'x' },
    });
    expect(unknown.statusCode).toBe(404);
    const foreign = await post(
      withToken,
      { eventName: 'Lead', eventId: newEventId() },
      { headers: { origin: 'https://elsewhere.example' } },
    );
    expect(foreign.statusCode).toBe(403);
    const ip = '192.0.2.77';
    for (let i = 0; i < rateLimit; i++)
      expect((await post(withToken, { eventName: 'PageView', eventId: newEventId() }, { ip })).statusCode).toBe(202);
    const limited = await post(withToken, { eventName: 'PageView', eventId: newEventId() }, { ip });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    // Per site: the same address on another site is counted apart.
    expect((await post(withoutToken, { eventName: 'PageView', eventId: newEventId() }, { ip })).statusCode).toBe(202);
    await drain();
  });

  it('keeps no raw e-mail address or phone number anywhere in its table', async () => {
    for (const slug of [withToken, withoutToken, usSite]) {
      await post(slug, {
        eventName: 'Lead',
        eventId: newEventId(),
        user: shopper,
        event_source_url: `https://x.example/thanks?phone=0411222333&e=${encodeURIComponent(shopper.email)}`,
      });
    }
    const rows = await platform.ctx.db.selectFrom('ad_events').selectAll().execute();
    expect(
      rows.some((row) => row.payload !== ''),
      'some events are still waiting, with their hashes',
    ).toBe(true);
    const everything = JSON.stringify(rows);
    for (const raw of rawValues) expect(everything).not.toContain(raw);
    expect(everything).not.toMatch(/[^\s"@]+@[^\s"@]+\.[a-z]+/i);
    const events = JSON.stringify(await platform.ctx.db.selectFrom('events').selectAll().execute());
    for (const raw of rawValues) expect(events).not.toContain(raw);
    await drain();
  });

  // Last: from here on the worker sends on its own, beside the tests' own runs.
  it('sends events by itself once the server listens (where the lead outbox worker runs)', async () => {
    await platform.app.listen({ port: 0, host: '127.0.0.1' });
    const eventId = newEventId();
    expect((await post(withToken, { eventName: 'Lead', eventId })).statusCode).toBe(202);
    await vi.waitFor(() => expect(graph.requestsFor(eventId)).toHaveLength(1), { timeout: 5_000, interval: 20 });
  });
});
