import Fastify, { type FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SiteConfig } from '@dealer/contracts/site';
import { messageSchema, RequestSchemaError, sendSchemaRefusal, applyZodSchemas } from '../http/zod-schemas';
import type { SiteContext } from './site-context';
import { parseHost } from './site-host';
import { sitePlugin, siteRefusals } from './site-plugin';

const site = { id: 7, slug: 'metro', name: 'Metro Motors' } as SiteConfig;

/** A plugin whose lookups count their calls: `metro.localhost` is the one site served. */
async function testApp(production = false) {
  const calls = { fresh: 0, cached: 0 };
  const lookup = async (request: FastifyRequest): Promise<SiteConfig | 'invalid' | 'index' | null> => {
    // The platform's own rule for hosts, with the store left out.
    const target = parseHost(request.headers.host, null);
    if (target.kind === 'invalid' || target.kind === 'index') return target.kind;
    return target.kind === 'slug' && target.slug === 'metro' ? site : null;
  };
  const app = Fastify({ logger: false });
  applyZodSchemas(app, production);
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof RequestSchemaError) return sendSchemaRefusal(error, request, reply);
    return reply.code(500).send({ message: 'failed' });
  });
  await app.register(sitePlugin, {
    fresh: async (request) => {
      calls.fresh += 1;
      const found = await lookup(request);
      return found && typeof found === 'object'
        ? ({ site: found, publicConfig: {}, origin: 'http://metro.localhost' } as unknown as SiteContext)
        : found;
    },
    cached: async (request) => {
      calls.cached += 1;
      const found = await lookup(request);
      return found === 'index' ? null : found;
    },
  });
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get('/cached', { config: { site: 'required' } }, async (request) => ({ first: request.site.id, again: request.site.slug }));
  typed.get('/fresh', { config: { site: 'fresh' } }, async (request) => {
    const [a, b] = [await request.siteContext(), await request.siteContext()];
    return { same: a === b, id: request.site.id };
  });
  typed.get('/anywhere', async (request) => ({ lookup: typeof (await request.siteContext()) }));
  typed.get('/no-config', async (request) => ({ id: request.site.id }));
  typed.post(
    '/checked',
    {
      config: {
        site: 'required',
        schemaError: (error) => ({ status: 422, body: { message: `Check ${error.issues[0]?.path.join('.')}.` } }),
      },
      schema: { body: z.object({ n: z.number() }), response: { 200: z.object({ n: z.number() }), 422: messageSchema } },
    },
    async (request) => ({ n: request.body.n }),
  );
  typed.get(
    '/wrong-answer',
    { schema: { response: { 200: z.object({ n: z.number() }) } } },
    async () => ({ n: 'not a number' }) as unknown as { n: number },
  );
  return { app, calls };
}

describe('the site plugin', () => {
  it('answers a route that requires a site with the 404 message on a host no site is served at, before the handler', async () => {
    const { app } = await testApp();
    for (const url of ['/cached', '/fresh']) {
      const response = await app.inject({ url, headers: { host: 'nobody.localhost' } });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: siteRefusals.noSite });
      expect(siteRefusals.noSite).toBe('No dealer site is served at this address.');
    }
    // The platform's index is no site either.
    expect((await app.inject({ url: '/cached', headers: { host: 'localhost' } })).json()).toEqual({ message: siteRefusals.noSite });
  });

  it('answers a malformed Host with the 400 message', async () => {
    const { app } = await testApp();
    for (const url of ['/cached', '/fresh']) {
      const response = await app.inject({ url, headers: { host: 'bad host!' } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: 'The Host header is not a valid host name.' });
    }
  });

  it('resolves the site once per request however often the handler reads it', async () => {
    const { app, calls } = await testApp();
    const cached = await app.inject({ url: '/cached', headers: { host: 'metro.localhost' } });
    expect(cached.json()).toEqual({ first: 7, again: 'metro' });
    expect(calls).toEqual({ fresh: 0, cached: 1 });
    const fresh = await app.inject({ url: '/fresh', headers: { host: 'metro.localhost' } });
    expect(fresh.json()).toEqual({ same: true, id: 7 });
    expect(calls).toEqual({ fresh: 1, cached: 1 });
    // A second request looks it up again: nothing is kept between requests by the plugin.
    await app.inject({ url: '/fresh', headers: { host: 'metro.localhost' } });
    expect(calls.fresh).toBe(2);
  });

  it('looks nothing up for a route that does not ask, and refuses to read request.site there', async () => {
    const { app, calls } = await testApp();
    expect((await app.inject({ url: '/anywhere', headers: { host: 'localhost' } })).json()).toEqual({ lookup: 'string' });
    expect(calls).toEqual({ fresh: 1, cached: 0 });
    expect((await app.inject({ url: '/no-config', headers: { host: 'metro.localhost' } })).statusCode).toBe(500);
  });

  it('answers a request its schema refuses with the route’s own status and message, after the site check', async () => {
    const { app } = await testApp();
    const refused = await app.inject({ method: 'POST', url: '/checked', headers: { host: 'metro.localhost' }, payload: { n: 'one' } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({ message: 'Check n.' });
    // No site beats a bad body, as when the handler checked both.
    const noSite = await app.inject({ method: 'POST', url: '/checked', headers: { host: 'nobody.localhost' }, payload: { n: 'one' } });
    expect(noSite.statusCode).toBe(404);
    const ok = await app.inject({ method: 'POST', url: '/checked', headers: { host: 'metro.localhost' }, payload: { n: 1 } });
    expect(ok.json()).toEqual({ n: 1 });
  });

  it('checks answers against their schema outside production, and only stringifies them in production', async () => {
    const checked = await testApp(false);
    expect((await checked.app.inject({ url: '/wrong-answer' })).statusCode).toBe(500);
    const production = await testApp(true);
    const answer = await production.app.inject({ url: '/wrong-answer' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ n: 'not a number' });
  });
});
