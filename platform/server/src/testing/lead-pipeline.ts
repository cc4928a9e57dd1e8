/**
 * What the lead pipeline suites (leads/lead-pipeline.*.test.ts) share: one platform per engine and
 * test file, in mock mode with quick delivery retries and small upload limits, the enquiry a shopper
 * sends, and the shopper's and the dealer's requests. Production code does not import it.
 */
import { randomBytes } from 'node:crypto';
import type { SiteConfig } from '@dealer/contracts/site';
import { listSiteSlugs, loadSiteConfig } from '@dealer/db/site-store';
import { createTestPlatform, testAdminKey, type TestPlatform } from './test-platform';

export type Engine = 'sqlite' | 'postgres';
export type LeadBody = { id: number; lead_id: number; update_token: string };
export type Listed = {
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

export const enquiry = (extra: Record<string, unknown> = {}) => ({
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
export const freshIp = () => {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};

export const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

export type FilePart = { field?: string; name: string; type: string; data: Buffer };
export function multipart(fields: [string, string][], files: FilePart[]) {
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

/** Closes the platforms this test file opened (its afterAll). */
export async function closeLeadPlatforms() {
  for (const pending of platforms.values()) await (await pending.catch(() => null))?.close();
}

/**
 * The pipeline on one engine: `open()` (in a beforeAll) builds or reuses its platform and reads the
 * sites' configs; the rest are the requests the tests make of it.
 */
export function leadPipelineOn(engine: Engine) {
  let platform: TestPlatform;
  const sites = new Map<string, SiteConfig>();
  const open = async () => {
    platform = await platformOn(engine);
    for (const row of await listSiteSlugs(platform.ctx.db)) sites.set(row.slug, (await loadSiteConfig(platform.ctx.db, row.id))!);
    return platform;
  };
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

  return { open, site, request, createLead, updateLead, admin, adminLeads, leadOf, jobsOf };
}
