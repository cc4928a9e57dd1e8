import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLead } from '@dealer/db/lead-store';
import { findSiteIdBySlug } from '@dealer/db/site-store';
import { runPlatformCli, UsageError } from '../platform-cli';
import { skipPostgres } from '@dealer/testing/postgres';
import { createTestPlatform, testAdminKey, type TestPlatform } from '../testing/test-platform';

type DealerKeyBody = {
  dealer_key: { id: number; site_id: number; site: string; label: string; created_at: number; revoked_at: number | null };
  key: string;
};
type Listed = { id: number; site_id: number };

const mine = 'harbour-used-cars';
const theirs = 'metro-motor-group';
const platformAuth = { authorization: `Bearer ${testAdminKey}` };

describe.each(['sqlite', 'postgres'] as const)('dealer keys on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let platform: TestPlatform;
  let myLead: number;
  let theirLead: number;
  let dealerKey: DealerKeyBody;
  beforeAll(async () => {
    platform = await createTestPlatform({ engine });
    const lead = async (slug: string) =>
      (
        await createLead(platform.ctx.db, {
          siteId: (await findSiteIdBySlug(platform.ctx.db, slug))!,
          category: 'General Enquiry',
          leadStatus: 'New',
          payload: { name: slug, email: 'jane@example.com' },
          idempotencyKey: null,
        })
      ).lead.id;
    myLead = await lead(mine);
    theirLead = await lead(theirs);
    const created = await platform.app.inject({
      method: 'POST',
      url: '/api/admin/dealer-keys',
      headers: platformAuth,
      payload: { site: mine, label: 'Sales manager' },
    });
    expect(created.statusCode, created.body).toBe(201);
    dealerKey = created.json<DealerKeyBody>();
  });
  afterAll(async () => {
    await platform?.close();
  });

  const as = (key: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    platform.app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(payload ? { payload } : {}) });
  const leadIds = (body: string) => JSON.parse(body).leads.map((lead: Listed) => lead.id) as number[];

  it('makes a key for one site, shown once: only its hash is stored', async () => {
    expect(dealerKey.key).toMatch(/^dk_harbour-used-cars_[A-Za-z0-9_-]{43}$/);
    expect(dealerKey.dealer_key).toEqual({
      id: expect.any(Number),
      site_id: expect.any(Number),
      site: mine,
      label: 'Sales manager',
      created_at: expect.any(Number),
      revoked_at: null,
    });
    const listed = await as(testAdminKey, 'GET', `/api/admin/dealer-keys?site=${mine}`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({ dealer_keys: [dealerKey.dealer_key] });
    expect(listed.body).not.toContain(dealerKey.key.slice(-43));
    const stored = await platform.ctx.db.selectFrom('dealer_keys').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(dealerKey.key.slice(-43));
    expect(stored[0]!.key_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("reads its own site's leads, with or without ?site=", async () => {
    for (const url of ['/api/admin/leads', `/api/admin/leads?site=${mine}`]) {
      const res = await as(dealerKey.key, 'GET', url);
      expect(res.statusCode, url).toBe(200);
      expect(leadIds(res.body)).toContain(myLead);
      expect(leadIds(res.body)).not.toContain(theirLead);
    }
    const csv = await as(dealerKey.key, 'GET', '/api/admin/leads.csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="leads-harbour-used-cars-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(csv.body).toContain(`\r\n${myLead},`);
    expect((await as(dealerKey.key, 'GET', '/api/admin/bookings')).statusCode).toBe(200);
    expect((await as(dealerKey.key, 'GET', '/api/admin/events')).statusCode).toBe(200);
  });

  it("gets a 403 for another site's listings", async () => {
    for (const path of ['/api/admin/leads', '/api/admin/leads.csv', '/api/admin/bookings', '/api/admin/events']) {
      const res = await as(dealerKey.key, 'GET', `${path}?site=${theirs}`);
      expect(res.statusCode, path).toBe(403);
      expect(res.json(), path).toEqual({ message: `This dealer key opens ${mine} only, not ${theirs}.` });
    }
    expect((await as(dealerKey.key, 'GET', '/api/admin/leads?site=no-such-site')).statusCode).toBe(403);
  });

  it("opens its own leads by id and answers another site's as if they did not exist", async () => {
    expect((await as(dealerKey.key, 'GET', `/api/admin/leads/${myLead}/deliveries`)).statusCode).toBe(200);
    expect((await as(dealerKey.key, 'GET', `/api/admin/leads/${myLead}/files`)).json()).toEqual({ files: [] });
    expect((await as(dealerKey.key, 'POST', `/api/admin/leads/${myLead}/release`)).statusCode).toBe(409);
    expect((await as(dealerKey.key, 'POST', `/api/admin/leads/${myLead}/retry`)).statusCode).toBe(409);
    for (const [method, path] of [
      ['GET', 'deliveries'],
      ['GET', 'files'],
      ['GET', 'files/1'],
      ['POST', 'release'],
      ['POST', 'retry'],
    ] as const) {
      const res = await as(dealerKey.key, method, `/api/admin/leads/${theirLead}/${path}`);
      expect(res.statusCode, path).toBe(404);
      expect(res.json(), path).toEqual({ message: `No lead with id ${theirLead}.` });
    }
    expect((await as(testAdminKey, 'GET', `/api/admin/leads/${theirLead}/deliveries`)).statusCode).toBe(200);
  });

  it("is refused the platform's own routes", async () => {
    const refusals = [
      await as(dealerKey.key, 'PATCH', '/api/admin/cars/1', { price: 1 }),
      await as(dealerKey.key, 'GET', '/api/admin/dealer-keys'),
      await as(dealerKey.key, 'GET', `/api/admin/dealer-keys?site=${mine}`),
      await as(dealerKey.key, 'POST', '/api/admin/dealer-keys', { site: mine }),
      await as(dealerKey.key, 'DELETE', `/api/admin/dealer-keys/${dealerKey.dealer_key.id}`),
    ];
    for (const res of refusals) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        message: "This needs the platform admin key: a dealer key opens only its own site's leads, files, bookings and events.",
      });
    }
  });

  it('refuses a key that is not one, and a changed one', async () => {
    const changed = `${dealerKey.key.slice(0, -1)}${dealerKey.key.endsWith('A') ? 'B' : 'A'}`;
    const onOtherSite = dealerKey.key.replace(mine, theirs);
    for (const key of [changed, onOtherSite, 'dk_harbour-used-cars_short', testAdminKey.slice(1)]) {
      const res = await as(key, 'GET', '/api/admin/leads');
      expect(res.statusCode, key).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.json()).toEqual({
        message: 'A valid admin key is required (Authorization: Bearer <PLATFORM_ADMIN_KEY or a dealer key>).',
      });
    }
  });

  it('says what is wrong with a dealer key request', async () => {
    const missingSite = await as(testAdminKey, 'POST', '/api/admin/dealer-keys', { label: 'x' });
    expect(missingSite.statusCode).toBe(400);
    expect(missingSite.json()).toEqual({ message: 'Please check the highlighted fields.', fields: { site: 'site is required' } });
    const longLabel = await as(testAdminKey, 'POST', '/api/admin/dealer-keys', { site: mine, label: 'x'.repeat(101) });
    expect(longLabel.json()).toEqual({
      message: 'Please check the highlighted fields.',
      fields: { label: 'label must be at most 100 characters' },
    });
    expect((await as(testAdminKey, 'POST', '/api/admin/dealer-keys', { site: 'no-such-site' })).json()).toEqual({
      message: 'No site with slug no-such-site.',
    });
    expect((await as(testAdminKey, 'GET', '/api/admin/dealer-keys?site=no-such-site')).statusCode).toBe(404);
    const badId = await as(testAdminKey, 'DELETE', '/api/admin/dealer-keys/abc');
    expect(badId.statusCode).toBe(400);
    expect(badId.json()).toEqual({ message: 'Please check the dealer key id.', fields: { id: 'the dealer key id must be a number' } });
    const unknown = await as(testAdminKey, 'DELETE', '/api/admin/dealer-keys/999999');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'No dealer key with id 999999.' });
    expect((await platform.app.inject({ method: 'GET', url: '/api/admin/dealer-keys' })).statusCode).toBe(401);
  });

  it('opens nothing once revoked (401), while the platform key still reads every site', async () => {
    const second = (await as(testAdminKey, 'POST', '/api/admin/dealer-keys', { site: mine })).json<DealerKeyBody>();
    expect((await as(second.key, 'GET', '/api/admin/leads')).statusCode).toBe(200);
    const revoked = await as(testAdminKey, 'DELETE', `/api/admin/dealer-keys/${second.dealer_key.id}`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json<DealerKeyBody>().dealer_key).toEqual({ ...second.dealer_key, revoked_at: expect.any(Number) });
    const refused = await as(second.key, 'GET', '/api/admin/leads');
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ message: `This dealer key (${second.dealer_key.id}) was revoked. Ask the platform for a new one.` });
    // Revoking again keeps the first time; the other key of the site still works.
    expect(
      (await as(testAdminKey, 'DELETE', `/api/admin/dealer-keys/${second.dealer_key.id}`)).json<DealerKeyBody>().dealer_key.revoked_at,
    ).toBe(revoked.json<DealerKeyBody>().dealer_key.revoked_at);
    expect((await as(dealerKey.key, 'GET', '/api/admin/leads')).statusCode).toBe(200);

    expect(leadIds((await as(testAdminKey, 'GET', `/api/admin/leads?site=${mine}`)).body)).toContain(myLead);
    expect(leadIds((await as(testAdminKey, 'GET', `/api/admin/leads?site=${theirs}`)).body)).toContain(theirLead);
    const withoutSite = await as(testAdminKey, 'GET', '/api/admin/leads');
    expect(withoutSite.statusCode).toBe(400);
    expect(withoutSite.json()).toEqual({ message: 'site: site is required' });
  });

  it('makes, lists and revokes keys from the command line', async () => {
    if (engine !== 'sqlite') return;
    const saved = { ...process.env };
    const cli = async (...args: string[]) => {
      const lines: string[] = [];
      await runPlatformCli(args, (line) => lines.push(line));
      return lines;
    };
    try {
      Object.assign(process.env, { DATA_DIR: platform.ctx.config.dataDir, LOG_LEVEL: 'silent' });
      delete process.env.DATABASE_URL;
      const created = await cli('dealer-key', 'kiwi-motors', 'create', 'CRM', 'import');
      expect(created[0]).toMatch(/^Dealer key (\d+) for kiwi-motors \(CRM import\):$/);
      const key = created[1]!;
      expect(key).toMatch(/^dk_kiwi-motors_[A-Za-z0-9_-]{43}$/);
      const id = Number(/^Dealer key (\d+)/.exec(created[0]!)![1]);
      expect((await as(key, 'GET', '/api/admin/leads')).statusCode).toBe(200);

      const listed = await cli('dealer-key', 'kiwi-motors');
      expect(listed).toEqual([expect.stringMatching(new RegExp(`^${id}\\tCRM import\\tcreated \\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z\\tactive$`))]);
      expect(listed.join('\n')).not.toContain(key);

      await expect(cli('dealer-key', mine, 'revoke', String(id))).rejects.toThrow(
        new UsageError(`${mine} has no dealer key ${id}. Run "platform dealer-key ${mine} list".`),
      );
      expect((await cli('dealer-key', 'kiwi-motors', 'revoke', String(id)))[0]).toMatch(
        new RegExp(`^Dealer key ${id} of kiwi-motors revoked \\d{4}-`),
      );
      expect((await as(key, 'GET', '/api/admin/leads')).statusCode).toBe(401);
      expect((await cli('dealer-key', 'kiwi-motors', 'list'))[0]).toMatch(/\trevoked \d{4}-/);
      await expect(cli('dealer-key', 'kiwi-motors', 'revoke', 'x')).rejects.toBeInstanceOf(UsageError);
      await expect(cli('dealer-key', 'no-such-site', 'list')).rejects.toThrow('No site with slug "no-such-site"');
    } finally {
      process.env = saved;
    }
  });
});
