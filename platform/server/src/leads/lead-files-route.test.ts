import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadFileRoutes } from '../routes/lead-files';
import { sitePlugin, sitePluginOptions } from '../tenancy/site-plugin';
import { applyZodSchemas } from '../http/zod-schemas';
import { skipPostgres } from '@dealer/testing/postgres';
import { createTestPlatform, type TestPlatform } from '../testing/test-platform';
import type { DeliverableLead } from '@dealer/leads/deliverable-lead';
import { adfFileBase, deliverLead } from '@dealer/leads/delivery-targets';
import { signedLeadFileUrl } from '@dealer/leads/lead-file-links';
import { OutboxWorker } from '@dealer/leads/outbox-worker';
import { uploadsRoot } from '@dealer/leads/uploads';

const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const pdf = Buffer.from('%PDF-1.4\n% rego papers\ntrailer <<>>\n%%EOF\n');
const slug = 'ridgeline-trucks';

let ipCounter = 0;

function multipart(lead: Record<string, unknown>, files: { name: string; type: string; data: Buffer }[]) {
  const boundary = `----lead-files-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="lead"\r\n\r\n${JSON.stringify(lead)}\r\n`)];
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe.each(['sqlite', 'postgres'] as const)('signed lead file links on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let platform: TestPlatform;
  /** The route on its own app, so this test does not depend on where app.ts registers it. */
  let files: FastifyInstance;
  beforeAll(async () => {
    platform = await createTestPlatform({ engine });
    files = Fastify({ logger: false });
    applyZodSchemas(files);
    await files.register(sitePlugin, sitePluginOptions(platform.ctx));
    await files.register(async (scope) => leadFileRoutes(scope, platform.ctx));
    await files.ready();
  });
  afterAll(async () => {
    await files?.close();
    await platform?.close();
  });

  async function createLeadWithFiles(uploads: { name: string; type: string; data: Buffer }[]): Promise<number> {
    ipCounter += 1;
    const body = multipart(
      { category: 'Sell My Car Enquiry', name: 'Jane', last_name: 'Citizen', email: 'jane@example.com', phone: '0411222333' },
      uploads,
    );
    const res = await platform.app.inject({
      method: 'POST',
      url: '/api/leads/with-files',
      headers: {
        host: `${slug}.localhost:3000`,
        'content-type': body.contentType,
        'x-forwarded-for': `10.9.0.${ipCounter}`,
        'user-agent': 'LeadFilesTest/1.0',
      },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: number }>().id;
  }

  /** Runs one batch through a worker that signs links, delivering for real and keeping each lead as delivered. */
  async function deliverBatch(opts: { fileLinkSecret?: string } = {}): Promise<Map<number, DeliverableLead>> {
    const delivered = new Map<number, DeliverableLead>();
    const worker = new OutboxWorker({
      db: platform.ctx.db,
      dataDir: platform.ctx.config.dataDir,
      delivery: platform.ctx.config.leads.delivery,
      siteOf: (siteId) => platform.ctx.sites.forId(siteId),
      fileLinkSecret: opts.fileLinkSecret,
      deliver: async (target, lead) => {
        delivered.set(lead.id, lead);
        return deliverLead(target, lead);
      },
    });
    await worker.runOnce();
    return delivered;
  }

  /** Opens a link as a browser would: on the host it names (the lead's site). */
  const download = (url: string, host?: string) => {
    const { pathname, search, host: linkHost } = new URL(url);
    return files.inject({ method: 'GET', url: `${pathname}${search}`, headers: { host: host ?? linkHost } });
  };
  const secret = () => platform.ctx.config.leads.tokenSecret;

  it("delivers each lead's files (two leads in one batch) with links that download them without the admin key", async () => {
    const first = await createLeadWithFiles([
      { name: 'front.png', type: 'image/png', data: png },
      { name: 'rego papers', type: 'application/pdf', data: pdf },
    ]);
    const second = await createLeadWithFiles([{ name: 'back.png', type: 'image/png', data: png }]);
    const delivered = await deliverBatch({ fileLinkSecret: secret() });
    const site = delivered.get(first)!.site;

    expect(delivered.get(first)!.files.map(({ name, contentType, size }) => ({ name, contentType, size }))).toEqual([
      { name: 'front.png', contentType: 'image/png', size: png.length },
      { name: 'rego papers', contentType: 'application/pdf', size: pdf.length },
    ]);
    expect(delivered.get(second)!.files.map((file) => file.name)).toEqual(['back.png']);
    for (const file of [...delivered.get(first)!.files, ...delivered.get(second)!.files]) {
      expect(file.absolutePath.startsWith(uploadsRoot(platform.ctx.config.dataDir))).toBe(true);
      expect(file.url).toMatch(new RegExp(`^${new URL(site.url).origin}/api/lead-files/${file.id}\\?expires=\\d+&sig=[\\w-]{43}$`));
    }

    // The default target (adf-file) copied the files beside the ADF file.
    const base = adfFileBase(delivered.get(first)!);
    const filesDir = join(platform.ctx.config.dataDir, 'outbox', slug, `${base}-files`);
    expect(readdirSync(filesDir).sort()).toEqual(['front.png', 'rego papers.pdf']);
    expect(readFileSync(join(filesDir, 'front.png')).equals(png)).toBe(true);
    expect(readFileSync(join(platform.ctx.config.dataDir, 'outbox', slug, `${base}.adf.xml`), 'utf8')).toContain('/api/lead-files/');

    const [image, papers] = delivered.get(first)!.files;
    const res = await download(image!.url!);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(png)).toBe(true);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="front.png"; filename*=UTF-8''front.png`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('private, no-store');

    const doc = await download(papers!.url!);
    expect(doc.statusCode).toBe(200);
    expect(doc.rawPayload.equals(pdf)).toBe(true);
    expect(doc.headers['content-disposition']).toBe(`attachment; filename="rego papers.pdf"; filename*=UTF-8''rego%20papers.pdf`);
  });

  it('refuses a bad, borrowed or expired signature (403) and answers 404 for a file it does not have', async () => {
    const leadId = await createLeadWithFiles([
      { name: 'a.png', type: 'image/png', data: png },
      { name: 'b.png', type: 'image/png', data: png },
    ]);
    const [a, b] = (await deliverBatch({ fileLinkSecret: secret() })).get(leadId)!.files;
    const url = new URL(a!.url!);
    const sig = url.searchParams.get('sig')!;
    const expires = Number(url.searchParams.get('expires'));
    const withQuery = (path: string, query: Record<string, string>) =>
      files.inject({ method: 'GET', url: `${path}?${new URLSearchParams(query)}` });
    const now = Math.floor(Date.now() / 1000);

    const refused = [
      [
        'a tampered signature',
        await withQuery(url.pathname, { expires: String(expires), sig: `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}` }),
      ],
      ['a later expiry', await withQuery(url.pathname, { expires: String(expires + 60), sig })],
      ["another file's signature", await withQuery(new URL(b!.url!).pathname, { expires: String(expires), sig })],
      ['no signature', await withQuery(url.pathname, { expires: String(expires) })],
      ['no query', await files.inject({ method: 'GET', url: url.pathname })],
    ] as const;
    for (const [label, res] of refused) {
      expect(res.statusCode, label).toBe(403);
      expect(res.json<{ message: string }>().message, label).toBe(
        'This download link is not valid. Please use the whole link exactly as it was sent.',
      );
    }

    const expired = await download(signedLeadFileUrl({ siteUrl: 'http://x.localhost', fileId: a!.id, expires: now - 1, secret: secret() }));
    expect(expired.statusCode).toBe(403);
    expect(expired.json<{ message: string }>().message).toMatch(/^This download link has expired\./);

    const unknown = await download(
      signedLeadFileUrl({ siteUrl: 'http://x.localhost', fileId: 987_654_321, expires: now + 60, secret: secret() }),
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ message: string }>().message).toBe('This file does not exist (any more).');
    expect((await files.inject({ method: 'GET', url: '/api/lead-files/abc' })).statusCode).toBe(404);

    // A good link on another dealer's address serves nothing.
    expect((await download(b!.url!, 'metro-motor-group.localhost:3000')).statusCode).toBe(404);

    await rm(b!.absolutePath);
    expect((await download(b!.url!)).statusCode).toBe(404);
  });

  it('never serves a file whose recorded path leads outside the uploads folder', async () => {
    const leadId = await createLeadWithFiles([{ name: 'a.png', type: 'image/png', data: png }]);
    const row = await platform.ctx.db
      .insertInto('lead_files')
      .values({
        lead_id: leadId,
        site_id: 0,
        path: '../lead-token-secret',
        content_type: 'text/plain',
        size: 10,
        original_name: 'secret.txt',
        created_at: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const url = signedLeadFileUrl({
      siteUrl: 'http://x.localhost',
      fileId: Number(row.id),
      expires: Math.floor(Date.now() / 1000) + 60,
      secret: secret(),
    });
    expect((await download(url)).statusCode).toBe(404);
    // The worker leaves it out of the delivery too.
    expect((await deliverBatch({ fileLinkSecret: secret() })).get(leadId)!.files.map((file) => file.name)).toEqual(['a.png']);
  });

  it('without a secret to sign with, the worker delivers the files without links', async () => {
    const leadId = await createLeadWithFiles([{ name: 'a.png', type: 'image/png', data: png }]);
    const [file] = (await deliverBatch()).get(leadId)!.files;
    expect(file).toMatchObject({ name: 'a.png', url: null });
    expect(existsSync(file!.absolutePath)).toBe(true);
  });
});
