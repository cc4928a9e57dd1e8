import { connect, type Socket } from 'node:net';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { eventBodyLimit, eventTypeMessage } from '../routes/events';
import { freePort } from '@dealer/testing/free-port';
import { siteRequest, type TestPlatform } from '../testing/test-platform';
import { createEdgePlatform, event, eventPoster, eventsPerMinute, host, proxy } from '../testing/edge-platform';
import { jsonTooDeepMessage, maxJsonDepth } from '@dealer/search-engine/json-depth';

/*
 * The requests the platform's edge refuses or cuts off: events that are not small JSON, JSON nested
 * too deep, clients too slow to finish a request, API addresses that do not exist and too many
 * open connections from one address. Who the client is and where its writes come from is in
 * edge-hardening.proxy-and-origin.test.ts.
 */

let platform: TestPlatform;
beforeAll(async () => {
  platform = await createEdgePlatform();
});
afterAll(async () => {
  await platform?.close();
});

const postEvent = eventPoster(() => platform);

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('POST /api/events: JSON, small, limited', () => {
  const slug = 'outback-campers';

  it('records a small JSON event', async () => {
    expect((await postEvent(slug, { via: proxy, ip: '192.0.2.50' })).statusCode).toBe(202);
  });

  it.each<[string, Record<string, string>]>([
    ['the site’s page names its origin', { origin: `http://${host(slug)}` }],
    ['the browser marks it same-origin', { 'sec-fetch-site': 'same-origin' }],
  ])('records an event sent as text, as navigator.sendBeacon sends a string, when %s', async (_case, headers) => {
    const res = await postEvent(slug, {
      via: proxy,
      ip: '192.0.2.55',
      headers: { 'content-type': 'text/plain;charset=UTF-8', ...headers },
    });
    expect(res.statusCode).toBe(202);
  });

  it('reads an event sent as text as JSON: nested too deep, it is a 400 too', async () => {
    const res = await postEvent(slug, {
      via: proxy,
      ip: '192.0.2.56',
      headers: { 'content-type': 'text/plain;charset=UTF-8', origin: `http://${host(slug)}` },
      payload: `{"category":"x","event_properties":{"a":${nested(4000)}}}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: jsonTooDeepMessage });
  });

  it.each<[string, Record<string, string>]>([
    ['text/plain from no page of the site', { 'content-type': 'text/plain' }],
    ['a form', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['multipart', { 'content-type': 'multipart/form-data; boundary=x' }],
  ])('refuses %s with 415', async (_case, headers) => {
    const res = await postEvent(slug, { via: proxy, ip: '192.0.2.51', headers });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ message: eventTypeMessage });
  });

  it('refuses a body without a content type with 415', async () => {
    const res = await platform.app.inject({
      method: 'POST',
      url: '/api/events',
      headers: { host: host(slug) },
      payload: Buffer.from(JSON.stringify(event)),
    });
    expect(res.statusCode).toBe(415);
  });

  it(`refuses a body over ${eventBodyLimit} bytes with 413`, async () => {
    const payload = JSON.stringify({ ...event, error_message: 'x'.repeat(eventBodyLimit) });
    const res = await postEvent(slug, { via: proxy, ip: '192.0.2.52', payload });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(/too large/i);
  });

  it('refuses an event nested thousands deep with 400 (it would overflow the stack when stored)', async () => {
    const res = await postEvent(slug, {
      via: proxy,
      ip: '192.0.2.53',
      payload: `{"category":"x","event_properties":{"a":${nested(4000)}}}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: jsonTooDeepMessage });
  });

  it('refuses 10,000 levels of nesting with a 4xx, never a 500', async () => {
    const res = await postEvent(slug, { via: proxy, ip: '192.0.2.54', payload: nested(10_000) });
    expect(res.statusCode).toBe(413);
  });

  it('counts each site on its own: one site’s flood leaves another’s budget whole', async () => {
    for (let i = 0; i < eventsPerMinute; i++)
      expect((await postEvent('kiwi-motors', { via: proxy, ip: '192.0.2.60' })).statusCode).toBe(202);
    expect((await postEvent('kiwi-motors', { via: proxy, ip: '192.0.2.60' })).statusCode).toBe(429);
    expect((await postEvent('lone-star-auto', { via: proxy, ip: '192.0.2.60' })).statusCode).toBe(202);
  });
});

describe('deep JSON anywhere in the public API is a 400', () => {
  it.each([
    ['a lead with arrays 10,000 deep', '/api/leads', `{"lead":{"name":${nested(10_000)}}}`],
    ['a rego lookup with arrays 10,000 deep', '/api/rego-lookup', `{"rego":${nested(10_000)}}`],
    ['a lead of objects 10,000 deep', '/api/leads', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`],
  ])('refuses %s', async (_case, url, payload) => {
    const res = await siteRequest(platform.app, 'toyota-demo', 'POST', url, {
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.70' },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: jsonTooDeepMessage });
  });

  it(`still reads JSON nested ${maxJsonDepth} deep, and brackets inside strings do not count`, async () => {
    const res = await siteRequest(platform.app, 'toyota-demo', 'POST', '/api/events', {
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.71' },
      payload: JSON.stringify({
        category: 'deep-enough',
        error_message: '[[[[{{{{\\"'.repeat(20),
        event_properties: { a: JSON.parse(nested(maxJsonDepth - 2)) },
      }),
    });
    expect(res.statusCode).toBe(202);
  });
});

describe('slow clients are cut off (real sockets)', () => {
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    await platform.app.listen({ port, host: '127.0.0.1' });
  });

  /** Opens a raw connection, sends `start`, then `drip` every 50 ms while it stays open; resolves with what came back once the server closes it. */
  function slowClient(start: string, drip?: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let received = '';
      let timer: NodeJS.Timeout | undefined;
      socket.setEncoding('utf8');
      socket.on('connect', () => {
        if (start) socket.write(start);
        if (drip) timer = setInterval(() => socket.writable && socket.write(drip), 50);
      });
      socket.on('data', (chunk: string) => (received += chunk));
      socket.on('error', (error: NodeJS.ErrnoException) =>
        error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error),
      );
      socket.on('close', () => {
        clearInterval(timer);
        resolve(received);
      });
    });
  }

  it('answers 408 and closes a connection whose headers never end (slowloris)', async () => {
    const answer = await slowClient(`GET / HTTP/1.1\r\nHost: ${host('metro-motor-group')}\r\n`, 'X-Slow: 1\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
  });

  it('answers 408 and closes a connection whose body never ends', async () => {
    const head = `POST /api/leads HTTP/1.1\r\nHost: ${host('metro-motor-group')}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`;
    const answer = await slowClient(head, ' ');
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
  });

  it('answers 408 and closes a connection that sends nothing', async () => {
    expect(await slowClient('')).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
  });

  it('closes a kept-alive connection that sends no next request', async () => {
    const answer = await slowClient(`GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(answer).toContain('{"status":"ok"}');
  });
});

describe('an API address that does not exist is a JSON 404, not the site’s page', () => {
  const slug = 'lone-star-auto';

  it.each<[InjectOptions['method'], string]>([
    ['GET', '/api'],
    ['GET', '/api/'],
    ['GET', '/api/no-such-thing?x=1'],
    ['GET', '/api/cars/deep/down/here'],
    ['POST', '/api/no-such-thing'],
    ['PUT', '/api/no-such-thing'],
    ['PATCH', '/api'],
    ['DELETE', '/api/leads'],
    ['OPTIONS', '/api/no-such-thing'],
  ])('answers %s %s with a 404 naming it', async (method, url) => {
    const body =
      method === 'GET' || method === 'OPTIONS' ? {} : { headers: { host: host(slug), 'content-type': 'application/json' }, payload: '{}' };
    const res = await platform.app.inject({ method, url, headers: { host: host(slug) }, ...body });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ message: `No API route for ${method} ${url.split('?', 1)[0]}.` });
  });

  it('answers HEAD with a bodiless 404', async () => {
    const res = await platform.app.inject({ method: 'HEAD', url: '/api/no-such-thing', headers: { host: host(slug) } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toBe('');
  });

  it('still answers the site’s own pages and API, and a page whose address merely starts with “api”', async () => {
    expect((await siteRequest(platform.app, slug, 'GET', '/api/site')).statusCode).toBe(200);
    expect((await siteRequest(platform.app, slug, 'GET', '/api/health')).json()).toEqual({ status: 'ok' });
    const page = await siteRequest(platform.app, slug, 'GET', '/apiary');
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('open connections per client address (real sockets)', () => {
  const apps: FastifyInstance[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  /** The platform listening on a port of its own, with at most `max` connections per address and long keep-alives (so nothing closes by itself). */
  async function listening(max: number, trustedProxies: string[] = []) {
    const http = {
      ...platform.ctx.config.http,
      trustedProxies,
      maxConnectionsPerAddress: max,
      idleTimeoutMs: 120_000,
      keepAliveTimeoutMs: 120_000,
      requestTimeoutMs: 120_000,
    };
    const app = await buildApp({ ...platform.ctx, config: { ...platform.ctx.config, http } }, { logger: false });
    apps.push(app);
    const port = await freePort();
    await app.listen({ port, host: '127.0.0.1' });
    return { app, port };
  }

  /**
   * A kept-alive connection that asks for /api/health: resolves with the answer's first bytes once
   * they come (the server counts the connection by then), or 'closed' if the server cuts it off.
   */
  function openConnection(port: number): Promise<{ socket: Socket; answer: string }> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      socket.setEncoding('utf8');
      socket.on('connect', () => socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n'));
      socket.once('data', (chunk: string) => resolve({ socket, answer: chunk }));
      socket.on('error', (error: NodeJS.ErrnoException) =>
        error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error),
      );
      socket.once('close', () => resolve({ socket, answer: 'closed' }));
    });
  }

  /** Waits until the server holds `count` connections (a closed one is let go once its close reaches the server). */
  async function serverHolds(app: FastifyInstance, count: number) {
    const held = () =>
      new Promise<number>((resolve, reject) => app.server.getConnections((error, n) => (error ? reject(error) : resolve(n))));
    while ((await held()) !== count) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  it('cuts off the connection one address opens beyond the cap, and takes a new one once another closes', async () => {
    const { app, port } = await listening(3);
    const open = [await openConnection(port), await openConnection(port), await openConnection(port)];
    for (const { answer } of open) expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);

    expect((await openConnection(port)).answer).toBe('closed');
    // The ones already open keep working.
    const again = await new Promise<string>((resolve) => {
      open[0]!.socket.once('data', resolve);
      open[0]!.socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
    });
    expect(again).toMatch(/^HTTP\/1\.1 200 OK/);

    open[1]!.socket.destroy();
    await serverHolds(app, 2);
    const next = await openConnection(port);
    expect(next.answer).toMatch(/^HTTP\/1\.1 200 OK/);
    for (const { socket } of [...open, next]) socket.destroy();
  });

  it('never caps a trusted proxy, whose connections carry every shopper behind it', async () => {
    const { port } = await listening(2, ['loopback']);
    const open = [await openConnection(port), await openConnection(port), await openConnection(port), await openConnection(port)];
    for (const { answer } of open) expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
    for (const { socket } of open) socket.destroy();
  });

  it('takes any number when the cap is 0 (off)', async () => {
    const { port } = await listening(0);
    const open = await Promise.all(Array.from({ length: 5 }, () => openConnection(port)));
    for (const { answer } of open) expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
    for (const { socket } of open) socket.destroy();
  });
});
