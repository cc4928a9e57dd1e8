import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteUploadBytesSince } from '@dealer/db/lead-store';
import { findSiteIdBySlug } from '@dealer/db/site-store';
import { skipPostgres } from '@dealer/testing/postgres';
import { uploadsRoot } from '@dealer/leads/uploads';
import { createTestPlatform, type TestPlatform } from '../testing/test-platform';

/**
 * What a shopper's files may make the server keep: each file must read as the type its first
 * bytes name, and the bytes stored are bounded per lead, per client address a day and per site a
 * day, each refused with a message the form shows beside its file field.
 */

const boundary = 'lead-upload-boundary';
const lead = JSON.stringify({
  category: 'General Enquiry',
  name: 'Jane',
  last_name: 'Citizen',
  email: 'jane@example.com',
  phone: '0411222333',
  message: 'Photos of my trade-in',
});
const body = (files: { name: string; data: Buffer; type?: string }[]) =>
  Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="lead"\r\n\r\n${lead}\r\n`),
    ...files.map((file) =>
      Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'image/png'}\r\n\r\n`,
        ),
        file.data,
        Buffer.from('\r\n'),
      ]),
    ),
    Buffer.from(`--${boundary}--\r\n`),
  ]);

/** A real photo of `kb` kilobytes or so: noise does not compress. */
const photo = (kb: number) => {
  const side = Math.ceil(Math.sqrt((kb * 1024) / 3));
  return sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
};

describe.each(['sqlite', 'postgres'] as const)('files sent with leads on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let platform: TestPlatform;
  let sixHundredKb: Buffer;
  let address = 0;
  const freshAddress = () => `10.20.${(address >> 8) & 255}.${(address += 1) & 255}`;

  beforeAll(async () => {
    platform = await createTestPlatform({
      engine,
      env: {
        LEADS_RATE_LIMIT: '0',
        LEAD_UPLOAD_MAX_MB_PER_LEAD: '1',
        LEAD_UPLOAD_MAX_MB_PER_ADDRESS_PER_DAY: '2',
        LEAD_UPLOAD_MAX_MB_PER_SITE_PER_DAY: '3',
      },
      deliver: async () => ({ ok: true, status: 'delivered', detail: 'kept by the test' }),
    });
    sixHundredKb = await photo(600);
  });
  afterAll(async () => {
    await platform?.close();
  });

  const send = (files: { name: string; data: Buffer; type?: string }[], from = freshAddress(), slug = 'harbour-used-cars') =>
    platform.app.inject({
      method: 'POST',
      url: '/api/leads/with-files',
      remoteAddress: from,
      headers: { host: `${slug}.localhost`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body(files),
    });
  const incoming = async () => (await readdir(join(uploadsRoot(platform.ctx.config.dataDir), '.incoming')).catch(() => [])).length;
  const refusal = (res: { statusCode: number; json<T>(): T }) => ({
    status: res.statusCode,
    ...res.json<{ message: string; fields?: Record<string, string> }>(),
  });

  it.each([
    [
      'a PNG signature in front of anything else',
      'fake.png',
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(200_000)]),
      'PNG image',
    ],
    [
      'a JPEG start in front of anything else',
      'fake.jpg',
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(200_000)]),
      'JPEG image',
    ],
    [
      'a HEIC brand in front of anything else',
      'fake.heic',
      Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic'), Buffer.alloc(12), randomBytes(200_000)]),
      'HEIC image',
    ],
    ['a PDF header without its end', 'fake.pdf', Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(200_000)]), 'PDF document'],
  ])('refuses %s, beside the file field, and keeps nothing', async (_what, name, data, label) => {
    const res = await send([{ name, data }]);
    const message = `"${name}" is not a readable ${label}: it may be damaged. Please send JPEG, PNG, WebP or HEIC photos and PDF documents.`;
    expect(refusal(res)).toEqual({ status: 400, message, fields: { files: message } });
    expect(await incoming()).toBe(0);
  });

  it('takes real photos and documents: a PNG, a JPEG, a WebP, a HEIC made of boxes and a PDF', async () => {
    const small = sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } });
    const sized = (type: string, content: Buffer) => {
      const box = Buffer.concat([Buffer.alloc(4), Buffer.from(type), content]);
      box.writeUInt32BE(box.length, 0);
      return box;
    };
    const heic = Buffer.concat([
      sized('ftyp', Buffer.from('heic\0\0\0\0mif1heic')),
      sized('meta', Buffer.alloc(40)),
      sized('mdat', randomBytes(500)),
    ]);
    const res = await send([
      { name: 'front.png', data: await small.clone().png().toBuffer() },
      { name: 'back.jpg', data: await small.clone().jpeg().toBuffer(), type: 'image/jpeg' },
      { name: 'side.webp', data: await small.clone().webp().toBuffer(), type: 'image/webp' },
      { name: 'iphone.heic', data: heic, type: 'image/heic' },
      { name: 'rego.pdf', data: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'), type: 'application/pdf' },
    ]);
    expect(res.statusCode, res.body).toBe(201);
  });

  it('refuses files that together pass LEAD_UPLOAD_MAX_MB_PER_LEAD with a 413, though each is within its own limit', async () => {
    const res = await send([
      { name: 'one.png', data: sixHundredKb },
      { name: 'two.png', data: sixHundredKb },
    ]);
    const message = 'The files together are larger than 1 MB. Please send fewer or smaller files.';
    expect(refusal(res)).toEqual({ status: 413, message, fields: { files: message } });
    expect(await incoming()).toBe(0);
  });

  it('takes LEAD_UPLOAD_MAX_MB_PER_ADDRESS_PER_DAY from one address at a site, then a 429 that says when; other addresses and sites go on', async () => {
    const from = freshAddress();
    for (let i = 0; i < 3; i += 1) expect((await send([{ name: `car ${i}.png`, data: sixHundredKb }], from)).statusCode).toBe(201);
    const refused = await send([{ name: 'car 4.png', data: sixHundredKb }], from);
    expect(refusal(refused)).toMatchObject({
      status: 429,
      message: expect.stringContaining('You have sent 2 MB of files today, as much as we can take. Please send your enquiry without files'),
      fields: { files: expect.any(String) },
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3600);
    expect((await send([{ name: 'car.png', data: sixHundredKb }], from, 'kiwi-motors')).statusCode).toBe(201);
    // The enquiry itself still goes through, without its files.
    const withoutFiles = await platform.app.inject({
      method: 'POST',
      url: '/api/leads',
      remoteAddress: from,
      headers: { host: 'harbour-used-cars.localhost' },
      payload: { lead: JSON.parse(lead) },
    });
    expect(withoutFiles.statusCode).toBe(201);
  });

  it('takes LEAD_UPLOAD_MAX_MB_PER_SITE_PER_DAY across all addresses (counted in the store), then a 429 for everyone', async () => {
    const harbour = (await findSiteIdBySlug(platform.ctx.db, 'harbour-used-cars'))!;
    const siteQuota = 3 * 1024 * 1024;
    // Each from a new address: what the site took above, then more until the next would not fit.
    while ((await siteUploadBytesSince(platform.ctx.db, harbour, Date.now() - 86_400_000)) + sixHundredKb.length <= siteQuota) {
      expect((await send([{ name: 'a.png', data: sixHundredKb }])).statusCode).toBe(201);
    }
    const refused = await send([{ name: 'b.png', data: sixHundredKb }]);
    expect(refusal(refused)).toMatchObject({
      status: 429,
      message: 'The dealership cannot take more files today. Please send your enquiry without files, or try again tomorrow.',
    });
    expect(refused.headers['retry-after']).toBe('3600');
    expect((await send([{ name: 'b.png', data: sixHundredKb }], freshAddress(), 'lone-star-auto')).statusCode).toBe(201);
  });
});
