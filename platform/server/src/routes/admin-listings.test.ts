import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '@dealer/db/event-store';
import { createLead } from '@dealer/db/lead-store';
import { findSiteIdBySlug } from '@dealer/db/site-store';
import { leadsCsvPages } from '@dealer/leads/lead-csv';
import { eachLeadPage } from '@dealer/leads/lead-listing';
import { runPlatformCli } from '../platform-cli';
import { skipPostgres } from '@dealer/testing/postgres';
import { createTestPlatform, testAdminKey, type TestPlatform } from '../testing/test-platform';

type LeadsPage = { leads: { id: number; created_at: number; site_id: number }[]; next_cursor: string | null };

const slug = 'lone-star-auto';

describe.each(['sqlite', 'postgres'] as const)('admin listings in pages on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let platform: TestPlatform;
  let siteId: number;
  const seeded: number[] = [];
  let newcomer: number | null = null;
  beforeAll(async () => {
    platform = await createTestPlatform({ engine });
    siteId = (await findSiteIdBySlug(platform.ctx.db, slug))!;
    // 120 leads, three to a millisecond, so pages also split leads created at the same instant.
    const start = Date.now() - 60_000;
    for (let n = 0; n < 120; n++) seeded.push(await addLead(start + Math.floor(n / 3), `Lead ${n}`));
  });
  afterAll(async () => {
    await platform?.close();
  });

  const addLead = async (at: number, name: string) =>
    (
      await createLead(
        platform.ctx.db,
        { siteId, category: 'General Enquiry', leadStatus: 'New', payload: { name, email: 'jane@example.com' }, idempotencyKey: null },
        at,
      )
    ).lead.id;
  const admin = (url: string) => platform.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${testAdminKey}` } });

  it('reads 120 leads back in pages of 50, newest first, with no repeat and no gap while a lead arrives in between', async () => {
    const ids: number[] = [];
    const sizes: number[] = [];
    let url = `/api/admin/leads?site=${slug}&limit=50`;
    for (;;) {
      const res = await admin(url);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json<LeadsPage>();
      ids.push(...page.leads.map((lead) => lead.id));
      sizes.push(page.leads.length);
      newcomer ??= await addLead(Date.now(), 'Arrived between pages');
      if (!page.next_cursor) break;
      expect(page.next_cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      url = `/api/admin/leads?site=${slug}&limit=50&cursor=${page.next_cursor}`;
    }
    expect(sizes).toEqual([50, 50, 20]);
    expect(ids).toEqual([...seeded].reverse());
    const first = (await admin(`/api/admin/leads?site=${slug}`)).json<LeadsPage>();
    expect(first.leads).toHaveLength(50);
    expect(first.leads[0]!.id).toBe(newcomer);
  });

  it.each([
    ['limit=0', 'limit: limit must be at least 1'],
    ['limit=501', 'limit: limit must be at most 500'],
    ['limit=ten', 'limit: limit must be a number'],
    ['limit=2.5', 'limit: limit must be a whole number'],
    ['cursor=not-a-cursor', 'cursor: is not a cursor this listing handed out; start again from the first page (no cursor)'],
    [
      `cursor=${Buffer.from('[1,-2]').toString('base64url')}`,
      'cursor: is not a cursor this listing handed out; start again from the first page (no cursor)',
    ],
    ['cursor=a&cursor=b', 'cursor: cursor must be given once'],
  ])('answers %s with a 400 saying why', async (query, message) => {
    for (const path of ['/api/admin/leads', '/api/admin/events', '/api/admin/bookings']) {
      const res = await admin(`${path}?site=${slug}&${query}`);
      expect(res.statusCode, path).toBe(400);
      expect(res.json(), path).toEqual({ message });
    }
  });

  it('exports every lead as CSV, written a page at a time', async () => {
    const res = await admin(`/api/admin/leads.csv?site=${slug}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = res.body.split('\r\n');
    expect(lines[0]!.startsWith('id,created_at,')).toBe(true);
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(1, -1).map((line) => Number(line.split(',')[0]))).toEqual([newcomer, ...[...seeded].reverse()]);

    const chunks: string[] = [];
    for await (const chunk of leadsCsvPages(eachLeadPage(platform.ctx.db, siteId, {}, 50))) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.split('\r\n').length - 1)).toEqual([51, 50, 21]);
    expect(chunks.join('')).toBe(res.body);
  });

  it('pages the event log and the diary the same way', async () => {
    const at = Date.now();
    for (let n = 0; n < 3; n++)
      await recordEvent(platform.ctx.db, { siteId, category: 'remote-error', url: '/', errorMessage: `failure ${n}`, payload: {} }, at + n);
    const first = (await admin(`/api/admin/events?site=${slug}&limit=2`)).json<{
      events: { error_message: string }[];
      next_cursor: string | null;
    }>();
    expect(first.events.map((event) => event.error_message)).toEqual(['failure 2', 'failure 1']);
    const second = (await admin(`/api/admin/events?site=${slug}&limit=2&cursor=${first.next_cursor}`)).json<{
      events: { error_message: string }[];
      next_cursor: string | null;
    }>();
    expect(second).toEqual({ events: [expect.objectContaining({ error_message: 'failure 0' })], next_cursor: null });
    expect((await admin(`/api/admin/bookings?site=${slug}`)).json()).toEqual({ bookings: [], next_cursor: null });
  });

  it('prints every lead from the command line, following the pages', async () => {
    if (engine !== 'sqlite') return;
    const saved = { ...process.env };
    try {
      Object.assign(process.env, { DATA_DIR: platform.ctx.config.dataDir, LOG_LEVEL: 'silent' });
      delete process.env.DATABASE_URL;
      const json: string[] = [];
      await runPlatformCli(['leads', slug], (line) => json.push(line));
      expect(json.map((line) => (JSON.parse(line) as { id: number }).id)).toEqual([newcomer, ...[...seeded].reverse()]);
      const csv: string[] = [];
      await runPlatformCli(['leads', slug, '--csv'], (line) => csv.push(line));
      expect(`${csv.join('\n')}\n`).toBe((await admin(`/api/admin/leads.csv?site=${slug}`)).body);
    } finally {
      process.env = saved;
    }
  });
});
