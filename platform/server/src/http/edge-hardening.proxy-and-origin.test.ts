import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { testAdminKey, type TestPlatform } from '../testing/test-platform';
import { createEdgePlatform, event, eventPoster, eventsPerMinute, host, proxy } from '../testing/edge-platform';
import { requestOrigin } from '../tenancy/site-context';

/*
 * What the platform believes of a request at its edge: the client's address and scheme only from
 * the trusted proxy, writes only from the site's own pages, and HTTPS kept once a shopper came over
 * it. Bad, deep and slow requests are in edge-hardening.bad-and-slow-requests.test.ts.
 */

let platform: TestPlatform;
beforeAll(async () => {
  platform = await createEdgePlatform();
});
afterAll(async () => {
  await platform?.close();
});

const postEvent = eventPoster(() => platform);

describe('who the client is: X-Forwarded-For only from a trusted proxy', () => {
  /** The platform's app with a route that says what the request looks like, under the given TRUSTED_PROXIES. */
  async function appTrusting(trustedProxies: string[]): Promise<FastifyInstance> {
    const app = await buildApp(
      { ...platform.ctx, config: { ...platform.ctx.config, http: { ...platform.ctx.config.http, trustedProxies } } },
      { logger: false },
    );
    app.get('/test/client', async (request) => ({ ip: request.ip, origin: requestOrigin(request) }));
    await app.ready();
    return app;
  }

  it('takes the socket address, and the socket scheme, when no proxy is trusted', async () => {
    const app = await appTrusting([]);
    try {
      const res = await app.inject({
        url: '/test/client',
        headers: { host: host('citi-rentals'), 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' },
      });
      expect(res.json()).toEqual({ ip: '127.0.0.1', origin: 'http://citi-rentals.localhost:3000' });
    } finally {
      await app.close();
    }
  });

  it('takes the forwarded address and scheme from a trusted proxy', async () => {
    const app = await appTrusting(['127.0.0.1']);
    try {
      const res = await app.inject({
        url: '/test/client',
        headers: { host: host('citi-rentals'), 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' },
      });
      expect(res.json()).toEqual({ ip: '203.0.113.9', origin: 'https://citi-rentals.localhost:3000' });
    } finally {
      await app.close();
    }
  });

  it('counts events from one socket in one bucket, whatever X-Forwarded-For it makes up', async () => {
    for (let i = 0; i < eventsPerMinute; i++)
      expect((await postEvent('harbour-used-cars', { ip: `198.51.100.${i}` })).statusCode).toBe(202);
    const limited = await postEvent('harbour-used-cars', { ip: '198.51.100.200' });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().message).toMatch(/^Too many events from your connection\. Please try again in (\d+ seconds?|1 minute)\.$/);
  });

  it('gives each client behind a trusted proxy its own bucket, and one client one bucket', async () => {
    for (let i = 0; i < eventsPerMinute + 2; i++)
      expect((await postEvent('ridgeline-trucks', { via: proxy, ip: `198.51.100.${i}` })).statusCode).toBe(202);
    for (let i = 0; i < eventsPerMinute; i++)
      expect((await postEvent('ridgeline-trucks', { via: proxy, ip: '192.0.2.7' })).statusCode).toBe(202);
    expect((await postEvent('ridgeline-trucks', { via: proxy, ip: '192.0.2.7' })).statusCode).toBe(429);
  });

  it('holds the rego lookup limit per socket too: made-up addresses buy no more lookups', async () => {
    const lookup = (ip: string) =>
      platform.app.inject({
        method: 'POST',
        url: '/api/rego-lookup',
        headers: { host: host('metro-motor-group'), 'x-forwarded-for': ip },
        payload: { rego: 'TEST01', regoState: 'NSW' },
      });
    for (let i = 0; i < 30; i++) expect((await lookup(`198.51.100.${i}`)).statusCode).toBe(200);
    expect((await lookup('198.51.100.99')).statusCode).toBe(429);
  });

  it('counts an IPv6 client by its /64, so stepping through its addresses buys no more lookups', async () => {
    const lookup = (ip: string) =>
      platform.app.inject({
        method: 'POST',
        url: '/api/rego-lookup',
        remoteAddress: ip,
        headers: { host: host('harbour-used-cars') },
        payload: { rego: 'TEST01', regoState: 'NSW' },
      });
    for (let i = 0; i < 30; i++) expect((await lookup(`2001:db8:77:1:${i.toString(16)}::1`)).statusCode).not.toBe(429);
    expect((await lookup('2001:db8:77:1:ffff::2')).statusCode).toBe(429);
    // Another household keeps its own lookups.
    expect((await lookup('2001:db8:77:2::1')).statusCode).not.toBe(429);
  });
});

describe('the scheme in canonical addresses: X-Forwarded-Proto only from a trusted proxy, only http or https', () => {
  const slug = 'flexi-subscriptions';
  const get = (url: string, proto: string, via?: string) =>
    platform.app.inject({ url, remoteAddress: via, headers: { host: host(slug), 'x-forwarded-proto': proto } });
  const canonicalOf = (html: string) => /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];

  it.each<[string, string, string | undefined, string]>([
    ['https from a client', 'https', undefined, 'http'],
    ['a made-up scheme from a client', 'javascript', undefined, 'http'],
    ['an unreadable value from a client', 'a b:/', undefined, 'http'],
    ['https from the trusted proxy', 'https', proxy, 'https'],
    ['HTTPS from the trusted proxy', 'HTTPS', proxy, 'https'],
    ['a made-up scheme from the trusted proxy', 'gopher', proxy, 'http'],
    ['an unreadable value from the trusted proxy', 'a b:/', proxy, 'http'],
  ])('%s gives %s… in robots.txt, the sitemap, the canonical link and the search host', async (_case, proto, via, scheme) => {
    const origin = `${scheme}://${host(slug)}`;
    const robots = await get('/robots.txt', proto, via);
    expect(robots.statusCode).toBe(200);
    expect(robots.body).toContain(`Sitemap: ${origin}/sitemap.xml`);

    const sitemap = await get('/sitemap.xml', proto, via);
    expect(sitemap.statusCode).toBe(200);
    expect(sitemap.body).toContain(`<loc>${origin}/</loc>`);

    const home = await get('/', proto, via);
    expect(home.statusCode).toBe(200);
    expect(canonicalOf(home.body)).toBe(`${origin}/`);

    const config = await get('/api/site', proto, via);
    expect(config.statusCode).toBe(200);
    expect(config.json().search.host).toBe(`${origin}/meili`);
  });

  it('answers a Host with a port that cannot exist with a 400, not a 500', async () => {
    const res = await platform.app.inject({ url: '/', headers: { host: `${slug}.localhost:99999` } });
    expect(res.statusCode).toBe(400);
    const api = await platform.app.inject({ url: '/api/site', headers: { host: `${slug}.localhost:99999` } });
    expect(api.statusCode).toBe(400);
    expect(api.json()).toEqual({ message: 'The Host header is not a valid host name.' });
  });
});

describe('cross-site writes: a foreign Origin is refused', () => {
  const slug = 'ridgeline-trucks';
  const own = `http://${host(slug)}`;
  const lead = {
    category: 'General Enquiry',
    name: 'Jane',
    last_name: 'Citizen',
    email: 'jane@example.com',
    phone: '0411222333',
    message: 'Is it still available?',
  };
  const foreign = 'https://evil.example';
  const refusal = { message: `This dealer site only accepts forms sent from its own pages, not from ${foreign}.` };

  let addressCounter = 0;
  /** From the trusted proxy with a client address of its own, so the lead limit of one test never trips another. */
  const post = (url: string, contentType: string, payload: string | Buffer, origin?: string) => {
    addressCounter += 1;
    return platform.app.inject({
      method: 'POST',
      url,
      remoteAddress: proxy,
      headers: {
        host: host(slug),
        'content-type': contentType,
        'x-forwarded-for': `192.0.2.${addressCounter}`,
        ...(origin ? { origin } : {}),
      },
      payload,
    });
  };

  function multipart(fields: Record<string, string>) {
    const boundary = `----origin-${randomBytes(8).toString('hex')}`;
    const parts = Object.entries(fields).map(
      ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    );
    return { payload: Buffer.from(`${parts.join('')}--${boundary}--\r\n`), contentType: `multipart/form-data; boundary=${boundary}` };
  }

  it.each<[string, string, () => { contentType: string; payload: string | Buffer }]>([
    ['a multipart lead', '/api/leads/with-files', () => multipart({ lead: JSON.stringify(lead) })],
    ['a text/plain lead', '/api/leads', () => ({ contentType: 'text/plain', payload: JSON.stringify({ lead }) })],
    ['a JSON lead', '/api/leads', () => ({ contentType: 'application/json', payload: JSON.stringify({ lead }) })],
    ['a mock-mode lead', '/mock/leads', () => ({ contentType: 'application/json', payload: JSON.stringify({ lead }) })],
    ['an event', '/api/events', () => ({ contentType: 'application/json', payload: JSON.stringify(event) })],
    ['an event sent as text, as a beacon sends it', '/api/events', () => ({ contentType: 'text/plain', payload: JSON.stringify(event) })],
    [
      'a rego lookup',
      '/api/rego-lookup',
      () => ({ contentType: 'application/x-www-form-urlencoded', payload: 'rego=TEST01&regoState=NSW' }),
    ],
  ])('refuses %s posted from another website with 403', async (_case, url, body) => {
    const { contentType, payload } = body();
    const res = await post(url, contentType, payload, foreign);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(refusal);
  });

  it('refuses a PUT to a lead and an Origin of "null" (a sandboxed frame) too', async () => {
    const put = await platform.app.inject({
      method: 'PUT',
      url: '/api/leads/1',
      headers: { host: host(slug), origin: foreign, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(put.statusCode).toBe(403);
    const sandboxed = await post('/api/leads', 'application/json', JSON.stringify({ lead }), 'null');
    expect(sandboxed.statusCode).toBe(403);
    expect(sandboxed.json()).toEqual({ message: 'This dealer site only accepts forms sent from its own pages, not from null.' });
  });

  it('refuses a look-alike of the site on another domain', async () => {
    const res = await post('/api/leads', 'application/json', JSON.stringify({ lead }), `http://${slug}.localhost.evil.example:3000`);
    expect(res.statusCode).toBe(403);
  });

  it('accepts a multipart lead, a JSON lead and an event from the site’s own pages', async () => {
    const { contentType, payload } = multipart({ lead: JSON.stringify(lead) });
    const withFiles = await post('/api/leads/with-files', contentType, payload, own);
    expect(withFiles.statusCode, withFiles.body).toBe(201);
    const json = await post('/api/leads', 'application/json', JSON.stringify({ lead }), own);
    expect(json.statusCode, json.body).toBe(201);
    const beacon = await post('/api/events', 'application/json', JSON.stringify(event), own);
    expect(beacon.statusCode).toBe(202);
  });

  it('accepts the site’s own domain over https, the address its pages are served from in production', async () => {
    const fromDomain = await post('/api/leads', 'application/json', JSON.stringify({ lead }), 'https://www.ridgelinetrucks.com.au');
    expect(fromDomain.statusCode, fromDomain.body).toBe(201);
  });

  it.each([
    ['its slug host without the port it is served on', `http://${slug}.localhost`],
    ['its slug host on another port', `http://${slug}.localhost:4000`],
    ['its slug host over https when it was reached over http', `https://${host(slug)}`],
    ['its own domain over plain http', 'http://www.ridgelinetrucks.com.au'],
    ['its own domain on another port', 'https://www.ridgelinetrucks.com.au:8443'],
  ])('refuses a page at %s', async (_case, origin) => {
    const res = await post('/api/leads', 'application/json', JSON.stringify({ lead }), origin);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: `This dealer site only accepts forms sent from its own pages, not from ${origin}.` });
  });

  it('refuses a plain http page of the site when the shopper reached it over https through the trusted proxy', async () => {
    const viaHttps = (origin: string) =>
      platform.app.inject({
        method: 'POST',
        url: '/api/leads',
        remoteAddress: proxy,
        headers: {
          host: host(slug),
          'content-type': 'application/json',
          'x-forwarded-for': `192.0.2.${(addressCounter += 1)}`,
          'x-forwarded-proto': 'https',
          origin,
        },
        payload: JSON.stringify({ lead }),
      });
    expect((await viaHttps(own)).statusCode).toBe(403);
    const secure = await viaHttps(`https://${host(slug)}`);
    expect(secure.statusCode, secure.body).toBe(201);
  });

  it('lets requests without an Origin through (servers, curl)', async () => {
    const res = await post('/api/leads', 'application/json', JSON.stringify({ lead }));
    expect(res.statusCode, res.body).toBe(201);
  });

  it('leaves reads, the admin API and the /meili search API to their own rules', async () => {
    const read = await platform.app.inject({ url: '/api/site', headers: { host: host(slug), origin: foreign } });
    expect(read.statusCode).toBe(200);
    const admin = await platform.app.inject({ method: 'POST', url: '/api/admin/cars/1', headers: { host: host(slug), origin: foreign } });
    expect(admin.statusCode).not.toBe(403);
    const withKey = await platform.app.inject({
      url: `/api/admin/events?site=${slug}`,
      headers: { host: host(slug), origin: foreign, authorization: `Bearer ${testAdminKey}` },
    });
    expect(withKey.statusCode).toBe(200);
    const search = await platform.app.inject({
      method: 'POST',
      url: '/meili/multi-search',
      headers: { host: host(slug), origin: foreign },
      payload: { queries: [] },
    });
    expect(search.statusCode).not.toBe(403);
  });
});

describe('HTTPS only, once a shopper came over https', () => {
  const slug = 'kiwi-motors';
  const get = (url: string, headers: Record<string, string> = {}, via?: string) =>
    platform.app.inject({ url, remoteAddress: via, headers: { host: host(slug), ...headers } });

  it.each(['/', '/api/site', '/api/no-such-route'])(
    'tells the browser to use https for a year on %s reached over https through the trusted proxy',
    async (url) => {
      const res = await get(url, { 'x-forwarded-proto': 'https' }, proxy);
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    },
  );

  it('says nothing of https over plain http, nor when a client that is not the proxy claims https', async () => {
    expect((await get('/')).headers['strict-transport-security']).toBeUndefined();
    expect((await get('/', { 'x-forwarded-proto': 'http' }, proxy)).headers['strict-transport-security']).toBeUndefined();
    expect((await get('/', { 'x-forwarded-proto': 'https' })).headers['strict-transport-security']).toBeUndefined();
  });
});
