import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LeadDeliveryTargetSetting, SiteConfig } from '@dealer/contracts/site';
import { phoneMessages } from '@dealer/rules/phone';
import { listSiteSlugs, loadSiteConfig } from '@dealer/db/site-store';
import { runPlatformCli } from '../platform-cli';
import { skipPostgres } from '@dealer/testing/postgres';
import { createTestPlatform, testAdminKey, type TestPlatform } from '../testing/test-platform';
import { OutboxWorker, type Deliver } from '@dealer/leads/outbox-worker';
import { verifyWebhookSignature } from '@dealer/leads/delivery-targets';

type Engine = 'sqlite' | 'postgres';
type LeadBody = { id: number; lead_id: number; update_token: string };
type Listed = {
  id: number;
  site_id: number;
  category: string;
  lead_status: string;
  payload: Record<string, unknown>;
  suspected_spam: boolean;
  spam_reason: string | null;
  mock: boolean;
  has_files: boolean;
  form_completed: boolean;
  delivery: { state: string; targets: { kind: string; status: string; attempts: number }[] };
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const enquiry = (extra: Record<string, unknown> = {}) => ({
  category: 'General Enquiry',
  name: 'Jane',
  last_name: 'Citizen',
  email: 'jane@example.com',
  phone: '0411222333',
  message: 'Is it still available?',
  ...extra,
});

/** A fresh client address per call site, so the per-IP rate limit of one test never trips another. */
let ipCounter = 0;
const freshIp = () => {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};

const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const svg = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(120)]);
const pe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)]);

type FilePart = { field?: string; name: string; type: string; data: Buffer };
function multipart(fields: [string, string][], files: FilePart[]) {
  const boundary = `----lead-test-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of fields)
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'files'}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A local HTTP receiver on 127.0.0.1:0 answering with the statuses given in turn (the last repeating). */
async function startReceiver(statuses: number[]) {
  const received: { headers: IncomingMessage['headers']; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      const status = statuses[Math.min(received.length - 1, statuses.length - 1)]!;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'receiver says no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const platforms = new Map<Engine, Promise<TestPlatform>>();
const platformOn = (engine: Engine) => {
  if (!platforms.has(engine)) {
    platforms.set(
      engine,
      createTestPlatform({
        engine,
        env: {
          LEADS_MOCK_MODE: '1',
          LEAD_DELIVERY_BACKOFF_MS: '40,80',
          LEAD_DELIVERY_MAX_ATTEMPTS: '3',
          LEAD_DELIVERY_POLL_MS: '20',
          LEAD_UPLOAD_MAX_BYTES: '65536',
          LEAD_UPLOAD_MAX_FILES: '3',
        },
      }),
    );
  }
  return platforms.get(engine)!;
};
afterAll(async () => {
  for (const pending of platforms.values()) await (await pending.catch(() => null))?.close();
});

describe.each(['sqlite', 'postgres'] as const)('the lead pipeline on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let platform: TestPlatform;
  const sites = new Map<string, SiteConfig>();
  beforeAll(async () => {
    platform = await platformOn(engine);
    for (const row of await listSiteSlugs(platform.ctx.db)) sites.set(row.slug, (await loadSiteConfig(platform.ctx.db, row.id))!);
  });
  const site = (slug: string) => sites.get(slug)!;

  const request = (
    slug: string,
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    opts: { payload?: unknown; headers?: Record<string, string>; ip?: string; contentType?: string } = {},
  ) =>
    platform.app.inject({
      method,
      url,
      headers: {
        host: `${slug}.localhost:3000`,
        'x-forwarded-for': opts.ip ?? freshIp(),
        'user-agent': 'LeadTest/1.0 (server)',
        ...(opts.contentType ? { 'content-type': opts.contentType } : {}),
        ...opts.headers,
      },
      payload: opts.payload as string,
    });
  const createLead = (slug: string, lead: Record<string, unknown>, opts: { key?: string; ip?: string; prefix?: string } = {}) =>
    request(slug, 'POST', `${opts.prefix ?? '/api'}/leads`, {
      payload: { lead },
      ip: opts.ip,
      headers: opts.key ? { 'idempotency-key': opts.key } : {},
    });
  const updateLead = (slug: string, id: number, lead: Record<string, unknown>, token: string | null, prefix = '/api') =>
    request(slug, 'PUT', `${prefix}/leads/${id}`, { payload: { lead }, headers: token ? { 'x-lead-update-token': token } : {} });
  const admin = (url: string, method: 'GET' | 'POST' = 'GET') =>
    platform.app.inject({ method, url, headers: { authorization: `Bearer ${testAdminKey}` } });
  const adminLeads = async (slug: string, query = '') =>
    (await admin(`/api/admin/leads?site=${slug}${query}`)).json<{ leads: Listed[] }>().leads;
  const leadOf = async (slug: string, id: number, query = '') => (await adminLeads(slug, query)).find((lead) => lead.id === id);
  const jobsOf = (leadId: number) => platform.ctx.db.selectFrom('lead_delivery_jobs').selectAll().where('lead_id', '=', leadId).execute();
  const leadCount = async (siteId: number) =>
    Number(
      (
        await platform.ctx.db
          .selectFrom('leads')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('site_id', '=', siteId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** Points a site's lead delivery at the given targets (as a dealer's config change would). */
  async function setTargets(slug: string, targets: LeadDeliveryTargetSetting[]) {
    const row = await platform.ctx.db.selectFrom('sites').select(['id', 'config']).where('slug', '=', slug).executeTakeFirstOrThrow();
    const config = JSON.parse(row.config) as SiteConfig;
    config.secrets.lead_delivery = targets;
    await platform.ctx.db
      .updateTable('sites')
      .set({ config: JSON.stringify(config) })
      .where('id', '=', row.id)
      .execute();
    platform.ctx.sites.clear();
  }

  /** Runs the outbox until `done` holds (backoffs in this file are tens of ms). */
  async function deliverUntil(done: () => Promise<boolean>, timeoutMs = 8_000) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      await platform.ctx.leads.worker.runOnce();
      if (await done()) return;
      await sleep(15);
    }
    throw new Error('the outbox did not get there in time');
  }

  describe('create', () => {
    it('saves a lead with its delivery job in one go and answers with its id and update token', async () => {
      const res = await createLead(
        'ridgeline-trucks',
        enquiry({ user_agent: 'spoofed by the browser', url: 'https://ridgeline.example/cars/x', visited_pages: ['/a', '/b'] }),
      );
      expect(res.statusCode).toBe(201);
      const body = res.json<LeadBody>();
      expect(body).toEqual({ id: expect.any(Number), lead_id: body.id, update_token: expect.any(String) });
      expect(body.update_token.length).toBeGreaterThanOrEqual(40);
      expect(res.headers['cache-control']).toBe('no-store');

      const saved = await leadOf('ridgeline-trucks', body.id);
      expect(saved).toMatchObject({
        site_id: site('ridgeline-trucks').id,
        category: 'General Enquiry',
        lead_status: 'New',
        form_completed: true,
        suspected_spam: false,
      });
      expect(saved!.payload).toMatchObject({
        name: 'Jane',
        source: 'Website',
        website_slug: 'ridgeline-trucks',
        dealership_slug: 'ridgeline-trucks',
        user_agent: 'LeadTest/1.0 (server)',
        url: 'https://ridgeline.example/cars/x',
        visited_pages: ['/a', '/b'],
        has_files: false,
      });
      const jobs = await jobsOf(body.id);
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({ status: 'pending', attempts: 0, site_id: site('ridgeline-trucks').id });
      expect(JSON.parse(jobs[0]!.target)).toEqual({ kind: 'adf-file' });
      expect(saved!.delivery.state).toBe('pending');
    });

    it('answers a retried create with the first result, and keeps one lead', async () => {
      const key = `retry-${randomBytes(6).toString('hex')}`;
      const lead = enquiry({ name: 'Retry' });
      const first = await createLead('ridgeline-trucks', lead, { key });
      const again = await createLead('ridgeline-trucks', { ...lead }, { key });
      // Same body, keys in another order: still the same request.
      const reordered = await createLead('ridgeline-trucks', Object.fromEntries(Object.entries(lead).reverse()), { key });
      expect(first.statusCode).toBe(201);
      expect(again.statusCode).toBe(200);
      expect(reordered.statusCode).toBe(200);
      expect(again.json()).toEqual(first.json());
      expect(reordered.json()).toEqual(first.json());
      const rows = await platform.ctx.db.selectFrom('leads').select('id').where('idempotency_key', '=', key).execute();
      expect(rows).toHaveLength(1);
      expect(await jobsOf(first.json<LeadBody>().id)).toHaveLength(1);
    });

    it('keeps creates sent at the same moment with one key as one lead', async () => {
      const key = `race-${randomBytes(6).toString('hex')}`;
      const results = await Promise.all(
        Array.from({ length: 6 }, () => createLead('ridgeline-trucks', enquiry({ name: 'Racer' }), { key })),
      );
      expect(results.map((res) => res.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 201]);
      expect(new Set(results.map((res) => res.json<LeadBody>().id)).size).toBe(1);
      expect(new Set(results.map((res) => res.json<LeadBody>().update_token)).size).toBe(1);
      const rows = await platform.ctx.db.selectFrom('leads').select('id').where('idempotency_key', '=', key).execute();
      expect(rows).toHaveLength(1);
      expect(await jobsOf(Number(rows[0]!.id))).toHaveLength(1);
    });

    it('refuses an Idempotency-Key used again with another body (422), keeping the first lead alone', async () => {
      const key = `reuse-${randomBytes(6).toString('hex')}`;
      const first = await createLead('ridgeline-trucks', enquiry({ name: 'Original' }), { key });
      expect(first.statusCode).toBe(201);
      const other = await createLead('ridgeline-trucks', enquiry({ name: 'Different' }), { key });
      expect(other.statusCode).toBe(422);
      expect(other.json<{ message: string }>().message).toMatch(/Idempotency-Key was already used for a different enquiry/);
      const rows = await platform.ctx.db.selectFrom('leads').select(['id', 'payload']).where('idempotency_key', '=', key).execute();
      expect(rows).toHaveLength(1);
      expect(JSON.parse(rows[0]!.payload).name).toBe('Original');
    });

    it('lets two dealers use one key without sharing a lead', async () => {
      const key = `shared-${randomBytes(6).toString('hex')}`;
      const a = await createLead('ridgeline-trucks', enquiry(), { key });
      const b = await createLead('outback-campers', enquiry(), { key });
      expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
      expect(a.json<LeadBody>().id).not.toBe(b.json<LeadBody>().id);
    });

    it('refuses an Idempotency-Key that is too long or not plain text', async () => {
      expect((await createLead('ridgeline-trucks', enquiry(), { key: 'x'.repeat(201) })).statusCode).toBe(400);
      expect((await createLead('ridgeline-trucks', enquiry(), { key: 'two words' })).statusCode).toBe(400);
    });

    it('answers 404 for a host that serves no dealer', async () => {
      const res = await platform.app.inject({
        method: 'POST',
        url: '/api/leads',
        headers: { host: 'nobody.localhost:3000' },
        payload: { lead: enquiry() },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json<{ message: string }>().message).toEqual(expect.any(String));
    });
  });

  describe('validation, with the messages the form shows', () => {
    const fieldsOf = async (slug: string, lead: Record<string, unknown>) => {
      const res = await createLead(slug, lead);
      expect(res.statusCode, res.body).toBe(400);
      const body = res.json<{ message: string; fields: Record<string, string> }>();
      expect(body.message).toBe('Please check the highlighted fields.');
      return body.fields;
    };

    it('lists each bad field with its SPEC §5 message', async () => {
      expect(await fieldsOf('ridgeline-trucks', enquiry({ email: 'jane@', name: 'J4ne', last_name: 'O-Brien', postcode: '123' }))).toEqual({
        email: 'invalid email address',
        name: 'Please use alphabetical characters only.',
        last_name: 'Please use alphabetical characters only.',
        postcode: 'Invalid postcode. Please enter a 4-digit number.',
      });
      expect(await fieldsOf('ridgeline-trucks', { message: 'only a message' })).toEqual({
        category: '*This is a required field.',
        name: '*This is a required field.',
        phone: '*This is a required field.',
        email: '*This is a required field.',
      });
    });

    it("checks the phone by the site's region", async () => {
      expect((await fieldsOf('ridgeline-trucks', enquiry({ phone: '12345' }))).phone).toBe(phoneMessages.au);
      // harbour-used-cars takes mobiles only.
      expect((await fieldsOf('harbour-used-cars', enquiry({ phone: '02 9876 5432' }))).phone).toBe(phoneMessages.auMobile);
      expect((await fieldsOf('kiwi-motors', enquiry({ phone: '0411 222 333 444' }))).phone).toBe(phoneMessages.tooManyCharacters);
      expect((await fieldsOf('kiwi-motors', enquiry({ phone: '0511 2223' }))).phone).toBe(phoneMessages.nz);
      expect((await fieldsOf('lone-star-auto', enquiry({ phone: '12', postcode: '78701' }))).phone).toBe(phoneMessages.us);
      expect((await createLead('harbour-used-cars', enquiry({ phone: '+61 412 345 678' }))).statusCode).toBe(201);
      expect((await createLead('kiwi-motors', enquiry({ phone: '021 123 4567' }))).statusCode).toBe(201);
      expect((await createLead('lone-star-auto', enquiry({ phone: '(212) 555-0123', postcode: '78701' }))).statusCode).toBe(201);
      // The fixed test number is taken everywhere.
      expect((await createLead('lone-star-auto', enquiry({ phone: '0400 000 000' }))).statusCode).toBe(201);
    });

    it('names wrongly typed fields', async () => {
      const fields = await fieldsOf('ridgeline-trucks', enquiry({ car_id: 'abc', opt_in: 'yes please', visited_pages: 'not a list' }));
      expect(Object.keys(fields).sort()).toEqual(['car_id', 'opt_in', 'visited_pages']);
    });

    it('holds a partial save to the format rules only', async () => {
      const res = await createLead('ridgeline-trucks', {
        lead_status: 'Incomplete',
        form_completed: false,
        category: 'Finance Enquiry',
        'Vehicle Make': 'Isuzu',
      });
      expect(res.statusCode).toBe(201);
      expect((await fieldsOf('ridgeline-trucks', { lead_status: 'Incomplete', form_completed: false, email: 'nope' })).email).toBe(
        'invalid email address',
      );
    });
  });

  describe('payload assembly (SPEC §3)', () => {
    const payloadOf = async (slug: string, lead: Record<string, unknown>) => {
      const res = await createLead(slug, lead);
      expect(res.statusCode, res.body).toBe(201);
      return (await leadOf(slug, res.json<LeadBody>().id))!.payload;
    };

    it('fills the name from first_name when missing or "undefined undefined"', async () => {
      expect((await payloadOf('ridgeline-trucks', enquiry({ name: undefined, first_name: 'Ari' }))).name).toBe('Ari');
      expect((await payloadOf('ridgeline-trucks', enquiry({ name: 'undefined undefined', first_name: 'Bea' }))).name).toBe('Bea');
    });

    it("falls back to the site's dealership slug and keeps a chosen one", async () => {
      expect((await payloadOf('ridgeline-trucks', enquiry())).dealership_slug).toBe('ridgeline-trucks');
      expect((await payloadOf('ridgeline-trucks', enquiry({ dealership_slug: 'ridgeline-trucks-east' }))).dealership_slug).toBe(
        'ridgeline-trucks-east',
      );
    });

    it('forces the fixed slug on a forced-slug site and the primary location on a push-to-primary site', async () => {
      expect((await payloadOf('toyota-demo', enquiry({ dealership_slug: 'somewhere-else' }))).dealership_slug).toBe(
        'toyota-pre-owned-central',
      );
      const metro = site('metro-motor-group');
      const primary = metro.locations.find((location) => location.primary)!;
      const other = metro.locations.find((location) => !location.primary)!;
      const payload = await payloadOf('metro-motor-group', enquiry({ location_id: other.id, dealership_slug: 'another' }));
      expect(payload).toMatchObject({ location_id: primary.id, dealership_slug: primary.slug });
    });

    it('turns the four answers into Yes/No on the one site, and leaves them alone elsewhere', async () => {
      const answers = { 'Ready to sell': true, 'Valuation guide': false, 'Best Finance': true, 'Best Deal': false };
      expect(await payloadOf('harbour-used-cars', enquiry(answers))).toMatchObject({
        'Ready to sell': 'Yes',
        'Valuation guide': 'No',
        'Best Finance': 'Yes',
        'Best Deal': 'No',
      });
      expect(await payloadOf('ridgeline-trucks', enquiry(answers))).toMatchObject(answers);
    });

    it('keeps the consent wording with the opt-in on a Spam Act consent site', async () => {
      const wording = site('flexi-subscriptions').lead_settings!.consent_wording;
      expect(await payloadOf('flexi-subscriptions', enquiry({ opt_in: false }))).toMatchObject({ opt_in: false, consent_wording: wording });
    });

    it('keeps at most 50 visited pages (the most recent) and the linked query params', async () => {
      const pages = Array.from({ length: 60 }, (_, index) => `/page-${index}`);
      const payload = await payloadOf('ridgeline-trucks', enquiry({ visited_pages: pages, linked_query_params: { utm_source: 'news' } }));
      expect(payload.visited_pages).toEqual(pages.slice(10));
      expect(payload.linked_query_params).toEqual({ utm_source: 'news' });
    });
  });

  describe('update', () => {
    it('updates a lead with its token, and refuses without it or with a wrong one', async () => {
      const created = (await createLead('ridgeline-trucks', enquiry({ message: 'first' }))).json<LeadBody>();
      const withToken = await updateLead('ridgeline-trucks', created.id, { message: 'second', lead_id: created.id }, created.update_token);
      expect(withToken.statusCode, withToken.body).toBe(200);
      expect(withToken.json()).toEqual(created);
      const saved = await leadOf('ridgeline-trucks', created.id);
      expect(saved!.payload).toMatchObject({ message: 'second', name: 'Jane', email: 'jane@example.com' });

      const without = await updateLead('ridgeline-trucks', created.id, { message: 'third' }, null);
      expect(without.statusCode).toBe(403);
      expect(without.json<{ message: string }>().message).toMatch(/update token/);
      const wrong = await updateLead('ridgeline-trucks', created.id, { message: 'third' }, `${created.update_token.slice(0, -2)}xx`);
      expect(wrong.statusCode).toBe(403);
      // The token may also come in the body, as the SPEC's "same body" update sends it.
      const inBody = await request('ridgeline-trucks', 'PUT', `/api/leads/${created.id}`, {
        payload: { lead: { message: 'fourth' }, update_token: created.update_token },
      });
      expect(inBody.statusCode).toBe(200);
      expect((await leadOf('ridgeline-trucks', created.id))!.payload.message).toBe('fourth');
    });

    it("refuses another site's lead even with the right token, as not found", async () => {
      const created = (await createLead('ridgeline-trucks', enquiry())).json<LeadBody>();
      const res = await updateLead('outback-campers', created.id, { message: 'hijack' }, created.update_token);
      expect(res.statusCode).toBe(404);
      expect((await leadOf('ridgeline-trucks', created.id))!.payload.message).not.toBe('hijack');
      expect((await updateLead('ridgeline-trucks', 987654321, { message: 'x' }, created.update_token)).statusCode).toBe(404);
      expect((await updateLead('ridgeline-trucks', Number.NaN, { message: 'x' }, created.update_token)).statusCode).toBe(404);
    });

    it('saves partial steps without delivering, and enqueues delivery once when the lead is completed', async () => {
      const first = await createLead('ridgeline-trucks', {
        lead_status: 'Incomplete',
        form_completed: false,
        category: 'Finance Enquiry',
        step_number: 1,
        skipped_steps: [{ from: 0, to: 1 }],
      });
      expect(first.statusCode).toBe(201);
      const { id, update_token: token } = first.json<LeadBody>();
      expect(await jobsOf(id)).toHaveLength(0);
      expect((await leadOf('ridgeline-trucks', id))!.delivery.state).toBe('incomplete');

      const step2 = await updateLead(
        'ridgeline-trucks',
        id,
        { lead_status: 'Incomplete', form_completed: false, lead_id: id, 'Vehicle Make': 'Isuzu', step_number: 2 },
        token,
      );
      expect(step2.statusCode).toBe(200);
      expect(await jobsOf(id)).toHaveLength(0);

      const done = await updateLead('ridgeline-trucks', id, { ...enquiry({ category: 'Finance Enquiry' }), lead_id: id }, token);
      expect(done.statusCode, done.body).toBe(200);
      const lead = await leadOf('ridgeline-trucks', id);
      expect(lead).toMatchObject({ lead_status: 'New', form_completed: true });
      expect(lead!.payload).toMatchObject({ 'Vehicle Make': 'Isuzu', name: 'Jane' });
      expect(lead!.payload).not.toHaveProperty('skipped_steps');
      expect(await jobsOf(id)).toHaveLength(1);

      const again = await updateLead('ridgeline-trucks', id, { ...enquiry({ message: 'one more thing' }) }, token);
      expect(again.statusCode).toBe(200);
      expect(await jobsOf(id)).toHaveLength(1);
    });

    it('checks a completing update like a create', async () => {
      const { id, update_token: token } = (
        await createLead('ridgeline-trucks', { lead_status: 'Incomplete', form_completed: false, category: 'General Enquiry' })
      ).json<LeadBody>();
      const res = await updateLead('ridgeline-trucks', id, { name: 'Jane' }, token);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ fields: Record<string, string> }>().fields).toEqual({
        phone: '*This is a required field.',
        email: '*This is a required field.',
      });
      expect(await jobsOf(id)).toHaveLength(0);
    });
  });

  describe('with files', () => {
    const sendFiles = (
      slug: string,
      lead: Record<string, unknown>,
      files: FilePart[],
      opts: { key?: string; fields?: [string, string][] } = {},
    ) => {
      const body = multipart(opts.fields ?? [['lead', JSON.stringify(lead)]], files);
      return request(slug, 'POST', '/api/leads/with-files', {
        payload: body.payload,
        contentType: body.contentType,
        headers: opts.key ? { 'idempotency-key': opts.key } : {},
      });
    };
    const uploadsDir = () => join(platform.ctx.config.dataDir, 'uploads');

    it('takes a PNG, stores it under a random name outside the web root, and marks the lead has_files', async () => {
      const res = await sendFiles('ridgeline-trucks', enquiry({ category: 'Sell My Car Enquiry' }), [
        { name: '../../etc/passwd.png', type: 'image/png', data: png },
      ]);
      expect(res.statusCode, res.body).toBe(201);
      const { id } = res.json<LeadBody>();
      const lead = await leadOf('ridgeline-trucks', id);
      expect(lead!.has_files).toBe(true);
      expect(lead!.payload).toMatchObject({
        has_files: true,
        files: [{ name: 'passwd.png', content_type: 'image/png', size: png.length }],
      });
      const dir = join(uploadsDir(), 'ridgeline-trucks', String(id));
      const stored = readdirSync(dir);
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatch(/^[0-9a-f]{24}\.png$/);
      expect(readFileSync(join(dir, stored[0]!)).equals(png)).toBe(true);
      expect(readdirSync(join(uploadsDir(), '.incoming'))).toEqual([]);

      const listed = await admin(`/api/admin/leads/${id}/files`);
      expect(listed.json<{ files: { id: number; original_name: string }[] }>().files).toMatchObject([
        { original_name: 'passwd.png', content_type: 'image/png' },
      ]);
      const fileId = listed.json<{ files: { id: number }[] }>().files[0]!.id;
      const download = await admin(`/api/admin/leads/${id}/files/${fileId}`);
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-disposition']).toMatch(/^attachment;/);
      expect(download.rawPayload.equals(png)).toBe(true);
    });

    it('takes the lead as form-serialised fields too', async () => {
      const fields: [string, string][] = Object.entries(enquiry({ opt_in: 'true', car_id: '12' })).map(([key, value]) => [
        `lead[${key}]`,
        String(value),
      ]);
      fields.push(['lead[visited_pages][]', '/one'], ['lead[visited_pages][]', '/two'], ['lead[linked_query_params][gclid]', 'abc']);
      const res = await sendFiles('ridgeline-trucks', {}, [{ name: 'photo.png', type: 'image/png', data: png }], { fields });
      expect(res.statusCode, res.body).toBe(201);
      const lead = await leadOf('ridgeline-trucks', res.json<LeadBody>().id);
      expect(lead!.payload).toMatchObject({
        opt_in: true,
        car_id: 12,
        visited_pages: ['/one', '/two'],
        linked_query_params: { gclid: 'abc' },
        has_files: true,
      });
    });

    it.each([
      ['an SVG (named .png)', { name: 'photo.png', type: 'image/png', data: svg }, /is an SVG image, which is not accepted/],
      ['an ELF program', { name: 'photo.jpg', type: 'image/jpeg', data: elf }, /is a program \(ELF\), which is not accepted/],
      [
        'a Windows program',
        { name: 'setup.exe', type: 'application/octet-stream', data: pe },
        /is a Windows program, which is not accepted/,
      ],
      ['a text file', { name: 'notes.txt', type: 'text/plain', data: Buffer.from('hello there') }, /is not a file type we accept/],
    ])('refuses %s by its content, storing nothing', async (_label, file, message) => {
      const before = await leadCount(site('ridgeline-trucks').id);
      const res = await sendFiles('ridgeline-trucks', enquiry(), [{ name: 'ok.png', type: 'image/png', data: png }, file]);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(message);
      expect(res.json<{ message: string }>().message).toMatch(/JPEG, PNG, WebP or HEIC photos and PDF documents/);
      expect(await leadCount(site('ridgeline-trucks').id)).toBe(before);
      expect(readdirSync(join(uploadsDir(), '.incoming'))).toEqual([]);
    });

    it('refuses too many files (400) and a file over the size limit (413)', async () => {
      const four = Array.from({ length: 4 }, (_, index) => ({ name: `p${index}.png`, type: 'image/png', data: png }));
      const many = await sendFiles('ridgeline-trucks', enquiry(), four);
      expect(many.statusCode).toBe(400);
      expect(many.json<{ message: string }>().message).toBe('At most 3 files can be sent with one enquiry.');

      const big = Buffer.concat([png, Buffer.alloc(70_000)]);
      const large = await sendFiles('ridgeline-trucks', enquiry(), [{ name: 'big.png', type: 'image/png', data: big }]);
      expect(large.statusCode).toBe(413);
      expect(large.json<{ message: string }>().message).toBe('"big.png" is larger than 64 KB. Please send a smaller file.');
      expect(readdirSync(join(uploadsDir(), '.incoming'))).toEqual([]);
    });

    it('answers a retried upload with the first lead and keeps one copy of the files', async () => {
      const key = `files-${randomBytes(6).toString('hex')}`;
      const first = await sendFiles('ridgeline-trucks', enquiry(), [{ name: 'a.png', type: 'image/png', data: png }], { key });
      const again = await sendFiles('ridgeline-trucks', enquiry(), [{ name: 'a.png', type: 'image/png', data: png }], { key });
      expect([first.statusCode, again.statusCode]).toEqual([201, 200]);
      expect(again.json()).toEqual(first.json());
      expect(readdirSync(join(uploadsDir(), 'ridgeline-trucks', String(first.json<LeadBody>().id)))).toHaveLength(1);
      expect(readdirSync(join(uploadsDir(), '.incoming'))).toEqual([]);
    });
  });

  describe('spam', () => {
    it('holds a lead whose honeypot is filled: stored and answered as usual, not delivered, listed, releasable', async () => {
      const res = await createLead('ridgeline-trucks', enquiry({ website: 'http://spam.example' }));
      expect(res.statusCode).toBe(201);
      const { id } = res.json<LeadBody>();
      const held = await leadOf('ridgeline-trucks', id);
      expect(held).toMatchObject({ suspected_spam: true, spam_reason: expect.stringContaining('honeypot') });
      expect(held!.payload).not.toHaveProperty('website');
      expect(held!.delivery.state).toBe('held_as_spam');
      expect(await jobsOf(id)).toHaveLength(0);
      expect((await adminLeads('ridgeline-trucks', '&status=suspected_spam')).map((lead) => lead.id)).toContain(id);

      const released = await admin(`/api/admin/leads/${id}/release`, 'POST');
      expect(released.statusCode).toBe(200);
      expect(released.json()).toMatchObject({ lead: { id, suspected_spam: false }, enqueued: 1 });
      expect(await jobsOf(id)).toHaveLength(1);
      expect((await admin(`/api/admin/leads/${id}/release`, 'POST')).statusCode).toBe(409);
      expect((await platform.app.inject({ method: 'POST', url: `/api/admin/leads/${id}/release` })).statusCode).toBe(401);
    });

    it('holds a lead sent faster than a person can fill the form, and not one that took a while', async () => {
      const fast = (await createLead('ridgeline-trucks', enquiry({ form_started_at: Date.now() - 300 }))).json<LeadBody>();
      const human = (await createLead('ridgeline-trucks', enquiry({ form_started_at: Date.now() - 20_000 }))).json<LeadBody>();
      const skewed = (await createLead('ridgeline-trucks', enquiry({ form_started_at: Date.now() + 60_000 }))).json<LeadBody>();
      expect((await leadOf('ridgeline-trucks', fast.id))!.spam_reason).toMatch(/after the form was shown/);
      expect((await leadOf('ridgeline-trucks', human.id))!.suspected_spam).toBe(false);
      expect((await leadOf('ridgeline-trucks', skewed.id))!.suspected_spam).toBe(false);
      expect(await jobsOf(fast.id)).toHaveLength(0);
      expect(await jobsOf(human.id)).toHaveLength(1);
    });

    it('limits creates per IP and site with a 429 that says when to retry, and never refuses a retry', async () => {
      const ip = freshIp();
      const firstKey = `rl-${randomBytes(6).toString('hex')}`;
      const first = await createLead('coastal-motorcycles', enquiry(), { ip, key: firstKey });
      expect(first.statusCode).toBe(201);
      for (let index = 1; index < 20; index++) expect((await createLead('coastal-motorcycles', enquiry(), { ip })).statusCode).toBe(201);
      const limited = await createLead('coastal-motorcycles', enquiry(), { ip });
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(500);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(600);
      expect(limited.json<{ message: string }>().message).toMatch(/Please try again in 10 minutes/);
      // Another site, or another address, is counted on its own; a retry of a saved lead still answers.
      expect((await createLead('outback-campers', enquiry(), { ip })).statusCode).toBe(201);
      expect((await createLead('coastal-motorcycles', enquiry(), { ip: freshIp() })).statusCode).toBe(201);
      const retried = await createLead('coastal-motorcycles', enquiry(), { ip, key: firstKey });
      expect(retried.statusCode).toBe(200);
      expect(retried.json()).toEqual(first.json());
    });
  });

  describe('mock mode', () => {
    it('tells only a site in mock mode to send its lead calls to /mock (SPEC §7); real sites keep /api', async () => {
      const prefix = async (slug: string) => (await request(slug, 'GET', '/api/site')).json<{ api_prefix: string }>().api_prefix;
      expect(await prefix('ridgeline-trucks')).toBe('/api');
      const row = await platform.ctx.db
        .selectFrom('sites')
        .select(['id', 'config'])
        .where('slug', '=', 'ridgeline-trucks')
        .executeTakeFirstOrThrow();
      const config = JSON.parse(row.config) as SiteConfig;
      await platform.ctx.db
        .updateTable('sites')
        .set({ config: JSON.stringify({ ...config, lead_settings: { ...config.lead_settings, mock_mode: true } }) })
        .where('id', '=', row.id)
        .execute();
      try {
        expect(await prefix('ridgeline-trucks')).toBe('/mock');
        expect((await request('ridgeline-trucks', 'GET', '/contact')).body).toContain('"api_prefix":"/mock"');
        expect(await prefix('metro-motor-group')).toBe('/api');
      } finally {
        await platform.ctx.db.updateTable('sites').set({ config: row.config }).where('id', '=', row.id).execute();
      }
    });

    it('answers /mock like /api but stores the lead as mock and never delivers it', async () => {
      const res = await createLead('ridgeline-trucks', enquiry({ name: 'Mocky' }), { prefix: '/mock' });
      expect(res.statusCode).toBe(201);
      const body = res.json<LeadBody>();
      expect(body).toEqual({ id: expect.any(Number), lead_id: body.id, update_token: expect.any(String) });
      expect(await jobsOf(body.id)).toHaveLength(0);
      expect((await adminLeads('ridgeline-trucks')).map((lead) => lead.id)).not.toContain(body.id);
      expect(await leadOf('ridgeline-trucks', body.id, '&mock=only')).toMatchObject({ mock: true, delivery: { state: 'mock' } });

      const update = await updateLead('ridgeline-trucks', body.id, { message: 'mock update' }, body.update_token, '/mock');
      expect(update.statusCode).toBe(200);
      // A mock lead is not a real one: the real API does not find it.
      expect((await updateLead('ridgeline-trucks', body.id, { message: 'x' }, body.update_token)).statusCode).toBe(404);
      const body2 = multipart([['lead', JSON.stringify(enquiry())]], [{ name: 'a.png', type: 'image/png', data: png }]);
      const withFiles = await request('ridgeline-trucks', 'POST', '/mock/leads/with-files', {
        payload: body2.payload,
        contentType: body2.contentType,
      });
      expect(withFiles.statusCode).toBe(201);
      expect(await jobsOf(withFiles.json<LeadBody>().id)).toHaveLength(0);
    });
  });

  describe('the outbox', () => {
    let receiver: Awaited<ReturnType<typeof startReceiver>> | null = null;
    afterEach(async () => {
      await receiver?.close();
      receiver = null;
    });

    it('delivers to a signed webhook, retrying after a failure, with a log row per attempt', async () => {
      receiver = await startReceiver([500, 200]);
      await setTargets('outback-campers', [{ kind: 'webhook', url: receiver.url }]);
      const { id } = (await createLead('outback-campers', enquiry({ name: 'Hooked' }))).json<LeadBody>();
      await deliverUntil(async () => (await jobsOf(id))[0]?.status === 'delivered');

      expect(receiver.received).toHaveLength(2);
      const last = receiver.received[1]!;
      const secret = site('outback-campers').secrets.lead_webhook_secret!;
      expect(verifyWebhookSignature(last.body, String(last.headers['x-dealer-signature']), secret)).toBe(true);
      expect(JSON.parse(last.body)).toMatchObject({
        lead: { id, site: 'outback-campers', payload: { name: 'Hooked', source: 'Website' } },
      });

      const res = await admin(`/api/admin/leads/${id}/deliveries`);
      expect(res.statusCode).toBe(200);
      const deliveries = res.json<{
        delivery: { state: string };
        jobs: { status: string; attempts: number; target: string }[];
        log: { attempt: number; outcome: string; status: string; detail: string }[];
      }>();
      expect(deliveries.delivery.state).toBe('delivered');
      expect(deliveries.jobs).toMatchObject([{ status: 'delivered', attempts: 2, target: 'webhook' }]);
      expect(deliveries.log).toMatchObject([
        { attempt: 1, outcome: 'failed', status: 'retry', detail: expect.stringContaining('500') },
        { attempt: 2, outcome: 'delivered', status: 'delivered' },
      ]);
      expect(JSON.stringify(deliveries)).not.toContain(secret);
      expect((await leadOf('outback-campers', id))!.delivery.state).toBe('delivered');
    });

    it('makes a dead letter after the last attempt, shows it to the dealer and can retry it', async () => {
      receiver = await startReceiver([503]);
      await setTargets('outback-campers', [{ kind: 'webhook', url: receiver.url }]);
      const { id } = (await createLead('outback-campers', enquiry({ name: 'Doomed' }))).json<LeadBody>();
      await deliverUntil(async () => (await jobsOf(id))[0]?.status === 'dead');
      expect(receiver.received).toHaveLength(3);
      expect((await jobsOf(id))[0]).toMatchObject({ attempts: 3, last_error: expect.stringContaining('503') });
      const dead = await adminLeads('outback-campers', '&delivery=dead');
      expect(dead.map((lead) => lead.id)).toContain(id);
      expect((await admin(`/api/admin/leads/${id}/deliveries`)).json<{ log: unknown[] }>().log).toHaveLength(3);

      // A refusal no retry can change (a 4xx) is dead at once.
      receiver.received.length = 0;
      const gone = await startReceiver([404]);
      try {
        await setTargets('outback-campers', [{ kind: 'webhook', url: gone.url }]);
        const refused = (await createLead('outback-campers', enquiry({ name: 'Refused' }))).json<LeadBody>();
        await deliverUntil(async () => (await jobsOf(refused.id))[0]?.status === 'dead');
        expect((await jobsOf(refused.id))[0]!.attempts).toBe(1);
      } finally {
        await gone.close();
      }

      // The dealer fixed the receiver: the dead letter goes again.
      const fixed = await startReceiver([200]);
      try {
        const retried = await admin(`/api/admin/leads/${id}/retry`, 'POST');
        expect(retried.statusCode).toBe(200);
        // Retried jobs keep their target as it was enqueued; point the receiver's port at the fixed one.
        await platform.ctx.db
          .updateTable('lead_delivery_jobs')
          .set({ target: JSON.stringify({ kind: 'webhook', url: fixed.url }) })
          .where('lead_id', '=', id)
          .execute();
        await deliverUntil(async () => (await jobsOf(id))[0]?.status === 'delivered');
        expect(fixed.received).toHaveLength(1);
      } finally {
        await fixed.close();
        await setTargets('outback-campers', [{ kind: 'adf-file' }]);
      }
    });

    it('never lets two workers deliver the same job', async () => {
      await setTargets('citi-rentals', [{ kind: 'adf-file' }, { kind: 'adf-file' }]);
      const ids = await Promise.all(
        Array.from({ length: 15 }, async () => (await createLead('citi-rentals', enquiry())).json<LeadBody>().id),
      );
      const attempts = new Map<number, number>();
      const deliver: Deliver = async (_target, lead) => {
        await sleep(5);
        return { ok: true, status: 'delivered', detail: `lead ${lead.id}` };
      };
      const workers = Array.from(
        { length: 3 },
        () =>
          new OutboxWorker({
            db: platform.ctx.db,
            dataDir: platform.ctx.config.dataDir,
            delivery: platform.ctx.config.leads.delivery,
            siteOf: (siteId) => platform.ctx.sites.forId(siteId),
            batchSize: 4,
            deliver: async (target, lead) => {
              const result = await deliver(target, lead);
              return result;
            },
          }),
      );
      // Each worker counts what it attempted, by job, through the log it records.
      for (let round = 0; round < 10; round++) await Promise.all(workers.map((worker) => worker.runOnce()));
      const log = await platform.ctx.db.selectFrom('lead_delivery_log').select(['job_id', 'lead_id']).where('lead_id', 'in', ids).execute();
      for (const row of log) attempts.set(Number(row.job_id), (attempts.get(Number(row.job_id)) ?? 0) + 1);
      expect(attempts.size).toBe(30);
      expect([...attempts.values()].every((count) => count === 1)).toBe(true);
      for (const id of ids) expect((await jobsOf(id)).every((job) => job.status === 'delivered')).toBe(true);
      await setTargets('citi-rentals', [{ kind: 'adf-file' }]);
    });

    it('writes ADF files into DATA_DIR/outbox when the worker runs (the local default)', async () => {
      const worker = platform.ctx.leads.worker;
      worker.start();
      try {
        const { id } = (await createLead('coastal-motorcycles', enquiry({ name: 'Filed' }), { ip: freshIp() })).json<LeadBody>();
        const dir = join(platform.ctx.config.dataDir, 'outbox', 'coastal-motorcycles');
        const deadline = Date.now() + 5_000;
        let file: string | undefined;
        while (Date.now() < deadline && !file) {
          file = existsSync(dir) ? readdirSync(dir).find((name) => name.startsWith(`${id}-`) && name.endsWith('.adf.xml')) : undefined;
          if (!file) await sleep(20);
        }
        expect(file).toBeDefined();
        const xml = readFileSync(join(dir, file!), 'utf8');
        expect(xml).toContain('<adf>');
        expect(xml).toContain('Filed');
        await deliverUntil(async () => (await jobsOf(id))[0]?.status === 'delivered');
      } finally {
        await worker.stop();
      }
    });
  });

  describe('dealer access', () => {
    it('lists leads without anything that makes an update token', async () => {
      const created = (await createLead('ridgeline-trucks', enquiry())).json<LeadBody>();
      const res = await admin('/api/admin/leads?site=ridgeline-trucks');
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(created.update_token);
      expect(res.body).not.toContain('token_salt');
      expect(res.body).not.toContain('request_hash');
      expect(res.json<{ leads: Listed[] }>().leads.find((lead) => lead.id === created.id)!.delivery).toEqual({
        state: 'pending',
        targets: [
          { kind: 'adf-file', status: 'pending', attempts: 0, last_error: null, next_attempt_at: expect.any(Number), delivered_at: null },
        ],
      });
    });

    it("exports a site's leads as CSV, escaped, behind the admin key", async () => {
      const tricky = 'Line one, "quoted"\nline two';
      const { id } = (
        await createLead('kiwi-motors', enquiry({ phone: '021 123 4567', message: tricky, subcategory: '=HYPERLINK("http://evil")' }))
      ).json<LeadBody>();
      expect((await platform.app.inject({ url: '/api/admin/leads.csv?site=kiwi-motors' })).statusCode).toBe(401);
      const res = await admin('/api/admin/leads.csv?site=kiwi-motors');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="leads-kiwi-motors-\d{4}-\d{2}-\d{2}\.csv"$/);
      const lines = res.body.split('\r\n');
      expect(lines[0]!.startsWith('id,created_at,updated_at,category,lead_status,name,')).toBe(true);
      expect(res.body).toContain('"Line one, ""quoted""\nline two"');
      expect(res.body).toContain(`"'=HYPERLINK(""http://evil"")"`);
      expect(res.body).toContain(`\r\n${id},`);
    });

    it("prints a site's leads from the command line, as JSON lines or CSV", async () => {
      if (engine !== 'sqlite') return;
      const saved = { ...process.env };
      try {
        Object.assign(process.env, { DATA_DIR: platform.ctx.config.dataDir, LOG_LEVEL: 'silent' });
        delete process.env.DATABASE_URL;
        const { id } = (await createLead('kiwi-motors', enquiry({ phone: '021 123 4567', name: 'Cli' }))).json<LeadBody>();
        const json: string[] = [];
        await runPlatformCli(['leads', 'kiwi-motors'], (line) => json.push(line));
        const mine = json.map((line) => JSON.parse(line) as Listed).find((lead) => lead.id === id);
        expect(mine).toMatchObject({ payload: { name: 'Cli' }, delivery: { state: 'pending' } });
        const csv: string[] = [];
        await runPlatformCli(['leads', 'kiwi-motors', '--csv'], (line) => csv.push(line));
        expect(csv.join('\n')).toMatch(new RegExp(`\\r\\n${id},`));
      } finally {
        process.env = saved;
      }
    });
  });
});

describe('mock mode switched off', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform({ engine: 'sqlite' });
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('has no /mock lead routes', async () => {
    const res = await platform.app.inject({
      method: 'POST',
      url: '/mock/leads',
      headers: { host: 'ridgeline-trucks.localhost:3000' },
      payload: { lead: enquiry() },
    });
    expect(res.statusCode).toBe(404);
    const site = await platform.app.inject({ method: 'GET', url: '/api/site', headers: { host: 'ridgeline-trucks.localhost:3000' } });
    expect(site.json<{ api_prefix: string }>().api_prefix).toBe('/api');
  });
});
