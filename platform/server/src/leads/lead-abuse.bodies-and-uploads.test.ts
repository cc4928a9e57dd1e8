import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SiteConfig } from '@dealer/contracts/site';
import { jsonTooDeepMessage } from '@dealer/search-engine/json-depth';
import { maxLeadFieldBytes, maxLeadFields } from '../routes/leads';
import { skipPostgres } from '@dealer/testing/postgres';
import type { TestPlatform } from '../testing/test-platform';
import { leadToAdf } from '@dealer/leads/adf';
import { webhookBody } from '@dealer/leads/delivery-targets';
import { signedLeadFileUrl } from '@dealer/leads/lead-file-links';
import { tooDeepMessage } from '@dealer/leads/lead-schema';
import { checkFieldsMessage, LeadService } from '@dealer/leads/lead-service';
import { diskFileOps, receiveFile, uploadsRoot, type DurableFileOps } from '@dealer/leads/uploads';
import { enquiry, freshAddress, leadAbuseOn, type Created, type Refused } from '../testing/lead-abuse';

// The public lead endpoints under abuse, the bodies they are sent: leads nested too deep, multipart
// bodies too large or broken in every way, and the files a shopper uploads. Booking holds and rate
// limits are in lead-abuse.holds-and-limits.test.ts.

const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** `depth` objects inside one another, as JSON text (built as text: a value that deep cannot be stringified). */
const nestedJson = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

const boundary = 'lead-abuse-boundary';
const multipartType = `multipart/form-data; boundary=${boundary}`;
const fieldPart = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const filePart = (name: string, data: Buffer) =>
  Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`),
    data,
    Buffer.from('\r\n'),
  ]);
const closing = `--${boundary}--\r\n`;
const leadJson = JSON.stringify(enquiry());

describe.each(['sqlite', 'postgres'] as const)('the public lead endpoints under abuse on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let platform: TestPlatform;
  let site: SiteConfig;
  const { slug, delivered, open, call, create, payloadOf } = leadAbuseOn(engine);
  beforeAll(async () => {
    ({ platform, site } = await open());
  });
  afterAll(async () => {
    await platform?.close();
  });

  describe('deeply nested leads', () => {
    const tooDeep = { message: checkFieldsMessage, fields: { lead: tooDeepMessage } };
    /** A lead with `depth` objects inside one another under `extra`, built without recursion. */
    const deepLead = (depth: number) => {
      let extra: unknown = 1;
      for (let level = 0; level < depth; level += 1) extra = { a: extra };
      return enquiry({ extra });
    };
    const upload = (lead: string, headers: Record<string, string> = {}) =>
      call('POST', '/api/leads/with-files', {
        payload: fieldPart('lead', lead) + closing,
        headers: { 'content-type': multipartType, ...headers },
      });

    it('refuses a lead 10,000 levels deep with a 400 however it comes: JSON, multipart, under a used key, on update', async () => {
      const json = await call('POST', '/api/leads', {
        payload: `{"lead":{"category":"General Enquiry","extra":${nestedJson(10_000)}}}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(json.statusCode).toBe(400);
      expect(json.json()).toEqual({ message: jsonTooDeepMessage });

      const uploaded = await upload(`{"category":"General Enquiry","extra":${nestedJson(10_000)}}`);
      expect(uploaded.statusCode).toBe(400);
      expect(uploaded.json()).toEqual(tooDeep);
      // A retry is looked up first, and its body hashed: the depth is checked before that.
      const key = `deep-${randomBytes(6).toString('hex')}`;
      expect((await create(enquiry(), { key })).statusCode).toBe(201);
      const underKey = await upload(`{"category":"General Enquiry","extra":${nestedJson(10_000)}}`, { 'idempotency-key': key });
      expect(underKey.statusCode).toBe(400);
      expect(underKey.json()).toEqual(tooDeep);

      // The service holds without the HTTP layer's own check.
      const { service } = platform.ctx.leads;
      const request = { site, userAgent: 'test', ip: freshAddress(), mock: false };
      expect(await service.create({ ...request, lead: deepLead(10_000), idempotencyKey: key })).toEqual({ status: 400, body: tooDeep });
      const lead = (await create(enquiry())).json<Created>();
      expect(await service.update({ ...request, id: lead.id, token: lead.update_token, lead: deepLead(10_000) })).toEqual({
        status: 400,
        body: tooDeep,
      });
    });

    it('takes a lead 32 levels deep and refuses one 33 deep', async () => {
      // The lead object is the first level.
      const atLimit = await upload(JSON.stringify(deepLead(31)));
      expect(atLimit.statusCode, atLimit.body).toBe(201);
      const over = await upload(JSON.stringify(deepLead(32)));
      expect(over.statusCode).toBe(400);
      expect(over.json()).toEqual(tooDeep);
    });
  });

  describe('multipart bodies', () => {
    const upload = (payload: string | Buffer, contentType = multipartType) =>
      call('POST', '/api/leads/with-files', { payload, headers: { 'content-type': contentType } });
    const incoming = () => join(uploadsRoot(platform.ctx.config.dataDir), '.incoming');
    const fieldsTooLarge = `The enquiry's fields are too large: at most ${maxLeadFieldBytes / 1024} KB of text can be sent besides the files.`;

    it('refuses a 1 MB field with a 413', async () => {
      const res = await upload(fieldPart('lead', JSON.stringify(enquiry({ message: 'x'.repeat(1_048_576) }))) + closing);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ message: fieldsTooLarge });
    });

    it(`refuses 1,000 small fields with a 413 (at most ${maxLeadFields})`, async () => {
      const res = await upload(Array.from({ length: 1000 }, (_, index) => fieldPart(`lead[answer_${index}]`, 'x')).join('') + closing);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ message: `The enquiry has too many fields: at most ${maxLeadFields} can be sent besides the files.` });
    });

    it('refuses fields that are each small enough but together pass the total, keeping no file', async () => {
      const chunk = 'y'.repeat(60 * 1024);
      const res = await upload(
        Buffer.concat([
          filePart('photo.png', png),
          Buffer.from(Array.from({ length: 5 }, (_, index) => fieldPart(`lead[note_${index}]`, chunk)).join('') + closing),
        ]),
      );
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ message: fieldsTooLarge });
      expect(res.headers.connection).toBe('close');
      expect(readdirSync(incoming())).toEqual([]);
    });

    const cut = (text: string, length: number) => text.slice(0, length);
    const leadPart = fieldPart('lead', leadJson);
    it.each([
      [
        'no boundary parameter',
        'multipart/form-data',
        leadPart + closing,
        400,
        /^The enquiry could not be read \(Multipart: Boundary not found\)/,
      ],
      ['an empty boundary', 'multipart/form-data; boundary=', leadPart + closing, 400, /^The enquiry could not be read/],
      [
        'a boundary over 256 characters',
        `multipart/form-data; boundary=${'b'.repeat(300)}`,
        `--${'b'.repeat(300)}\r\n${leadPart.slice(boundary.length + 4)}--${'b'.repeat(300)}--\r\n`,
        400,
        /^The enquiry could not be read/,
      ],
      [
        'a body with another boundary',
        'multipart/form-data; boundary=another',
        leadPart + closing,
        400,
        /^The enquiry could not be read \(Unexpected end of multipart data\)/,
      ],
      [
        'a body cut short inside a part',
        multipartType,
        cut(leadPart, 80),
        400,
        /^The enquiry could not be read \(Unexpected end of multipart data\)/,
      ],
      ['no closing boundary', multipartType, leadPart, 400, /^The enquiry could not be read \(Unexpected end of multipart data\)/],
      [
        'part headers that never end',
        multipartType,
        `--${boundary}\r\nContent-Disposition: form-data; name="lead"\r\n${leadJson}`,
        400,
        /^The enquiry could not be read/,
      ],
      [
        'bare LF line ends',
        multipartType,
        leadPart.replaceAll('\r\n', '\n') + closing.replaceAll('\r\n', '\n'),
        400,
        /^The enquiry could not be read/,
      ],
      [
        'a file cut short',
        multipartType,
        Buffer.concat([Buffer.from(leadPart), filePart('photo.png', png).subarray(0, 120)]),
        400,
        /^The enquiry could not be read/,
      ],
      ['a JSON body', multipartType, leadJson, 400, /^The enquiry could not be read/],
      [
        'a header line without a colon',
        multipartType,
        `--${boundary}\r\nContent-Disposition form-data; name="lead"\r\n\r\n${leadJson}\r\n${closing}`,
        400,
        /^Please check the highlighted fields\.$/,
      ],
      [
        'a 100 KB Content-Disposition',
        multipartType,
        `--${boundary}\r\nContent-Disposition: form-data; name="${'n'.repeat(100_000)}"\r\n\r\n${leadJson}\r\n${closing}`,
        400,
        /^Please check the highlighted fields\.$/,
      ],
      [
        'a part without a name',
        multipartType,
        `--${boundary}\r\nContent-Disposition: form-data\r\n\r\n${leadJson}\r\n${closing}`,
        400,
        /^Every field of the enquiry needs a name/,
      ],
      [
        'a Content-Disposition that is not form-data',
        multipartType,
        `--${boundary}\r\nContent-Disposition: attachment; name="lead"\r\n\r\n${leadJson}\r\n${closing}`,
        400,
        /^Please check the highlighted fields\.$/,
      ],
      [
        'a field name that is not UTF-8',
        multipartType,
        Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="`),
          Buffer.from([0xff, 0xfe, 0xc3]),
          Buffer.from(`"\r\n\r\n${leadJson}\r\n${closing}`),
        ]),
        400,
        /^Please check the highlighted fields\.$/,
      ],
      ['the lead field twice', multipartType, leadPart + leadPart + closing, 400, /^Please check the highlighted fields\.$/],
      [
        'a lead field that is not JSON',
        multipartType,
        fieldPart('lead', '{"name": "Jane"') + closing,
        400,
        /^Please check the highlighted fields\.$/,
      ],
      [
        'a lead field that is a JSON list',
        multipartType,
        fieldPart('lead', '[1, 2]') + closing,
        400,
        /^Please check the highlighted fields\.$/,
      ],
      [
        'a field declared JSON that is not',
        multipartType,
        `--${boundary}\r\nContent-Disposition: form-data; name="lead"\r\nContent-Type: application/json\r\n\r\n{nope\r\n${closing}`,
        400,
        /^A field of the enquiry sent as JSON is not valid JSON\.$/,
      ],
      [
        'a field named __proto__',
        multipartType,
        fieldPart('__proto__', 'x') + leadPart + closing,
        400,
        /^A field of the enquiry has a name that is not allowed\.$/,
      ],
      ['an empty body', multipartType, '', 400, /^Please check the highlighted fields\.$/],
      ['another multipart type', `multipart/mixed; boundary=${boundary}`, leadPart + closing, 415, /\S/],
    ])('answers %s with a 4xx and its message, never a 500', async (_label, contentType, payload, status, message) => {
      const res = await upload(payload, contentType);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json<Refused>().message).toMatch(message);
      expect(readdirSync(incoming())).toEqual([]);
    });

    it('leaves no file behind from uploads broken off at any point of the file, however many', async () => {
      // A file broken off while it was being opened was once created after its removal, and kept.
      const cuts = [100, 110, 120, 130, 140, 160];
      for (let round = 0; round < 50; round++) {
        for (const cutAt of cuts) {
          const res = await upload(Buffer.concat([Buffer.from(leadPart), filePart('photo.png', png).subarray(0, cutAt)]));
          expect(res.statusCode, res.body).toBe(400);
          expect(readdirSync(incoming()), `round ${round}, cut at byte ${cutAt}`).toEqual([]);
        }
      }
    });

    it('refuses the lead field sent twice (which one would be meant?), saying which field', async () => {
      const twice = await upload(fieldPart('lead', leadJson) + fieldPart('lead', JSON.stringify(enquiry({ name: 'Other' }))) + closing);
      expect(twice.statusCode).toBe(400);
      expect(twice.json()).toEqual({
        message: checkFieldsMessage,
        fields: { lead: 'The "lead" field must be sent once, holding the enquiry as a JSON object.' },
      });
    });

    it('takes a file sent before the lead field', async () => {
      const res = await upload(Buffer.concat([filePart('photo.png', png), Buffer.from(leadPart + closing)]));
      expect(res.statusCode, res.body).toBe(201);
    });
  });

  describe('uploaded files', () => {
    it('strips bidi controls from a file name: stored, listed in the webhook and ADF, and in the download’s name', async () => {
      const res = await call('POST', '/api/leads/with-files', {
        payload: Buffer.concat([
          Buffer.from(fieldPart('lead', leadJson)),
          filePart('invoice\u202Egpj.exe\u2066\u200F', png),
          Buffer.from(closing),
        ]),
        headers: { 'content-type': multipartType },
      });
      expect(res.statusCode, res.body).toBe(201);
      const { id } = res.json<Created>();
      const stored = await platform.ctx.db
        .selectFrom('lead_files')
        .select(['id', 'original_name'])
        .where('lead_id', '=', id)
        .executeTakeFirstOrThrow();
      expect(stored.original_name).toBe('invoicegpj.exe');
      expect((await payloadOf(id)).files).toEqual([expect.objectContaining({ name: 'invoicegpj.exe' })]);

      await platform.ctx.leads.worker.runOnce();
      const lead = delivered.find((entry) => entry.id === id);
      expect(lead, 'the worker delivered the lead').toBeDefined();
      const webhook = webhookBody(lead!);
      const adf = leadToAdf(lead!);
      for (const listing of [webhook, adf]) {
        expect(listing).toContain('invoicegpj.exe');
        expect(listing).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]|\\u202e/i);
      }

      const link = new URL(
        signedLeadFileUrl({
          siteUrl: 'http://x.localhost',
          fileId: Number(stored.id),
          expires: Math.floor(Date.now() / 1000) + 60,
          secret: platform.ctx.config.leads.tokenSecret,
        }),
      );
      const download = await call('GET', `${link.pathname}${link.search}`);
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-disposition']).toBe(
        `attachment; filename="invoicegpj.exe.png"; filename*=UTF-8''invoicegpj.exe.png`,
      );
    });

    it('syncs the files, renames them into place and syncs their folders before the lead commits', async () => {
      const steps: string[] = [];
      const recording: DurableFileOps = {
        syncFile: async (path) => {
          steps.push(`sync file ${path}`);
          await diskFileOps.syncFile(path);
        },
        rename: async (from, to) => {
          steps.push(`rename ${from}`);
          await diskFileOps.rename(from, to);
        },
        syncDir: async (path) => {
          steps.push(`sync folder ${path}`);
          await diskFileOps.syncDir(path);
        },
      };
      const { db, config } = platform.ctx;
      const service = new LeadService({ db, engine, dataDir: config.dataDir, leads: config.leads, fileOps: recording });
      const uploads = uploadsRoot(config.dataDir);
      const files = [];
      for (const name of ['a.png', 'b.png'])
        files.push(
          await receiveFile(Readable.from([png]), { incomingDir: join(uploads, '.incoming'), maxBytes: 65_536, originalName: name }),
        );

      const transaction = db.transaction.bind(db);
      // The transaction's end, as the test sees it: after execute resolved, the commit has happened.
      const spy = vi.spyOn(db, 'transaction').mockImplementation(() => {
        const builder = transaction();
        const execute: typeof builder.execute = async (callback) => {
          steps.push('begin');
          const result = await builder.execute(callback);
          steps.push('commit');
          return result;
        };
        return Object.assign(Object.create(builder) as typeof builder, { execute });
      });
      try {
        const res = await service.create({
          site,
          lead: enquiry(),
          files,
          idempotencyKey: null,
          userAgent: 'test',
          ip: freshAddress(),
          mock: false,
        });
        expect(res.status).toBe(201);
        const leadId = (res.body as Created).id;
        const leadDir = join(uploads, slug, String(leadId));
        expect(steps).toEqual([
          `sync file ${files[0]!.tempPath}`,
          `sync file ${files[1]!.tempPath}`,
          'begin',
          `rename ${files[0]!.tempPath}`,
          `rename ${files[1]!.tempPath}`,
          `sync folder ${leadDir}`,
          `sync folder ${join(uploads, slug)}`,
          `sync folder ${uploads}`,
          'commit',
        ]);
        expect(readdirSync(leadDir)).toHaveLength(2);
        expect(existsSync(files[0]!.tempPath)).toBe(false);
      } finally {
        spy.mockRestore();
      }
    });
  });
});
