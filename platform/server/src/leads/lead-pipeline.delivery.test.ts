import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LeadDeliveryTargetSetting, SiteConfig } from '@dealer/contracts/site';
import { runPlatformCli } from '../platform-cli';
import { skipPostgres } from '@dealer/testing/postgres';
import type { TestPlatform } from '../testing/test-platform';
import { closeLeadPlatforms, enquiry, freshIp, leadPipelineOn, type LeadBody, type Listed } from '../testing/lead-pipeline';
import { OutboxWorker, type Deliver } from '@dealer/leads/outbox-worker';
import { verifyWebhookSignature } from '@dealer/leads/delivery-targets';

// The lead pipeline, how a lead reaches the dealer: the outbox delivering it (retries, dead letters,
// one worker per job, ADF files), and the dealer's list, CSV export and command line.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

afterAll(closeLeadPlatforms);

describe.each(['sqlite', 'postgres'] as const)('the lead pipeline on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let platform: TestPlatform;
  const { open, site, createLead, admin, adminLeads, leadOf, jobsOf } = leadPipelineOn(engine);
  beforeAll(async () => {
    platform = await open();
  });

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
