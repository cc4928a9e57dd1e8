import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SiteConfig } from '@dealer/contracts/site';
import { findSiteIdBySlug } from '@dealer/db/site-store';
import { unsubscribeToken } from '../accounts/unsubscribe-token';
import { createTestPlatform, siteRequest, type TestPlatform } from '../testing/test-platform';
import { nextClient, signInByCode } from '../testing/test-mailbox';
import { badEmailMessage, brokenLinkMessage, unsubscribeRateLimit, unsubscribedMessage } from './unsubscribe';

const slug = 'metro-motor-group';
const otherSlug = 'ridgeline-trucks';

describe('unsubscribing from a site’s offers and alert e-mails', () => {
  let platform: TestPlatform;
  let site: SiteConfig;
  let otherSite: SiteConfig;
  let secret: string;

  beforeAll(async () => {
    platform = await createTestPlatform();
    site = (await platform.ctx.sites.forId((await findSiteIdBySlug(platform.ctx.db, slug))!))!;
    otherSite = (await platform.ctx.sites.forId((await findSiteIdBySlug(platform.ctx.db, otherSlug))!))!;
    secret = platform.ctx.config.leads.tokenSecret;
  }, 60_000);
  afterAll(async () => platform?.close());

  let addresses = 0;
  const newAddress = (name: string) => `${name}.unsubscribe.${++addresses}@example.com`;
  const post = (url: string, payload: object | string, opts: { client?: string; slug?: string; contentType?: string } = {}) =>
    siteRequest(platform.app, opts.slug ?? slug, 'POST', url, {
      headers: { 'x-forwarded-for': opts.client ?? nextClient(), ...(opts.contentType ? { 'content-type': opts.contentType } : {}) },
      payload: payload as Record<string, unknown>,
    });
  /** The opt-outs kept for the address, on every site. */
  const optOutsOf = async (email: string) =>
    (
      await platform.ctx.db
        .selectFrom('mail_opt_outs')
        .select(['site_id', 'source'])
        .where('email', '=', email)
        .orderBy('site_id')
        .execute()
    ).map((row) => ({ siteId: Number(row.site_id), source: row.source }));

  it('records an opt-out from the page, and answers a customer and an address it has never seen alike', async () => {
    const customer = newAddress('customer');
    await signInByCode(platform, slug, site.id, customer);
    const stranger = newAddress('stranger');
    for (const email of [customer, stranger]) {
      const res = await post('/api/unsubscribe', { email: `  ${email.toUpperCase()} ` });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ message: unsubscribedMessage(email, site) });
      expect(res.json<{ message: string }>().message).toBe(`Done: ${email} will get no more offers or alert e-mails from ${site.name}.`);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(await optOutsOf(email)).toEqual([{ siteId: site.id, source: 'page' }]);
    }
    // Asked again: the same answer, the first opt-out kept.
    const again = await post('/api/unsubscribe', { email: stranger });
    expect(again.json()).toEqual({ message: unsubscribedMessage(stranger, site) });
    expect(await optOutsOf(stranger)).toEqual([{ siteId: site.id, source: 'page' }]);
  });

  it('refuses what is not an e-mail address beside the field, and records nothing', async () => {
    for (const payload of [{ email: 'not-an-address' }, { email: '' }, {}, { email: 5 }, { email: `${'a'.repeat(250)}@example.com` }]) {
      const res = await post('/api/unsubscribe', payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
      expect(res.json()).toEqual({ message: badEmailMessage, fields: { email: badEmailMessage } });
    }
    expect(await platform.ctx.db.selectFrom('mail_opt_outs').select('email').where('email', '=', 'not-an-address').execute()).toEqual([]);
  });

  it(`answers 429 with Retry-After beyond ${unsubscribeRateLimit.max} tries a minute from one connection, good or bad`, async () => {
    const client = nextClient();
    for (let i = 0; i < unsubscribeRateLimit.max; i++) {
      const res = await post('/api/unsubscribe', i % 2 ? { email: newAddress('busy') } : { email: 'wrong' }, { client });
      expect(res.statusCode).toBe(i % 2 ? 200 : 400);
    }
    const email = newAddress('one-too-many');
    const refused = await post('/api/unsubscribe', { email }, { client });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.json<{ message: string }>().message).toMatch(/^Too many tries from your connection\. Please try again in .+\.$/);
    expect(await optOutsOf(email)).toEqual([]);
    // Another connection is not held up.
    expect((await post('/api/unsubscribe', { email })).statusCode).toBe(200);
  });

  it('records a mail program’s one-click unsubscribe (RFC 8058) for the address and site its token names', async () => {
    const email = newAddress('one-click');
    const res = await post(`/api/unsubscribe/one-click?t=${unsubscribeToken(secret, site.id, email)}`, 'List-Unsubscribe=One-Click', {
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: unsubscribedMessage(email, site) });
    expect(await optOutsOf(email)).toEqual([{ siteId: site.id, source: 'one-click' }]);

    // Sent as multipart, or with no body at all, the token is still all that counts.
    const multipart = newAddress('multipart');
    const boundary = 'x-boundary';
    const form = `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`;
    const sent = await post(`/api/unsubscribe/one-click?t=${unsubscribeToken(secret, site.id, multipart)}`, form, {
      contentType: `multipart/form-data; boundary=${boundary}`,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await optOutsOf(multipart)).toEqual([{ siteId: site.id, source: 'one-click' }]);
  });

  it('takes a one-click post a webmail sends from its own origin (the token is the proof), while the page’s form stays same-origin', async () => {
    const email = newAddress('webmail');
    const res = await siteRequest(platform.app, slug, 'POST', `/api/unsubscribe/one-click?t=${unsubscribeToken(secret, site.id, email)}`, {
      headers: { origin: 'https://mail.example.net', 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': nextClient() },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await optOutsOf(email)).toEqual([{ siteId: site.id, source: 'one-click' }]);
    const foreign = await siteRequest(platform.app, slug, 'POST', '/api/unsubscribe', {
      headers: { origin: 'https://evil.example.net', 'x-forwarded-for': nextClient() },
      payload: { email: newAddress('forced') },
    });
    expect(foreign.statusCode).toBe(403);
  });

  it('lets a signed-in shopper take back an opt-out of their own address, and nobody else', async () => {
    const email = newAddress('changed-mind');
    await post('/api/unsubscribe', { email });
    const { cookie } = await signInByCode(platform, slug, site.id, email);
    const garage = () => siteRequest(platform.app, slug, 'GET', '/api/garage', { headers: { cookie, 'x-forwarded-for': nextClient() } });
    expect((await garage()).json<{ alerts_stopped: boolean }>().alerts_stopped).toBe(true);
    const resume = (with_?: string) =>
      siteRequest(platform.app, slug, 'DELETE', '/api/garage/unsubscribe', {
        headers: { ...(with_ ? { cookie: with_ } : {}), 'x-forwarded-for': nextClient() },
      });
    expect((await resume()).statusCode).toBe(401);
    expect(await optOutsOf(email)).toEqual([{ siteId: site.id, source: 'page' }]);
    expect((await resume(cookie)).json()).toEqual({ alerts_stopped: false });
    expect(await optOutsOf(email)).toEqual([]);
    expect((await garage()).json<{ alerts_stopped: boolean }>().alerts_stopped).toBe(false);
  });

  it('never keeps or shares the page of one shopper’s unsubscribe link', async () => {
    const link = `/unsubscribe?t=${unsubscribeToken(secret, site.id, newAddress('link'))}`;
    const page = await siteRequest(platform.app, slug, 'GET', link);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('private, no-store');
  });

  it('refuses a forged or broken token with a 400, and records nothing', async () => {
    const victim = newAddress('victim');
    const genuine = unsubscribeToken(secret, site.id, newAddress('genuine'));
    const forgedBody = Buffer.from(`${site.id}:${victim}`).toString('base64url');
    const tokens = [
      `${forgedBody}.${genuine.split('.')[1]}`,
      unsubscribeToken('another-secret-0123456789abcdef', site.id, victim),
      genuine.slice(0, -3),
      `${genuine}.extra`,
      'nonsense',
      'x'.repeat(700),
    ];
    for (const token of tokens) {
      const res = await post(`/api/unsubscribe/one-click?t=${encodeURIComponent(token)}`, 'List-Unsubscribe=One-Click', {
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(res.statusCode, token.slice(0, 40)).toBe(400);
      expect(res.json()).toEqual({ message: brokenLinkMessage });
    }
    const missing = await post('/api/unsubscribe/one-click', 'List-Unsubscribe=One-Click', {
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ message: brokenLinkMessage });
    expect(await optOutsOf(victim)).toEqual([]);
  });

  it('does not unsubscribe an address from this site with another site’s token', async () => {
    const email = newAddress('two-sites');
    const theirs = unsubscribeToken(secret, otherSite.id, email);
    const res = await post(`/api/unsubscribe/one-click?t=${theirs}`, 'List-Unsubscribe=One-Click', {
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(res.statusCode).toBe(400);
    const confirmed = await post('/api/unsubscribe/confirm', { token: theirs });
    expect(confirmed.statusCode).toBe(400);
    expect(await optOutsOf(email)).toEqual([]);
    // On its own site it works, and for that site alone.
    expect((await post('/api/unsubscribe/confirm', { token: theirs }, { slug: otherSlug })).statusCode).toBe(200);
    expect(await optOutsOf(email)).toEqual([{ siteId: otherSite.id, source: 'link' }]);
  });

  it('records the confirmation page’s button for the link in an e-mail, and refuses a broken link beside the token', async () => {
    const email = newAddress('linked');
    const res = await post('/api/unsubscribe/confirm', { token: unsubscribeToken(secret, site.id, email) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: unsubscribedMessage(email, site) });
    expect(await optOutsOf(email)).toEqual([{ siteId: site.id, source: 'link' }]);

    for (const payload of [{ token: 'broken' }, { token: '' }, {}]) {
      const refused = await post('/api/unsubscribe/confirm', payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json()).toEqual({ message: brokenLinkMessage, fields: { token: brokenLinkMessage } });
    }
  });
});
