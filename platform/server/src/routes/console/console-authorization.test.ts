/**
 * The authorization matrix of the dealer console: every console route the server registered ×
 * every role × the role's own site and another site, allowed or refused exactly as the policy
 * table says. The routes come from the server itself, so a new route without a policy entry fails
 * here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLead } from '@dealer/db/lead-store';
import { findSiteIdBySlug } from '@dealer/db/site-store';
import { consoleActions, consolePolicy, type ConsoleAction } from '../../console/console-policy';
import { consoleRequest, consoleSignIn } from '../../testing/console-requests';
import { createTestPlatform, type TestPlatform } from '../../testing/test-platform';

const ownSite = 'metro-motor-group';
const otherSite = 'harbour-used-cars';
const users = {
  operator: 'operator@dealer-platform.localhost',
  group_admin: 'group-admin@metro-motor-group.localhost',
  site_admin: `site-admin@${ownSite}.localhost`,
  staff: `staff@${ownSite}.localhost`,
} as const;
type Role = keyof typeof users;

describe('the dealer console’s authorization matrix', () => {
  let platform: TestPlatform;
  const cookies = {} as Record<Role, string>;
  const leadOf = {} as Record<string, number>;

  beforeAll(async () => {
    platform = await createTestPlatform();
    for (const slug of [ownSite, otherSite]) {
      const siteId = (await findSiteIdBySlug(platform.ctx.db, slug))!;
      const created = await createLead(platform.ctx.db, {
        siteId,
        category: 'General Enquiry',
        leadStatus: 'New',
        payload: { name: 'Jane Shopper', email: 'jane@example.com' },
        idempotencyKey: null,
      });
      leadOf[slug] = created.lead.id;
    }
    for (const role of Object.keys(users) as Role[]) cookies[role] = await consoleSignIn(platform.app, platform.ctx.db, users[role]);
  }, 60_000);
  afterAll(async () => platform?.close());

  const routes = () => platform.ctx.console.routes;
  const urlFor = (url: string, slug: string) =>
    url
      .replace(':site', slug)
      .replace(':remote', 'mf-chat')
      // Nobody's user id (the matrix must not remove the roles it tests), no session, the site's lead.
      .replace(':id', url.includes('/sessions/') ? 'a'.repeat(64) : url.includes('/users/') ? '999999' : String(leadOf[slug]));
  const call = (route: { method: string; url: string }, slug: string, cookie: string | null) =>
    consoleRequest(platform.app, route.method as 'GET', urlFor(route.url, slug), {
      cookie,
      ...(route.method === 'GET' ? {} : { payload: {} }),
    });

  it('knows every console route, and each says who may call it: public, signed in, or an action of the policy table', () => {
    expect(routes().length).toBeGreaterThanOrEqual(10);
    for (const route of routes()) {
      expect(route.url.startsWith('/api/console/'), route.url).toBe(true);
      const known = route.access === 'public' || route.access === 'signed-in' || consoleActions.includes(route.access as ConsoleAction);
      expect(known, `${route.method} ${route.url} has no policy entry`).toBe(true);
    }
  });

  it('refuses every route but sign-in to someone not signed in (401)', async () => {
    for (const route of routes().filter((r) => r.access !== 'public')) {
      const res = await call(route, ownSite, null);
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  for (const role of Object.keys(users) as Role[]) {
    it(`allows and refuses the ${role.replace('_', ' ')} exactly as the policy table says, on their own site and another`, async () => {
      const siteRoutes = routes().filter((r) => consoleActions.includes(r.access as ConsoleAction));
      let checked = 0;
      for (const route of siteRoutes) {
        const grant = consolePolicy[role][route.access as ConsoleAction];
        for (const [slug, own] of [
          [ownSite, true],
          [otherSite, false],
        ] as const) {
          const allowed = grant === 'any' || (grant === 'own' && own);
          const res = await call(route, slug, cookies[role]);
          const what = `${role} on ${own ? 'own' : 'other'} site: ${route.method} ${route.url} → ${res.statusCode} ${res.body.slice(0, 120)}`;
          if (allowed) {
            expect([401, 403], what).not.toContain(res.statusCode);
            expect(res.statusCode, what).toBeLessThan(500);
          } else expect(res.statusCode, what).toBe(403);
          checked++;
        }
      }
      expect(checked).toBe(siteRoutes.length * 2);
    });
  }

  it('answers console routes on the console’s own address only', async () => {
    const res = await platform.app.inject({
      method: 'GET',
      url: '/api/console/me',
      headers: { host: `${ownSite}.localhost:3000`, cookie: cookies.operator },
    });
    expect(res.statusCode).toBe(404);
  });
  it('opens the signed-in routes to every role (signing out last)', async () => {
    const signedIn = routes().filter((r) => r.access === 'signed-in');
    expect(signedIn.map((r) => r.url)).toContain('/api/console/auth/sign-out');
    for (const route of [...signedIn.filter((r) => !r.url.endsWith('/sign-out')), ...signedIn.filter((r) => r.url.endsWith('/sign-out'))]) {
      for (const role of Object.keys(users) as Role[]) {
        const res = await call(route, ownSite, cookies[role]);
        expect([401, 403], `${role}: ${route.method} ${route.url} → ${res.statusCode}`).not.toContain(res.statusCode);
      }
    }
  });
});
