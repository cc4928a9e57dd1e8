import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { noGarageMessage } from '../routes/accounts';
import { skipPostgres } from '@dealer/testing/postgres';
import { siteRequest, type TestPlatform } from '../testing/test-platform';
import { startSmtpSink } from '@dealer/testing/smtp-sink';
import { mailFilePath } from './mail-delivery';
import { MailOutbox } from './mail-outbox';
import { SignInService } from './sign-in';
import { nextClient, signInByCode, signInSecrets } from '../testing/test-mailbox';
import { noGarage, openSignInPlatform, otherGarage, signInRequests, site, type AuthAnswer } from '../testing/sign-in-requests';

/**
 * A signed-in shopper's session: who GET /api/auth says they are, which cookies it clears, signing out,
 * a site without a garage; and the sign-in e-mail's way out, logged, through SMTP or by the worker. How
 * codes and links sign a shopper in is in sign-in.codes.test.ts.
 */

describe.each(['sqlite', 'postgres'] as const)('passwordless sign-in to a site’s garage on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let platform: TestPlatform;
  let siteId: number;
  beforeAll(async () => {
    ({ platform, siteId } = await openSignInPlatform(engine));
  });
  afterAll(async () => {
    await platform?.close();
  });

  const { newAddress, askCode, whoAmI, lastMail } = signInRequests(
    () => platform,
    () => siteId,
    engine,
  );

  it('answers GET /api/auth with no user without a cookie, and clears a cookie that is malformed, unknown, expired or another site’s', async () => {
    const none = await whoAmI();
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ user: null, watchlist: [] });
    expect(none.headers['set-cookie']).toBeUndefined();

    const bad = [
      'dp_session=',
      'dp_session=not-a-session',
      `dp_session=${'a'.repeat(43)}`,
      `dp_session=${'%'.repeat(5000)}`,
      'dp_session=é😀; other=1',
      'dp_session',
      '=;;==;dp_session=;',
    ];
    for (const cookie of bad) {
      const res = await whoAmI(cookie);
      expect(res.statusCode, cookie).toBe(200);
      expect(res.json(), cookie).toEqual({ user: null, watchlist: [] });
    }
    const unknown = await whoAmI(`theme=dark; dp_session=${'a'.repeat(43)}`);
    expect(String(unknown.headers['set-cookie'])).toMatch(
      /^dp_session=; Path=\/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/,
    );

    const email = newAddress('expiring');
    const { cookie, body } = await signInByCode(platform, site, siteId, email);
    expect((await whoAmI(cookie, otherGarage)).json()).toEqual({ user: null, watchlist: [] });
    expect((await whoAmI(cookie)).json<AuthAnswer>().user?.email).toBe(email);
    await platform.ctx.db
      .updateTable('shopper_sessions')
      .set({ expires_at: Date.now() - 1 })
      .where('shopper_id', '=', body.user.id)
      .execute();
    const expired = await whoAmI(cookie);
    expect(expired.json()).toEqual({ user: null, watchlist: [] });
    expect(String(expired.headers['set-cookie'])).toMatch(/^dp_session=; .*Max-Age=0/);
    expect(await platform.ctx.db.selectFrom('shopper_sessions').select('id_hash').where('shopper_id', '=', body.user.id).execute()).toEqual(
      [],
    );
  });

  it('signs out: the session is deleted and the cookie cleared', async () => {
    const { cookie, body } = await signInByCode(platform, site, siteId, newAddress('leaving'));
    const out = await siteRequest(platform.app, site, 'POST', '/api/auth/sign-out', { headers: { cookie, 'x-forwarded-proto': 'https' } });
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/^dp_session=; .*Max-Age=0.*; Secure$/);
    expect(await platform.ctx.db.selectFrom('shopper_sessions').select('id_hash').where('shopper_id', '=', body.user.id).execute()).toEqual(
      [],
    );
    expect((await whoAmI(cookie)).json()).toEqual({ user: null, watchlist: [] });
    expect((await siteRequest(platform.app, site, 'POST', '/api/auth/sign-out')).statusCode).toBe(204);
  });

  it('answers 404 "This site has no garage." on a site without one', async () => {
    for (const [method, url] of [
      ['GET', '/api/auth'],
      ['POST', '/api/auth/code'],
      ['POST', '/api/auth/verify'],
      ['POST', '/api/auth/sign-out'],
      ['DELETE', '/api/auth/account'],
      ['GET', '/api/garage'],
      ['PUT', '/api/garage/saved/1'],
      ['POST', '/api/garage/searches'],
    ] as const) {
      const res = await siteRequest(platform.app, noGarage, method, url, method === 'POST' ? { payload: { email: 'a@example.com' } } : {});
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ message: noGarageMessage });
    }
    expect((await siteRequest(platform.app, 'no-such-site', 'GET', '/api/auth')).statusCode).toBe(404);
  });

  it('logs the code with the site and address when there is no SMTP server', async () => {
    const warnings: { obj: Record<string, unknown>; msg: string }[] = [];
    const { ctx } = platform;
    const services = ctx.accounts;
    const signIn = new SignInService({
      db: ctx.db,
      engine: ctx.dialect,
      serverSecret: ctx.config.leads.tokenSecret,
      mail: services.mail,
      smtpConfigured: false,
      log: { warn: (obj, msg) => warnings.push({ obj: obj as Record<string, unknown>, msg }) },
      limits: ctx.config.accounts.signInCodes,
    });
    const email = newAddress('logged');
    const siteConfig = (await ctx.sites.forId(siteId))!;
    expect(
      await signIn.requestCode(siteConfig, email, 'http://metro-motor-group.localhost:3000', { client: nextClient(), device: null }),
    ).toEqual({ ok: true });
    const { code } = signInSecrets(await lastMail(email));
    expect(warnings).toEqual([
      { obj: { site: site, email, code, mailId: expect.any(Number) }, msg: expect.stringContaining('sign-in code') },
    ]);
  });

  it('sends through SMTP_URL when set: delivered to the mail server, retried after a 4xx, given up after a 5xx', async () => {
    const { ctx } = platform;
    const outboxOver = (smtpUrl: string) =>
      new MailOutbox({
        db: ctx.db,
        transport: { dataDir: ctx.config.dataDir, smtpUrl, from: 'garage@dealer.example', timeoutMs: 2000 },
        siteOf: (id) => ctx.sites.forId(id),
        backoffMs: [0],
        maxAttempts: 3,
        leaseMs: 60_000,
      });
    // Whatever earlier tests left due goes out first (to the file outbox), so each mail server here sees only its own.
    while ((await ctx.accounts.mail.runOnce()) > 0);
    const statusOf = async (email: string) =>
      ctx.db
        .selectFrom('shopper_mail')
        .select(['status', 'attempts', 'last_error', 'body'])
        .where('email', '=', email)
        .executeTakeFirstOrThrow();

    const sink = await startSmtpSink();
    try {
      const email = newAddress('smtp');
      await askCode(email);
      await outboxOver(sink.url).runOnce();
      expect(sink.messages).toHaveLength(1);
      expect(sink.messages[0]!.to).toEqual([email]);
      expect(sink.messages[0]!.data).toMatch(/^Subject: Your sign-in code for Metro Motor Group$/m);
      expect(await statusOf(email)).toMatchObject({ status: 'sent', attempts: 1, body: '' });
    } finally {
      await sink.close();
    }

    const busy = await startSmtpSink({ rcptReply: '451 4.3.0 Try again later' });
    try {
      const email = newAddress('busy');
      await askCode(email);
      await outboxOver(busy.url).runOnce();
      const state = await statusOf(email);
      expect(state).toMatchObject({ status: 'failed', attempts: 1 });
      expect(state.body).not.toBe('');
      await outboxOver(busy.url).runOnce();
      await outboxOver(busy.url).runOnce();
      expect(await statusOf(email)).toMatchObject({ status: 'dead', attempts: 3, body: '' });
    } finally {
      await busy.close();
    }

    const refusing = await startSmtpSink({ rcptReply: '550 5.1.1 No such user' });
    try {
      const email = newAddress('bounce');
      await askCode(email);
      await outboxOver(refusing.url).runOnce();
      expect(await statusOf(email)).toMatchObject({ status: 'dead', attempts: 1, body: '' });
    } finally {
      await refusing.close();
    }
  });

  // Last: from here on the worker sends on its own, beside the tests' own runs.
  it('sends the e-mail by itself once the server listens (where the lead outbox worker runs)', async () => {
    await platform.app.listen({ port: 0, host: '127.0.0.1' });
    const email = newAddress('live');
    expect((await askCode(email)).statusCode).toBe(202);
    const row = await platform.ctx.db.selectFrom('shopper_mail').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    const file = mailFilePath(platform.ctx.config.dataDir, Number(row.id));
    await vi.waitFor(() => expect(existsSync(file)).toBe(true), { timeout: 5_000, interval: 20 });
  });
});
