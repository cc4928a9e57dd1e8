import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { leadToAdf } from '@dealer/leads/adf';
import { validateAdfStructure } from '@dealer/testing/adf-validate';
import { startSmtpSink, type SmtpSink } from '@dealer/testing/smtp-sink';
import { signedLeadFileUrl, verifyLeadFileLink } from '@dealer/leads/lead-file-links';
import type { DeliverableFile, DeliverableLead } from '@dealer/leads/deliverable-lead';
import { adfFileBase, defaultDeliveryTarget, deliverLead, type DeliveryTarget } from '@dealer/leads/delivery-targets';
import { closedPort, lead, reply, secret, shortTimeout, site, startReceiver, type Receiver } from '../testing/lead-delivery';

// The delivery targets that write a lead's ADF document to a folder or send it by e-mail, and a lead
// with files on every target. The webhook and ADF-over-HTTP targets are in delivery-targets.http.test.ts.

let receiver: Receiver | null = null;
afterEach(async () => {
  await receiver?.close();
  receiver = null;
});

// ------------------------------------------------------------------------------------ adf-file

describe('adf-file target', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'lead-outbox-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes <dir>/<site slug>/<lead id>-<timestamp>.adf.xml and the payload .json beside it', async () => {
    const result = await deliverLead({ kind: 'adf-file', dir }, lead);
    const xmlPath = path.join(dir, site.slug, '42-2025-05-06T23-15-42-123Z.adf.xml');
    expect(result).toEqual({ ok: true, status: 'delivered', detail: xmlPath });
    expect(adfFileBase(lead)).toBe('42-2025-05-06T23-15-42-123Z');
    const xml = await readFile(xmlPath, 'utf8');
    expect(xml).toBe(leadToAdf(lead));
    expect(validateAdfStructure(xml)).toEqual([]);
    const json = JSON.parse(await readFile(xmlPath.replace(/\.adf\.xml$/, '.json'), 'utf8'));
    expect(json).toEqual({ id: 42, site: site.slug, created_at: '2025-05-06T23:15:42.123Z', payload: lead.payload, files: [] });
    expect((await readdir(path.join(dir, site.slug))).sort()).toEqual([
      '42-2025-05-06T23-15-42-123Z.adf.xml',
      '42-2025-05-06T23-15-42-123Z.json',
    ]);
  });

  it('a repeated delivery replaces its own files (no duplicates, no temp files left)', async () => {
    await deliverLead({ kind: 'adf-file', dir }, lead);
    const again = await deliverLead({ kind: 'adf-file', dir }, { ...lead, payload: { ...lead.payload, message: 'second' } });
    expect(again.ok).toBe(true);
    const files = await readdir(path.join(dir, site.slug));
    expect(files).toHaveLength(2);
    expect(await readFile(again.detail, 'utf8')).toContain('second');
  });

  it('a folder that cannot be written is a retry', async () => {
    const blocked = path.join(dir, 'not-a-folder');
    await writeFile(blocked, 'x');
    const result = await deliverLead({ kind: 'adf-file', dir: blocked }, lead);
    expect(result.ok).toBe(false);
    expect(result.status).toBe('retry');
    expect(result.detail).toMatch(/cannot write .*(ENOTDIR|EEXIST)/);
  });

  it('a site slug that is not a safe folder name is rejected', async () => {
    const result = await deliverLead({ kind: 'adf-file', dir }, { ...lead, site: { ...site, slug: '../escape' } });
    expect(result).toMatchObject({ ok: false, status: 'rejected' });
    expect(await readdir(dir)).toEqual([]);
  });

  it('the local default target is DATA_DIR/outbox', () => {
    expect(defaultDeliveryTarget('/var/lib/dealer')).toEqual({ kind: 'adf-file', dir: path.join('/var/lib/dealer', 'outbox') });
  });
});

// ----------------------------------------------------------------------------------- adf-email

/** Headers (unfolded, lower-case names) and body of one MIME entity. */
function splitMessage(message: string): { headers: Record<string, string>; body: string } {
  const [head = '', ...rest] = message.split('\r\n\r\n');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body: rest.join('\r\n\r\n') };
}

/** Splits a MIME message into its parts and decodes each body (enough for nodemailer's output); `raw` is the body as sent. */
function mimeParts(raw: string): { headers: Record<string, string>; body: string; raw: string }[] {
  const decode = (headers: Record<string, string>, body: string) => {
    const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
    if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    if (encoding === 'quoted-printable') {
      const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => `%${hex}`);
      return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
    }
    return body;
  };
  const top = splitMessage(raw);
  const boundary = /boundary="?([^";]+)"?/.exec(top.headers['content-type'] ?? '')?.[1];
  if (!boundary) return [{ headers: top.headers, body: decode(top.headers, top.body), raw: top.body }];
  return top.body
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => splitMessage(part.replace(/^\r\n/, '').replace(/\r\n$/, '')))
    .map(({ headers, body }) => ({ headers, body: decode(headers, body), raw: body }));
}

describe('adf-email target', () => {
  let sink: SmtpSink | null = null;
  afterEach(async () => {
    await sink?.close();
    sink = null;
  });
  const emailTarget = (smtpUrl: string): DeliveryTarget => ({
    kind: 'adf-email',
    to: 'leads@crm.example',
    from: 'Website Leads <leads@platform.example>',
    smtpUrl,
  });

  it('sends the ADF as the text body and as lead-<id>.adf.xml, ok with the message id', async () => {
    sink = await startSmtpSink();
    const result = await deliverLead(emailTarget(sink.url), lead);
    expect(result.ok).toBe(true);
    expect(result.status).toBe('delivered');
    expect(result.detail).toMatch(/^<.+@.+>$/);
    expect(sink.messages).toHaveLength(1);
    const message = sink.messages[0]!;
    expect(message.from).toBe('leads@platform.example');
    expect(message.to).toEqual(['leads@crm.example']);
    const top = splitMessage(message.data);
    expect(top.headers.subject).toBe(`Lead 42 from ${site.name} - Used Vehicle Enquiry`);
    expect(top.headers['message-id']).toBe(result.detail);
    expect(top.headers['x-dealer-lead-id']).toBe('42');
    const parts = mimeParts(message.data);
    const text = parts.find((part) => part.headers['content-type']?.startsWith('text/plain'));
    const attachment = parts.find((part) => part.headers['content-disposition']?.includes('lead-42.adf.xml'));
    // SMTP carries text with CRLF line ends; the document is otherwise unchanged.
    expect(text?.body.replace(/\r\n/g, '\n')).toBe(leadToAdf(lead));
    expect(attachment?.headers['content-type']).toMatch(/^application\/xml/);
    expect(attachment?.body).toBe(leadToAdf(lead));
    expect(validateAdfStructure(text!.body)).toEqual([]);
  });

  it('a permanent SMTP refusal (5xx) is rejected', async () => {
    sink = await startSmtpSink({ rcptReply: '550 5.1.1 No such user' });
    const result = await deliverLead(emailTarget(sink.url), lead, shortTimeout);
    expect(result).toMatchObject({ ok: false, status: 'rejected' });
    expect(result.detail).toMatch(/^550 /);
  });

  it('a temporary SMTP refusal (4xx) is a retry', async () => {
    sink = await startSmtpSink({ rcptReply: '451 4.3.0 Try again later' });
    const result = await deliverLead(emailTarget(sink.url), lead, shortTimeout);
    expect(result).toMatchObject({ ok: false, status: 'retry' });
    expect(result.detail).toMatch(/^451 /);
  });

  it('a server that never greets is a retry after the timeout', async () => {
    sink = await startSmtpSink({ silent: true });
    const started = Date.now();
    const result = await deliverLead(emailTarget(sink.url), lead, shortTimeout);
    expect(result).toMatchObject({ ok: false, status: 'retry' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('connection refused is a retry', async () => {
    const port = await closedPort();
    const result = await deliverLead(emailTarget(`smtp://127.0.0.1:${port}`), lead, shortTimeout);
    expect(result).toMatchObject({ ok: false, status: 'retry' });
    expect(result.detail).toMatch(/ECONNREFUSED/);
  });

  it('an smtpUrl that is not smtp:// or smtps:// is rejected', async () => {
    expect(await deliverLead(emailTarget('json://'), lead)).toMatchObject({ ok: false, status: 'rejected' });
  });
});

// ------------------------------------------------------------------------------------ files

describe('a lead with files', () => {
  const linkSecret = 'lead-token-secret-0123456789abcdef';
  const now = Math.floor(Date.now() / 1000);
  let uploads: string;
  let outbox: string;
  let withFiles: DeliverableLead;
  const bytes = {
    front: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('front of the car')]),
    back: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('back of the car, another photo')]),
    papers: Buffer.from('%PDF-1.4 rego papers'),
  };

  beforeEach(async () => {
    uploads = await mkdtemp(path.join(tmpdir(), 'lead-uploads-'));
    outbox = await mkdtemp(path.join(tmpdir(), 'lead-outbox-'));
    const dir = path.join(uploads, site.slug, '42');
    await mkdir(dir, { recursive: true });
    const file = async (id: number, name: string, stored: string, contentType: string, data: Buffer): Promise<DeliverableFile> => {
      await writeFile(path.join(dir, stored), data);
      const url = signedLeadFileUrl({ siteUrl: site.url, fileId: id, expires: now + 3600, secret: linkSecret });
      return { id, name, contentType, size: data.length, absolutePath: path.join(dir, stored), url };
    };
    withFiles = {
      ...lead,
      payload: { ...lead.payload, has_files: true },
      files: [
        await file(7, 'front.jpg', 'a1.jpg', 'image/jpeg', bytes.front),
        await file(8, 'front.jpg', 'b2.jpg', 'image/jpeg', bytes.back),
        await file(9, 'rego papers', 'c3.pdf', 'application/pdf', bytes.papers),
      ],
    };
  });
  afterEach(async () => {
    await rm(uploads, { recursive: true, force: true });
    await rm(outbox, { recursive: true, force: true });
  });

  /** The customer comments of an ADF document, as a CRM reads them. */
  const commentsOf = (xml: string) => {
    expect(validateAdfStructure(xml)).toEqual([]);
    const text = /<customer>[\s\S]*<comments>([\s\S]*)<\/comments>/.exec(xml)?.[1] ?? '';
    return text.replace(/&amp;/g, '&');
  };
  const listsLinks = (comments: string) => {
    expect(comments).toContain('Files (3):');
    for (const file of withFiles.files) expect(comments).toContain(file.url);
    expect(comments).not.toContain('Files attached: Yes');
  };

  it('adf-file: places the files under their delivered names into <base>-files/ beside the ADF, which lists them, without a second copy of their bytes', async () => {
    const result = await deliverLead({ kind: 'adf-file', dir: outbox }, withFiles);
    expect(result.ok).toBe(true);
    const siteDir = path.join(outbox, site.slug);
    const base = adfFileBase(withFiles);
    expect((await readdir(siteDir)).sort()).toEqual([`${base}-files`, `${base}.adf.xml`, `${base}.json`]);
    const filesDir = path.join(siteDir, `${base}-files`);
    expect((await readdir(filesDir)).sort()).toEqual(['front (2).jpg', 'front.jpg', 'rego papers.pdf']);
    expect((await readFile(path.join(filesDir, 'front.jpg'))).equals(bytes.front)).toBe(true);
    expect((await readFile(path.join(filesDir, 'front (2).jpg'))).equals(bytes.back)).toBe(true);
    expect((await readFile(path.join(filesDir, 'rego papers.pdf'))).equals(bytes.papers)).toBe(true);
    // The stored upload and the outbox's file are one file on the disk (a link, not a copy).
    for (const [name, stored] of [
      ['front.jpg', withFiles.files[0]!],
      ['rego papers.pdf', withFiles.files[2]!],
    ] as const) {
      const [placed, upload] = await Promise.all([stat(path.join(filesDir, name)), stat(stored.absolutePath)]);
      expect(placed.ino).toBe(upload.ino);
      expect(upload.nlink).toBe(2);
    }

    const comments = commentsOf(await readFile(result.detail, 'utf8'));
    listsLinks(comments);
    expect(comments).toContain(`The files are in the folder ${base}-files beside this document.`);
    const json = JSON.parse(await readFile(path.join(siteDir, `${base}.json`), 'utf8'));
    expect(json.files).toEqual(
      withFiles.files.map((file) => ({ name: file.name, content_type: file.contentType, size: file.size, url: file.url })),
    );

    const again = await deliverLead({ kind: 'adf-file', dir: outbox }, withFiles);
    expect(again.ok).toBe(true);
    expect((await readdir(filesDir)).sort()).toEqual(['front (2).jpg', 'front.jpg', 'rego papers.pdf']);
  });

  it('adf-file: a file gone from disk is left out and named, the lead still delivered', async () => {
    await rm(withFiles.files[1]!.absolutePath);
    const result = await deliverLead({ kind: 'adf-file', dir: outbox }, withFiles);
    expect(result).toMatchObject({ ok: true, status: 'delivered' });
    expect(result.detail).toMatch(/\.adf\.xml \(not on the server, not placed: front \(2\)\.jpg\)$/);
    expect((await readdir(path.join(outbox, site.slug, `${adfFileBase(withFiles)}-files`))).sort()).toEqual([
      'front.jpg',
      'rego papers.pdf',
    ]);
  });

  it('webhook: the body lists each file with a link the platform will open', async () => {
    receiver = await startReceiver(reply(200, 'ok'));
    expect((await deliverLead({ kind: 'webhook', url: receiver.url, secret }, withFiles)).ok).toBe(true);
    const body = JSON.parse(receiver.requests[0]!.body) as {
      lead: { files: { name: string; content_type: string; size: number; url: string }[] };
    };
    expect(body.lead.files.map(({ url: _url, ...file }) => file)).toEqual([
      { name: 'front.jpg', content_type: 'image/jpeg', size: bytes.front.length },
      { name: 'front.jpg', content_type: 'image/jpeg', size: bytes.back.length },
      { name: 'rego papers', content_type: 'application/pdf', size: bytes.papers.length },
    ]);
    for (const [index, file] of body.lead.files.entries()) {
      const url = new URL(file.url);
      expect(`${url.origin}${url.pathname}`).toBe(`${new URL(site.url).origin}/api/lead-files/${withFiles.files[index]!.id}`);
      const link = {
        fileId: withFiles.files[index]!.id,
        expires: url.searchParams.get('expires') ?? undefined,
        sig: url.searchParams.get('sig') ?? undefined,
      };
      expect(verifyLeadFileLink(link, linkSecret, now)).toEqual({ ok: true });
      expect(verifyLeadFileLink({ ...link, fileId: link.fileId + 100 }, linkSecret, now)).toEqual({ ok: false, reason: 'invalid' });
    }
  });

  it('adf-http: the posted document lists the files with their links', async () => {
    receiver = await startReceiver(reply(200, 'ok'));
    expect((await deliverLead({ kind: 'adf-http', url: receiver.url }, withFiles)).ok).toBe(true);
    listsLinks(commentsOf(receiver.requests[0]!.body));
  });

  describe('adf-email', () => {
    let sink: SmtpSink | null = null;
    afterEach(async () => {
      await sink?.close();
      sink = null;
    });
    const emailTarget = (smtpUrl: string): DeliveryTarget => ({
      kind: 'adf-email',
      to: 'leads@crm.example',
      from: 'leads@platform.example',
      smtpUrl,
    });
    const attachmentsOf = (data: string) =>
      mimeParts(data)
        .filter((part) => part.headers['content-disposition']?.startsWith('attachment'))
        .map((part) => ({
          filename: /filename="?([^";]+)"?/.exec(part.headers['content-disposition']!)?.[1],
          contentType: part.headers['content-type']?.split(';')[0],
          bytes: Buffer.from(part.raw.replace(/\s+/g, ''), 'base64'),
        }));
    const textOf = (data: string) => mimeParts(data).find((part) => part.headers['content-type']?.startsWith('text/plain'))!.body;

    it('attaches the files under their delivered names besides the ADF, and says so in the document', async () => {
      sink = await startSmtpSink();
      expect((await deliverLead(emailTarget(sink.url), withFiles)).ok).toBe(true);
      const data = sink.messages[0]!.data;
      const attachments = attachmentsOf(data);
      expect(attachments.map(({ filename, contentType }) => ({ filename, contentType }))).toEqual([
        { filename: 'lead-42.adf.xml', contentType: 'application/xml' },
        { filename: 'front.jpg', contentType: 'image/jpeg' },
        { filename: 'front (2).jpg', contentType: 'image/jpeg' },
        { filename: 'rego papers.pdf', contentType: 'application/pdf' },
      ]);
      expect(attachments[1]!.bytes.equals(bytes.front)).toBe(true);
      expect(attachments[2]!.bytes.equals(bytes.back)).toBe(true);
      expect(attachments[3]!.bytes.equals(bytes.papers)).toBe(true);
      const comments = commentsOf(textOf(data).replace(/\r\n/g, '\n'));
      listsLinks(comments);
      expect(comments).toContain('The files are attached to this e-mail.');
    });

    it('over the size limit: attaches none, lists the links and says why', async () => {
      sink = await startSmtpSink();
      const result = await deliverLead(emailTarget(sink.url), withFiles, { emailAttachmentMaxBytes: 40 });
      expect(result.ok).toBe(true);
      const data = sink.messages[0]!.data;
      expect(attachmentsOf(data).map((attachment) => attachment.filename)).toEqual(['lead-42.adf.xml']);
      const comments = commentsOf(textOf(data).replace(/\r\n/g, '\n'));
      listsLinks(comments);
      const total = bytes.front.length + bytes.back.length + bytes.papers.length;
      expect(comments).toContain(
        `The files (${total} bytes) are over the 40 bytes limit for e-mail and are not attached: download them from the links above.`,
      );
    });

    it('a mail server refusing the size (552) still gets the lead at once, with links instead of files', async () => {
      sink = await startSmtpSink();
      await deliverLead(emailTarget(sink.url), withFiles);
      const fullSize = Buffer.byteLength(sink.messages[0]!.data);
      await sink.close();
      sink = await startSmtpSink({ maxMessageBytes: fullSize - 1 });
      const result = await deliverLead(emailTarget(sink.url), withFiles);
      expect(result).toMatchObject({ ok: true, status: 'delivered' });
      expect(result.detail).toContain('files as links: the mail server refused the attachments as too large');
      expect(sink.messages).toHaveLength(1);
      const data = sink.messages[0]!.data;
      expect(attachmentsOf(data).map((attachment) => attachment.filename)).toEqual(['lead-42.adf.xml']);
      const comments = commentsOf(textOf(data).replace(/\r\n/g, '\n'));
      listsLinks(comments);
      expect(comments).toContain(
        'The files were too large for the dealership’s mail server and are not attached: download them from the links above.',
      );
    });

    it('a 552 for a message without files stays a refusal', async () => {
      sink = await startSmtpSink({ maxMessageBytes: 10 });
      const result = await deliverLead(emailTarget(sink.url), { ...withFiles, files: [] });
      expect(result).toMatchObject({ ok: false, status: 'rejected' });
      expect(result.detail).toMatch(/^552 /);
    });

    it('a file gone from disk is not attached; the others are', async () => {
      sink = await startSmtpSink();
      await rm(withFiles.files[0]!.absolutePath);
      expect((await deliverLead(emailTarget(sink.url), withFiles)).ok).toBe(true);
      const data = sink.messages[0]!.data;
      expect(attachmentsOf(data).map((attachment) => attachment.filename)).toEqual(['lead-42.adf.xml', 'front (2).jpg', 'rego papers.pdf']);
      expect(commentsOf(textOf(data).replace(/\r\n/g, '\n'))).toContain(
        '2 of 3 files are attached to this e-mail; the others are no longer on the server.',
      );
    });
  });
});
