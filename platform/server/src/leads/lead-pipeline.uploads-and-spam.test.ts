import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipPostgres } from '@dealer/testing/postgres';
import type { TestPlatform } from '../testing/test-platform';
import {
  closeLeadPlatforms,
  enquiry,
  freshIp,
  leadPipelineOn,
  multipart,
  png,
  type FilePart,
  type LeadBody,
} from '../testing/lead-pipeline';

// The lead pipeline, what a shopper may send besides the enquiry: photos and documents (checked by
// their content, stored outside the web root), and what is held as spam or turned away by the rate limit.

const svg = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(120)]);
const pe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)]);

afterAll(closeLeadPlatforms);

describe.each(['sqlite', 'postgres'] as const)('the lead pipeline on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let platform: TestPlatform;
  const { open, site, request, createLead, admin, adminLeads, leadOf, jobsOf } = leadPipelineOn(engine);
  beforeAll(async () => {
    platform = await open();
  });
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
});
