import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleRequest, consoleSignIn } from '../../testing/console-requests';
import { createTestPlatform, type TestPlatform } from '../../testing/test-platform';

const slug = 'ridgeline-trucks';
type Users = { users: { id: number; email: string; role: string }[] };

describe('a site admin’s users in the dealer console', () => {
  let platform: TestPlatform;
  let admin: string;
  beforeAll(async () => {
    platform = await createTestPlatform();
    admin = await consoleSignIn(platform.app, platform.ctx.db, `site-admin@${slug}.localhost`);
  }, 60_000);
  afterAll(async () => platform?.close());

  const users = async () =>
    (await consoleRequest(platform.app, 'GET', `/api/console/sites/${slug}/users`, { cookie: admin })).json<Users>().users;
  const post = (url: string, payload: object) =>
    consoleRequest(platform.app, 'POST', `/api/console/sites/${slug}${url}`, { cookie: admin, payload });

  it('invites a new person as staff by e-mail: they are told, sign in with a code and see the site', async () => {
    const res = await post('/users', { email: ' Nina.Sales@Example.com ', role: 'staff' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await users()).toContainEqual(expect.objectContaining({ email: 'nina.sales@example.com', role: 'staff' }));
    const mail = await platform.ctx.db
      .selectFrom('console_mail')
      .select(['subject', 'body'])
      .where('email', '=', 'nina.sales@example.com')
      .execute();
    expect(mail[0]!.subject).toBe('You have been added to Ridgeline Trucks in the dealer console');
    const nina = await consoleSignIn(platform.app, platform.ctx.db, 'nina.sales@example.com');
    const me = (await consoleRequest(platform.app, 'GET', '/api/console/me', { cookie: nina })).json<{ sites: { slug: string }[] }>();
    expect(me.sites.map((site) => site.slug)).toEqual([slug]);
  });

  it('changes a role and removes a person, each in the audit log; the removed person sees the site no more', async () => {
    const nina = (await users()).find((user) => user.email === 'nina.sales@example.com')!;
    expect((await post(`/users/${nina.id}/role`, { role: 'site_admin' })).statusCode).toBe(200);
    expect((await users()).find((user) => user.id === nina.id)!.role).toBe('site_admin');
    const removed = await consoleRequest(platform.app, 'DELETE', `/api/console/sites/${slug}/users/${nina.id}`, { cookie: admin });
    expect(removed.statusCode).toBe(200);
    expect((await users()).map((user) => user.email)).not.toContain('nina.sales@example.com');
    const cookie = await consoleSignIn(platform.app, platform.ctx.db, 'nina.sales@example.com');
    expect((await consoleRequest(platform.app, 'GET', `/api/console/sites/${slug}/leads`, { cookie })).statusCode).toBe(403);
    const audit = (await consoleRequest(platform.app, 'GET', `/api/console/sites/${slug}/audit`, { cookie: admin })).json<{
      entries: { action: string; before: unknown; after: unknown }[];
    }>().entries;
    expect(audit.filter((entry) => entry.action === 'users.write').map((entry) => [entry.before, entry.after])).toEqual([
      [{ role: 'site_admin' }, { role: null }],
      [{ role: 'staff' }, { role: 'site_admin' }],
      [{ role: null }, { role: 'staff' }],
    ]);
  });

  it('refuses a bad address beside its field, and the admin’s own removal', async () => {
    const bad = await post('/users', { email: 'not an address', role: 'staff' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ fields: { email: 'Please enter a valid e-mail address.' } });
    const me = (await users()).find((user) => user.email === `site-admin@${slug}.localhost`)!;
    expect((await consoleRequest(platform.app, 'DELETE', `/api/console/sites/${slug}/users/${me.id}`, { cookie: admin })).statusCode).toBe(
      409,
    );
  });
});
