import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipPostgres } from '@dealer/testing/postgres';
import { consoleOrigin, consoleRequest, consoleSignIn, latestConsoleCode } from '../testing/console-requests';
import { createTestPlatform, type TestPlatform } from '../testing/test-platform';

const staffEmail = 'staff@harbour-used-cars.localhost';

describe.each(['sqlite', 'postgres'] as const)('signing in to the dealer console on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform({ engine, env: { CONSOLE_SIGN_IN_CODES_PER_ADDRESS: '3' } });
  }, 60_000);
  afterAll(async () => platform?.close());

  const ask = (email: string) => consoleRequest(platform.app, 'POST', '/api/console/auth/code', { payload: { email } });
  const verify = (payload: object) => consoleRequest(platform.app, 'POST', '/api/console/auth/verify', { payload });
  const mailCount = async (email: string) =>
    (await platform.ctx.db.selectFrom('console_mail').select('id').where('email', '=', email).execute()).length;

  it('answers alike for any address, and mails a code only to a console user', async () => {
    const stranger = await ask('nobody@example.com');
    const user = await ask(staffEmail);
    expect(stranger.statusCode).toBe(202);
    expect(user.statusCode).toBe(202);
    expect(stranger.json<{ message: string }>().message.replace('nobody@example.com', '?')).toBe(
      user.json<{ message: string }>().message.replace(staffEmail, '?'),
    );
    expect(await mailCount('nobody@example.com')).toBe(0);
    expect(await mailCount(staffEmail)).toBe(1);
  });

  it('signs in with the code: a host-only, HttpOnly, SameSite=Strict session cookie, and the sites the user may open', async () => {
    const { code } = (await latestConsoleCode(platform.ctx.db, staffEmail))!;
    const wrong = await verify({ email: staffEmail, code: code === '000000' ? '111111' : '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ fields: { code: expect.stringContaining('does not work') } });
    const res = await verify({ email: staffEmail, code });
    expect(res.statusCode, res.body).toBe(200);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^dc_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=604800; HttpOnly; SameSite=Strict$/);
    expect(res.json()).toMatchObject({ user: { email: staffEmail, roles: [{ role: 'staff' }] }, sites: [{ slug: 'harbour-used-cars' }] });
    const { sites } = res.json<{ sites: { actions: string[] }[] }>();
    expect(sites).toHaveLength(1);
    expect(sites[0]!.actions).toContain('leads.update');
    expect(sites[0]!.actions).not.toContain('settings.write');
    expect(sites[0]!.actions).not.toContain('users.read');
    // The code works once.
    expect((await verify({ email: staffEmail, code })).statusCode).toBe(400);
  });

  it('signs in once with the e-mailed link; the mail is written to DATA_DIR/outbox/console-mail without an SMTP server', async () => {
    await ask(staffEmail);
    const { token } = (await latestConsoleCode(platform.ctx.db, staffEmail))!;
    const mailId = Number(
      (await platform.ctx.db.selectFrom('console_mail').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id,
    );
    await platform.ctx.console.mail.runOnce();
    const eml = await readFile(join(platform.ctx.config.dataDir, 'outbox', 'console-mail', `${mailId}.eml`), 'utf8');
    // Quoted-printable: soft line breaks and '=' written as =3D.
    expect(eml.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).toContain(`${consoleOrigin}/sign-in#token=${token}`);
    expect((await verify({ token })).statusCode).toBe(200);
    expect((await verify({ token })).statusCode).toBe(400);
  });

  it('lets a code be tried 5 times only, and limits the codes an address is sent in an hour', async () => {
    const email = 'site-admin@harbour-used-cars.localhost';
    expect((await ask(email)).statusCode).toBe(202);
    const { code } = (await latestConsoleCode(platform.ctx.db, email))!;
    const other = code === '000000' ? '111111' : '000000';
    for (let n = 0; n < 5; n++) expect((await verify({ email, code: other })).statusCode).toBe(400);
    expect((await verify({ email, code })).statusCode).toBe(400);
    expect((await ask(email)).statusCode).toBe(202);
    expect((await ask(email)).statusCode).toBe(202);
    const refused = await ask(email);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('lists the user’s sessions and ends another one; signing out clears the cookie', async () => {
    const email = 'group-admin@metro-motor-group.localhost';
    const laptop = await consoleSignIn(platform.app, platform.ctx.db, email);
    const phone = await consoleSignIn(platform.app, platform.ctx.db, email);
    const listed = await consoleRequest(platform.app, 'GET', '/api/console/me/sessions', { cookie: laptop });
    const sessions = listed.json<{ sessions: { id: string; current: boolean }[] }>().sessions;
    expect(sessions).toHaveLength(2);
    const other = sessions.find((session) => !session.current)!;
    expect((await consoleRequest(platform.app, 'DELETE', `/api/console/me/sessions/${other.id}`, { cookie: laptop })).statusCode).toBe(204);
    expect((await consoleRequest(platform.app, 'GET', '/api/console/me', { cookie: phone })).statusCode).toBe(401);
    const out = await consoleRequest(platform.app, 'POST', '/api/console/auth/sign-out', { cookie: laptop });
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toContain('dc_session=; Path=/; Max-Age=0');
    expect((await consoleRequest(platform.app, 'GET', '/api/console/me', { cookie: laptop })).statusCode).toBe(401);
  });

  it('refuses a change sent from a dealer site’s page (another origin)', async () => {
    const cookie = await consoleSignIn(platform.app, platform.ctx.db, staffEmail);
    const res = await consoleRequest(platform.app, 'POST', '/api/console/auth/sign-out', {
      cookie,
      headers: { origin: 'http://harbour-used-cars.localhost:3000' },
    });
    expect(res.statusCode).toBe(403);
    expect((await consoleRequest(platform.app, 'GET', '/api/console/me', { cookie })).statusCode).toBe(200);
  });
});
