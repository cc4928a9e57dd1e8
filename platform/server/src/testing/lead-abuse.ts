/**
 * What the lead abuse suites (leads/lead-abuse.*.test.ts) share: a platform on one engine that lets
 * each client address create two leads (LEADS_RATE_LIMIT=2) and keeps what it delivers, and requests
 * from one client address each. Production code does not import it.
 */
import type { SiteConfig } from '@dealer/contracts/site';
import { findSiteIdBySlug, loadSiteConfig } from '@dealer/db/site-store';
import type { DeliverableLead } from '@dealer/leads/deliverable-lead';
import { createTestPlatform, type TestPlatform } from './test-platform';

export type Created = { id: number; lead_id: number; update_token: string };
export type Refused = { message: string; fields?: Record<string, string> };

export const contact = { name: 'Jane', last_name: 'Citizen', email: 'jane@example.com', phone: '0411222333' };
export const enquiry = (extra: Record<string, unknown> = {}) => ({
  category: 'General Enquiry',
  ...contact,
  message: 'Is it still available?',
  ...extra,
});

/** A new client address per call: the platform runs with LEADS_RATE_LIMIT=2, so most tests spread their creates. */
let addressCounter = 0;
export const freshAddress = () => {
  addressCounter += 1;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
};

/**
 * The public lead endpoints of Metro Motor Group on one engine: `open()` (in a beforeAll) builds the
 * platform and finds the site and its showroom; `delivered` collects the leads its outbox delivers.
 */
export function leadAbuseOn(engine: 'sqlite' | 'postgres') {
  const slug = 'metro-motor-group';
  const delivered: DeliverableLead[] = [];
  let platform: TestPlatform;
  const open = async () => {
    platform = await createTestPlatform({
      engine,
      env: { LEADS_RATE_LIMIT: '2' },
      deliver: async (_target, lead) => {
        delivered.push(lead);
        return { ok: true, status: 'delivered', detail: 'kept by the test' };
      },
    });
    const site: SiteConfig = (await loadSiteConfig(platform.ctx.db, (await findSiteIdBySlug(platform.ctx.db, slug))!))!;
    const showroom = site.locations.find((location) => location.visible && location.location_type === 'sales')!;
    return { platform, site, showroom };
  };

  /** One request from one client address (the socket's: no proxy header). */
  const call = (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    opts: { address?: string; payload?: unknown; headers?: Record<string, string>; host?: string } = {},
  ) =>
    platform.app.inject({
      method,
      url,
      remoteAddress: opts.address ?? freshAddress(),
      headers: { host: `${opts.host ?? slug}.localhost:3000`, ...opts.headers },
      payload: opts.payload as string,
    });
  const create = (lead: Record<string, unknown>, opts: { address?: string; key?: string } = {}) =>
    call('POST', '/api/leads', { address: opts.address, payload: { lead }, headers: opts.key ? { 'idempotency-key': opts.key } : {} });
  const update = (created: Created, lead: Record<string, unknown>, address?: string) =>
    call('PUT', `/api/leads/${created.id}`, { address, payload: { lead }, headers: { 'x-lead-update-token': created.update_token } });
  const payloadOf = async (leadId: number) =>
    JSON.parse(
      (await platform.ctx.db.selectFrom('leads').select('payload').where('id', '=', leadId).executeTakeFirstOrThrow()).payload,
    ) as Record<string, unknown>;

  return { slug, delivered, open, call, create, update, payloadOf };
}
