import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeRefusalMessage, codeRequestRateLimit, verifyRateLimit, wrongCodeMessage } from '../routes/auth';
import { skipPostgres } from '@dealer/testing/postgres';
import { siteRequest, type TestPlatform } from '../testing/test-platform';
import { mailFilePath, mailOutboxDir } from './mail-delivery';
import { deviceTtlMs, maxCodeTries, SignInService } from './sign-in';
import { deviceCookieOf, mailboxOf, nextClient, sessionCookieOf, signInByCode, signInSecrets } from '../testing/test-mailbox';
import { openSignInPlatform, otherGarage, signInRequests, site, type AuthAnswer } from '../testing/sign-in-requests';

/**
 * Signing in to a site's garage by the code or the link e-mailed: the account and cookies it makes, codes
 * used once, wrong guesses, expiry, how many codes an address and a connection may ask for, and malformed
 * requests. The session cookie, signing out and sending the e-mail are in sign-in.sessions-and-mail.test.ts.
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

  const { newAddress, askCode, verify, whoAmI, lastMail } = signInRequests(
    () => platform,
    () => siteId,
    engine,
  );

  it('signs in by the code e-mailed: the e-mail is an RFC 822 file under DATA_DIR/outbox/mail, the account is made, a 30-day HttpOnly session cookie and a 400-day device cookie are set', async () => {
    const email = newAddress('ana');
    const asked = await askCode(`  ${email.toUpperCase()} `);
    expect(asked.statusCode).toBe(202);
    expect(asked.headers['cache-control']).toBe('no-store');
    expect(asked.json()).toEqual({ message: `We have e-mailed a 6-digit code and a sign-in link to ${email}. They work for 10 minutes.` });

    const mail = await lastMail(email);
    expect(mail.file).toBe(mailFilePath(platform.ctx.config.dataDir, mail.id));
    expect(mail.file.startsWith(mailOutboxDir(platform.ctx.config.dataDir))).toBe(true);
    expect(mail.raw).toMatch(/^From: Metro Motor Group <no-reply@dealer-platform\.localhost>$/m);
    expect(mail.to).toBe(email);
    expect(mail.subject).toBe('Your sign-in code for Metro Motor Group');
    const { code, link } = signInSecrets(mail);
    expect(link).toMatch(/^http:\/\/metro-motor-group\.localhost:3000\/my-garage#sign_in=[A-Za-z0-9_-]{43}$/);

    // Stored as hashes only; the sent e-mail keeps no copy of the code.
    const codes = await platform.ctx.db.selectFrom('shopper_sign_in_codes').selectAll().where('email', '=', email).execute();
    expect(codes).toHaveLength(1);
    expect(JSON.stringify(codes)).not.toContain(code);
    const stored = await platform.ctx.db
      .selectFrom('shopper_mail')
      .select(['status', 'body', 'kind'])
      .where('id', '=', mail.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ status: 'sent', body: '', kind: 'sign-in' });

    const signed = await verify({ email, code });
    expect(signed.statusCode, signed.body).toBe(200);
    const answer = signed.json<AuthAnswer>();
    expect(answer).toEqual({ user: { id: expect.any(Number), email }, watchlist: [] });
    expect(signed.headers['set-cookie']).toEqual([
      expect.stringMatching(/^dp_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax$/),
      expect.stringMatching(/^dp_device=[0-9a-z]+\.[A-Za-z0-9_-]{43}; Path=\/; Max-Age=34560000; HttpOnly; SameSite=Lax$/),
    ]);
    const cookie = sessionCookieOf(signed.headers['set-cookie']);
    const sessions = await platform.ctx.db
      .selectFrom('shopper_sessions')
      .select(['id_hash', 'expires_at'])
      .where('shopper_id', '=', answer.user!.id)
      .execute();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.id_hash).not.toBe(cookie.slice('dp_session='.length));
    expect(Number(sessions[0]!.expires_at) - Date.now()).toBeGreaterThan(29 * 24 * 3600_000);

    const me = await whoAmI(cookie);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(answer);
    expect(me.headers['set-cookie']).toBeUndefined();

    // Signing in again finds the same account.
    const again = await signInByCode(platform, site, siteId, email);
    expect(again.body.user.id).toBe(answer.user!.id);
  });

  it('answers a code request for an address with an account exactly as for one without', async () => {
    const known = newAddress('known');
    await signInByCode(platform, site, siteId, known);
    const unknown = newAddress('unknown');
    const [a, b] = [await askCode(known), await askCode(unknown)];
    expect(a.statusCode).toBe(202);
    expect(b.statusCode).toBe(202);
    expect(a.json<{ message: string }>().message.replace(known, 'X')).toBe(b.json<{ message: string }>().message.replace(unknown, 'X'));
  });

  it('signs in by the link over https with a Secure cookie; the link and the code of that e-mail then no longer work', async () => {
    const email = newAddress('link');
    expect((await askCode(email)).statusCode).toBe(202);
    const { code, token } = signInSecrets(await lastMail(email));
    const signed = await verify({ token }, { 'x-forwarded-proto': 'https' });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json<AuthAnswer>().user?.email).toBe(email);
    expect(signed.headers['set-cookie']).toEqual([
      expect.stringMatching(/^dp_session=.*; HttpOnly; SameSite=Lax; Secure$/),
      expect.stringMatching(/^dp_device=.*; HttpOnly; SameSite=Lax; Secure$/),
    ]);

    // The link names the host the site was reached at, whatever X-Forwarded-Host a proxy passes on.
    const poisoned = newAddress('poisoned');
    const forwarded = await siteRequest(platform.app, site, 'POST', '/api/auth/code', {
      payload: { email: poisoned },
      headers: { 'x-forwarded-for': nextClient(), 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    });
    expect(forwarded.statusCode).toBe(202);
    expect(signInSecrets(await lastMail(poisoned)).link).toMatch(/^https:\/\/metro-motor-group\.localhost:3000\/my-garage#sign_in=/);

    for (const reuse of [{ token }, { email, code }]) {
      const refused = await verify(reuse);
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ message: string }>().message).toBe(wrongCodeMessage);
      expect(refused.headers['set-cookie']).toBeUndefined();
    }
  });

  it('refuses a code used once already', async () => {
    const email = newAddress('reuse');
    expect((await askCode(email)).statusCode).toBe(202);
    const { code } = signInSecrets(await lastMail(email));
    expect((await verify({ email, code })).statusCode).toBe(200);
    expect((await verify({ email, code })).statusCode).toBe(400);
  });

  it(`kills a code for the connection that asked for it after ${maxCodeTries} wrong tries from it, and for all others after ${maxCodeTries} from them together, but takes the right one before that`, async () => {
    const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

    const patient = newAddress('patient');
    await askCode(patient);
    const first = signInSecrets(await lastMail(patient)).code;
    for (let i = 0; i < maxCodeTries - 1; i++) expect((await verify({ email: patient, code: wrong(first) })).statusCode).toBe(400);
    expect((await verify({ email: patient, code: first })).statusCode).toBe(200);

    // Guessed at from other connections (each verify comes from a connection of its own).
    const guesser = newAddress('guesser');
    await askCode(guesser);
    const second = signInSecrets(await lastMail(guesser)).code;
    for (let i = 0; i < maxCodeTries; i++) {
      const res = await verify({ email: guesser, code: wrong(second) });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: wrongCodeMessage, fields: { code: wrongCodeMessage } });
    }
    expect((await verify({ email: guesser, code: second })).statusCode).toBe(400);
    // A new code works again.
    await askCode(guesser);
    expect((await verify({ email: guesser, code: signInSecrets(await lastMail(guesser)).code })).statusCode).toBe(200);

    // Guessed at by the connection that asked for it: dead there, the other connections' tries untouched.
    const own = newAddress('own');
    const client = nextClient();
    await askCode(own, client);
    const third = signInSecrets(await lastMail(own)).code;
    for (let i = 0; i < maxCodeTries; i++)
      expect((await verify({ email: own, code: wrong(third) }, { 'x-forwarded-for': client })).statusCode).toBe(400);
    expect((await verify({ email: own, code: third }, { 'x-forwarded-for': client })).statusCode).toBe(400);
    expect((await verify({ email: own, code: third })).statusCode).toBe(200);
  });

  it('answers ten sign-ins of one address at once, right codes and wrong, with 200 or 400 and never a 500 (one signs in)', async () => {
    for (let round = 0; round < 5; round++) {
      const email = newAddress('crowded');
      const client = nextClient();
      for (let i = 0; i < 3; i++) expect((await askCode(email, client)).statusCode).toBe(202);
      const codes = (await mailboxOf(platform, siteId, email)).map((mail) => signInSecrets(mail).code);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          verify({ email, code: i % 2 === 0 ? codes[i % codes.length]! : '000000' }, { 'x-forwarded-for': i < 5 ? client : nextClient() }),
        ),
      );
      const statuses = answers.map((answer) => answer.statusCode);
      expect(
        statuses.filter((status) => status !== 200 && status !== 400),
        answers.map((answer) => answer.body).join('\n'),
      ).toEqual([]);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    }
  });

  it('does not let a stranger’s wrong guesses kill the code the owner asked for, nor its link', async () => {
    const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const email = newAddress('guessed-at');
    const owner = nextClient();
    await askCode(email, owner);
    const { code } = signInSecrets(await lastMail(email));
    // Strangers guess from several connections, more often than a code allows.
    for (let i = 0; i < 2 * maxCodeTries; i++) expect((await verify({ email, code: wrong(code) })).statusCode).toBe(400);
    // The owner, on the connection that asked, still signs in with the code...
    expect((await verify({ email, code }, { 'x-forwarded-for': owner })).statusCode).toBe(200);

    // ...and the link works whatever was guessed, from any connection.
    const linked = newAddress('guessed-link');
    await askCode(linked);
    const sent = signInSecrets(await lastMail(linked));
    for (let i = 0; i < 2 * maxCodeTries; i++) expect((await verify({ email: linked, code: wrong(sent.code) })).statusCode).toBe(400);
    const byLink = await verify({ token: sent.token });
    expect(byLink.statusCode, byLink.body).toBe(200);
    expect(byLink.json<AuthAnswer>().user?.email).toBe(linked);
  });

  it('refuses a code and a link after 10 minutes, and never sends a sign-in e-mail whose code has expired', async () => {
    const email = newAddress('late');
    await askCode(email);
    const { code, token } = signInSecrets(await lastMail(email));
    await platform.ctx.db
      .updateTable('shopper_sign_in_codes')
      .set({ expires_at: Date.now() - 1 })
      .where('email', '=', email)
      .execute();
    expect((await verify({ email, code })).statusCode).toBe(400);
    expect((await verify({ token })).statusCode).toBe(400);

    const slow = newAddress('slow');
    await askCode(slow);
    await platform.ctx.db
      .updateTable('shopper_mail')
      .set({ expires_at: Date.now() - 1 })
      .where('email', '=', slow)
      .execute();
    expect(await mailboxOf(platform, siteId, slow)).toEqual([]);
    const row = await platform.ctx.db
      .selectFrom('shopper_mail')
      .select(['id', 'status', 'body'])
      .where('email', '=', slow)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'expired', body: '' });
    expect(existsSync(mailFilePath(platform.ctx.config.dataDir, Number(row.id)))).toBe(false);
  });

  it('sends one connection at most SIGN_IN_CODES_PER_ADDRESS_AND_CLIENT (5) codes an hour for one address, then answers 429 saying when it may ask again', async () => {
    const { perAddressAndClient } = platform.ctx.config.accounts.signInCodes;
    expect(perAddressAndClient).toBe(5);
    const email = newAddress('limited');
    const client = nextClient();
    for (let i = 0; i < perAddressAndClient; i++) expect((await askCode(email, client)).statusCode).toBe(202);
    const refused = await askCode(email, client);
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(refused.json()).toEqual({ message: codeRefusalMessage({ limit: 'client', max: perAddressAndClient }, '60 minutes') });
    expect(refused.json<{ message: string }>().message).toMatch(
      /^You have asked for 5 codes for this address within the hour\. You can ask for a new code in 60 minutes;/,
    );
    // The same address on another site is another account, with its own limit.
    expect((await askCode(email, client, otherGarage)).statusCode).toBe(202);
    expect(
      await platform.ctx.db
        .selectFrom('shopper_sign_in_codes')
        .select('id')
        .where('email', '=', email)
        .where('site_id', '=', siteId)
        .execute(),
    ).toHaveLength(perAddressAndClient);
  });

  it('does not let a stranger’s code requests lock the owner out: the owner’s connection still gets codes, and past the address’s cap (SIGN_IN_CODES_PER_ADDRESS, 10) a device that signed in to it before does', async () => {
    const { perAddressAndClient, perAddress } = platform.ctx.config.accounts.signInCodes;
    expect(perAddress).toBe(10);
    const email = newAddress('owner');
    // The owner signed in on their phone once: it carries the device cookie.
    const phone = nextClient();
    await askCode(email, phone);
    const signed = await verify({ email, code: signInSecrets(await lastMail(email)).code }, { 'x-forwarded-for': phone });
    expect(signed.statusCode).toBe(200);
    const device = deviceCookieOf(signed.headers['set-cookie']);
    expect(device).toMatch(/^dp_device=/);

    // A stranger asks for codes for the owner's address until refused...
    const stranger = nextClient();
    for (let i = 0; i < perAddressAndClient; i++) expect((await askCode(email, stranger)).statusCode).toBe(202);
    expect((await askCode(email, stranger)).statusCode).toBe(429);
    // ...yet the owner, on a laptop never signed in with, still gets one.
    expect((await askCode(email, nextClient())).statusCode).toBe(202);

    // Strangers on more connections fill the address's cap for everyone else...
    let sent = 2 + perAddressAndClient;
    while (sent < perAddress) {
      expect((await askCode(email, nextClient())).statusCode).toBe(202);
      sent += 1;
    }
    const capped = await askCode(email, nextClient());
    expect(capped.statusCode).toBe(429);
    expect(Number(capped.headers['retry-after'])).toBeGreaterThan(3500);
    expect(capped.json()).toEqual({ message: codeRefusalMessage({ limit: 'address', max: perAddress }, '60 minutes') });
    expect(capped.json<{ message: string }>().message).toBe(
      'This address has been sent 10 codes within the hour, the most we send. You can ask for a new code in 60 minutes, or now on a device where you have signed in to your garage before.',
    );
    // ...but not for the owner's phone, wherever it connects from; a device cookie of another address or site, or a forged one, does not count.
    const fromDevice = (cookie: string) =>
      siteRequest(platform.app, site, 'POST', '/api/auth/code', {
        payload: { email },
        headers: { 'x-forwarded-for': nextClient(), cookie },
      });
    expect((await fromDevice(device)).statusCode).toBe(202);
    const other = newAddress('other');
    const otherClient = nextClient();
    await askCode(other, otherClient);
    const otherSigned = await verify({ email: other, code: signInSecrets(await lastMail(other)).code }, { 'x-forwarded-for': otherClient });
    const [issued, mac] = device.slice('dp_device='.length).split('.');
    for (const cookie of [
      deviceCookieOf(otherSigned.headers['set-cookie']),
      `dp_device=${issued}.${mac!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`,
      `dp_device=${(Number.parseInt(issued!, 36) + 1).toString(36)}.${mac}`,
      'dp_device=garbage',
    ]) {
      expect((await fromDevice(cookie)).statusCode, cookie).toBe(429);
    }
    // A device that signed in 400 days ago is no longer known as the address's.
    const { ctx } = platform;
    const longAgo = new SignInService({
      db: ctx.db,
      engine: ctx.dialect,
      serverSecret: ctx.config.leads.tokenSecret,
      mail: ctx.accounts.mail,
      smtpConfigured: false,
      log: { warn() {} },
      limits: ctx.config.accounts.signInCodes,
      now: () => Date.now() - deviceTtlMs,
    });
    expect((await fromDevice(`dp_device=${longAgo.deviceCookieValue(siteId, email)}`)).statusCode).toBe(429);
  });

  it(`answers one client address at most ${codeRequestRateLimit.max} code requests an hour, and ${verifyRateLimit.max} sign-in tries`, async () => {
    const client = nextClient();
    for (let i = 0; i < codeRequestRateLimit.max; i++) expect((await askCode(newAddress('crowd'), client)).statusCode).toBe(202);
    const refused = await askCode(newAddress('crowd'), client);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    expect(refused.json()).toEqual({
      message: 'Too many sign-in codes asked for from your connection. You can ask for a new code in 60 minutes.',
    });
    expect((await askCode(newAddress('crowd'), nextClient())).statusCode).toBe(202);

    const guesser = nextClient();
    for (let i = 0; i < verifyRateLimit.max; i++)
      expect((await verify({ email: newAddress('nobody'), code: '000000' }, { 'x-forwarded-for': guesser })).statusCode).toBe(400);
    const slowed = await verify({ email: newAddress('nobody'), code: '000000' }, { 'x-forwarded-for': guesser });
    expect(slowed.statusCode).toBe(429);
    expect(Number(slowed.headers['retry-after'])).toBeGreaterThan(800);
  });

  it('answers malformed requests with a 4xx, never a 5xx', async () => {
    const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
      siteRequest(platform.app, site, 'POST', url, {
        payload: payload as string,
        headers: { 'x-forwarded-for': nextClient(), ...headers },
      });
    const cases: [string, unknown, Record<string, string>?][] = [
      ['/api/auth/code', {}],
      ['/api/auth/code', { email: 'not an address' }],
      ['/api/auth/code', { email: 42 }],
      ['/api/auth/code', { email: `${'a'.repeat(250)}@example.com` }],
      ['/api/auth/code', '[1,2', { 'content-type': 'application/json' }],
      ['/api/auth/code', 'email=a@example.com', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['/api/auth/code', JSON.stringify({ email: `${'a'.repeat(5000)}@example.com` }), { 'content-type': 'application/json' }],
      ['/api/auth/code', 'null', { 'content-type': 'application/json' }],
      ['/api/auth/verify', {}],
      ['/api/auth/verify', { email: 'a@example.com' }],
      ['/api/auth/verify', { email: 'a@example.com', code: '12345' }],
      ['/api/auth/verify', { email: 'a@example.com', code: 'abcdef' }],
      ['/api/auth/verify', { token: 'x'.repeat(500) }],
      ['/api/auth/verify', { token: 'short' }],
      ['/api/auth/verify', { token: ['a'] }],
      ['/api/auth/verify', { email: 'a@example.com', code: '123456', favourites: 'all' }],
      ['/api/auth/verify', { email: 'a@example.com', code: '123456', favourites: [1.5] }],
      ['/api/auth/verify', { email: 'a@example.com', code: '123456', favourites: Array.from({ length: 201 }, (_, i) => i + 1) }],
      ['/api/auth/verify', '"text"', { 'content-type': 'application/json' }],
    ];
    for (const [url, payload, headers] of cases) {
      const res = await post(url, payload, headers);
      expect(res.statusCode, `${url} ${String(JSON.stringify(payload)).slice(0, 80)}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${url} ${String(JSON.stringify(payload)).slice(0, 80)}`).toBeLessThan(500);
    }
    const badAddress = await post('/api/auth/code', { email: 'nope' });
    expect(badAddress.json()).toEqual({
      message: 'Please check the highlighted fields.',
      fields: { email: 'Please enter a valid e-mail address.' },
    });
  });
});
