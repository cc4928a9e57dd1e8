import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleRequest, consoleSignIn } from '../../testing/console-requests';
import { createTestPlatform, siteRequest, testRemoteVersion, writeFakeRemotes, type TestPlatform } from '../../testing/test-platform';

const slug = 'harbour-used-cars';
type Settings = {
  remotes: {
    name: string;
    enabled: boolean;
    pinned: string | null;
    running: string | null;
    versions: { version: string; notes: string | null }[];
  }[];
  history: { id: number; remote: string; user_email: string; before: { enabled: boolean; version: string | null }; after: unknown }[];
};

describe('switching a site’s remotes from the dealer console', () => {
  let platform: TestPlatform;
  let operator: string;
  let admin: string;
  beforeAll(async () => {
    platform = await createTestPlatform();
    // A newer build of every remote, published after the first; its CHANGELOG goes with it.
    const dir = platform.ctx.config.remotesDir;
    await writeFakeRemotes(dir, '1.1.0-test');
    // Promoted from this process: its registry reads the new latest at once.
    platform.ctx.registry.forget();
    await writeFile(
      join(dir, 'mf-leads', '1.1.0-test', 'CHANGELOG.md'),
      '# mf-leads\n\n## 1.1.0\n- The inbox shows new leads live.\n\n## 1.0.0\n- First.\n',
    );
    operator = await consoleSignIn(platform.app, platform.ctx.db, 'operator@dealer-platform.localhost');
    admin = await consoleSignIn(platform.app, platform.ctx.db, `site-admin@${slug}.localhost`);
  }, 60_000);
  afterAll(async () => platform?.close());

  const settings = async (cookie = operator) => {
    const res = await consoleRequest(platform.app, 'GET', `/api/console/sites/${slug}/remote-settings`, { cookie });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Settings>();
  };
  const change = (remote: string, payload: object, cookie = operator) =>
    consoleRequest(platform.app, 'POST', `/api/console/sites/${slug}/remote-settings/${remote}`, { cookie, payload });
  const shopRemotes = async () =>
    (await siteRequest(platform.app, slug, 'GET', '/api/site')).json<{ remotes: { name: string; version: string }[] }>().remotes;

  it('lists every remote with the version shoppers get and the published versions with their notes', async () => {
    const leads = (await settings()).remotes.find((remote) => remote.name === 'mf-leads')!;
    expect(leads).toMatchObject({ enabled: true, pinned: null, running: '1.1.0-test' });
    expect(leads.versions.map((v) => v.version).sort()).toEqual(['1.0.0-test', '1.1.0-test'].sort());
    expect(leads.versions.find((v) => v.version === '1.1.0-test')!.notes).toBe('- The inbox shows new leads live.');
  });

  it('pins a version and switches a remote off; the shop follows at once; each change is in the history', async () => {
    expect((await change('mf-leads', { version: testRemoteVersion })).statusCode).toBe(200);
    expect((await shopRemotes()).find((remote) => remote.name === 'mf-leads')!.version).toBe(testRemoteVersion);
    expect((await change('mf-chat', { enabled: false })).statusCode).toBe(200);
    expect((await shopRemotes()).map((remote) => remote.name)).not.toContain('mf-chat');
    const { history } = await settings(admin);
    expect(history.map((entry) => entry.remote)).toEqual(['mf-chat', 'mf-leads']);
    expect(history[1]).toMatchObject({ user_email: 'operator@dealer-platform.localhost', before: { enabled: true, version: null } });
  });

  it('rolls a change back by applying what was there before it', async () => {
    const { history } = await settings(admin);
    const pin = history.find((entry) => entry.remote === 'mf-leads')!;
    expect((await change('mf-leads', { enabled: pin.before.enabled, version: pin.before.version }, admin)).statusCode).toBe(200);
    expect((await shopRemotes()).find((remote) => remote.name === 'mf-leads')!.version).toBe('1.1.0-test');
  });

  it('refuses a version that was never published, beside the field, and changes nothing', async () => {
    const res = await change('mf-leads', { version: '9.9.9' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ fields: { version: expect.stringContaining('has no published version 9.9.9') } });
    expect((await shopRemotes()).find((remote) => remote.name === 'mf-leads')!.version).toBe('1.1.0-test');
  });

  it('previews candidate versions in one browser only: a signed link sets a cookie on the site, others keep the live versions', async () => {
    const res = await consoleRequest(platform.app, 'POST', `/api/console/sites/${slug}/remote-settings/preview`, {
      cookie: operator,
      payload: { remotes: [{ name: 'mf-leads', enabled: true, version: testRemoteVersion }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const link = new URL(res.json<{ url: string }>().url);
    expect(link.host).toBe(`${slug}.localhost:3000`);
    const opened = await siteRequest(platform.app, slug, 'GET', `${link.pathname}${link.search}`);
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe('/');
    const cookie = String(opened.headers['set-cookie']).split(';')[0]!;
    expect(cookie).toMatch(/^dp_preview=/);
    const leadsVersion = async (headers: Record<string, string> = {}, site = slug) =>
      (await siteRequest(platform.app, site, 'GET', '/api/site', { headers }))
        .json<{ remotes: { name: string; version: string }[] }>()
        .remotes.find((remote) => remote.name === 'mf-leads')?.version;
    expect(await leadsVersion({ cookie })).toBe(testRemoteVersion);
    expect(await leadsVersion()).toBe('1.1.0-test');
    // A made-up token, or this site's token on another site, previews nothing.
    const forged = cookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect(await leadsVersion({ cookie: forged })).toBe('1.1.0-test');
    expect(await leadsVersion({ cookie }, 'ridgeline-trucks')).toBe('1.1.0-test');
    const off = await siteRequest(platform.app, slug, 'GET', '/?dp_preview=off', { headers: { cookie } });
    expect(String(off.headers['set-cookie'])).toContain('dp_preview=; Path=/; Max-Age=0');
  });
});
