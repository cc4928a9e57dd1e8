import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLead } from '@dealer/db/lead-store';
import { findSiteIdBySlug } from '@dealer/db/site-store';
import { consoleHost, consoleRequest, consoleSignIn } from '../../testing/console-requests';
import { createTestPlatform, type TestPlatform } from '../../testing/test-platform';

const slug = 'harbour-used-cars';

describe('new leads in an open console inbox (server-sent events)', () => {
  let platform: TestPlatform;
  let cookie: string;
  let port: number;
  beforeAll(async () => {
    platform = await createTestPlatform();
    cookie = await consoleSignIn(platform.app, platform.ctx.db, `staff@${slug}.localhost`);
    await platform.app.listen({ port: 0, host: '127.0.0.1' });
    port = (platform.app.server.address() as AddressInfo).port;
  }, 60_000);
  afterAll(async () => platform?.close());

  const open = (path: string) =>
    new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path, headers: { host: consoleHost, cookie, accept: 'text/event-stream' } },
        resolve,
      );
      req.on('error', reject);
      req.end();
    });
  const addLead = async (site: string, name: string) =>
    (
      await createLead(platform.ctx.db, {
        siteId: (await findSiteIdBySlug(platform.ctx.db, site))!,
        category: 'General Enquiry',
        leadStatus: 'New',
        payload: { name },
        idempotencyKey: null,
      })
    ).lead.id;

  it('sends each new lead of the site, and none of another site', async () => {
    const res = await open(`/api/console/sites/${slug}/leads/events`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/event-stream');
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (text += chunk));
    await vi.waitFor(() => expect(text).toContain(': listening'), { timeout: 20_000 });
    await vi.waitFor(() => expect(platform.ctx.console.leadFeed.listening).toBe(1), { timeout: 20_000 });
    // The feed has noted where the store stands before the leads below arrive.
    await platform.ctx.console.leadFeed.poll();
    const elsewhere = await addLead('ridgeline-trucks', 'Elsewhere');
    const mine = await addLead(slug, 'Jane');
    await vi.waitFor(() => expect(text).toContain(`"id":${mine}`), { timeout: 20_000, interval: 100 });
    expect(text).toContain('event: lead');
    expect(text).not.toContain(`"id":${elsewhere}`);
    res.destroy();
    await vi.waitFor(() => expect(platform.ctx.console.leadFeed.listening).toBe(0), { timeout: 20_000 });
  });

  it('answers 406 to a request that does not ask for a stream, and refuses another site', async () => {
    expect((await consoleRequest(platform.app, 'GET', `/api/console/sites/${slug}/leads/events`, { cookie })).statusCode).toBe(406);
    const other = await open('/api/console/sites/ridgeline-trucks/leads/events');
    expect(other.statusCode).toBe(403);
    other.resume();
  });
});
