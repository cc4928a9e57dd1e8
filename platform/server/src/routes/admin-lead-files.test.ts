import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, testAdminKey, type TestPlatform } from '../testing/test-platform';

const pdf = Buffer.from('%PDF-1.4\n% a trade-in invoice\ntrailer <<>>\n%%EOF\n');
const slug = 'ridgeline-trucks';

function multipart(lead: Record<string, unknown>, files: { name: string; type: string; data: Buffer }[]) {
  const boundary = `----admin-files-${randomBytes(8).toString('hex')}`;
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

describe("the admin download of a lead's file", () => {
  let platform: TestPlatform;
  let leadId: number;
  let files: { id: number; original_name: string }[];
  beforeAll(async () => {
    platform = await createTestPlatform({ engine: 'sqlite' });
    const body = multipart(
      { category: 'Sell My Car Enquiry', name: 'Jane', last_name: 'Citizen', email: 'jane@example.com', phone: '0411222333' },
      [
        { name: 'invoice.html', type: 'text/html', data: pdf },
        { name: 'Rechnung für Anhänger.html', type: 'text/html', data: pdf },
      ],
    );
    const created = await platform.app.inject({
      method: 'POST',
      url: '/api/leads/with-files',
      headers: {
        host: `${slug}.localhost:3000`,
        'content-type': body.contentType,
        'x-forwarded-for': '10.77.0.1',
        'user-agent': 'AdminFilesTest/1.0',
      },
      payload: body.payload,
    });
    expect(created.statusCode, created.body).toBe(201);
    leadId = created.json<{ id: number }>().id;
    files = (await admin(`/api/admin/leads/${leadId}/files`)).json<{ files: typeof files }>().files;
  });
  afterAll(async () => {
    await platform?.close();
  });
  const admin = (url: string, key = testAdminKey) =>
    platform.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

  it('is named with the extension of what the file is, sent as that type, never sniffed', async () => {
    expect(files.map((file) => file.original_name)).toEqual(['invoice.html', 'Rechnung für Anhänger.html']);
    const res = await admin(`/api/admin/leads/${leadId}/files/${files[0]!.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="invoice.html.pdf"; filename*=UTF-8''invoice.html.pdf`);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-length']).toBe(String(pdf.length));
    expect(res.rawPayload.equals(pdf)).toBe(true);
  });

  it('keeps a name beyond ASCII for the clients that read it, and a plain one for the rest', async () => {
    const res = await admin(`/api/admin/leads/${leadId}/files/${files[1]!.id}`);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Rechnung f_r Anh_nger.html.pdf"; filename*=UTF-8''Rechnung%20f%C3%BCr%20Anh%C3%A4nger.html.pdf`,
    );
  });

  it("answers 404 for a file the lead does not have, and for another site's dealer key", async () => {
    const missing = await admin(`/api/admin/leads/${leadId}/files/999999`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: `Lead ${leadId} has no file 999999.` });
    const created = await platform.app.inject({
      method: 'POST',
      url: '/api/admin/dealer-keys',
      headers: { authorization: `Bearer ${testAdminKey}` },
      payload: { site: 'kiwi-motors' },
    });
    const otherDealer = created.json<{ key: string }>().key;
    expect((await admin(`/api/admin/leads/${leadId}/files/${files[0]!.id}`, otherDealer)).statusCode).toBe(404);
  });
});
