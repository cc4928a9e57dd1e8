import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLead } from '@dealer/db/lead-store';
import { findSiteIdBySlug } from '@dealer/db/site-store';
import { skipPostgres } from '@dealer/testing/postgres';
import { consoleRequest, consoleSignIn } from '../../testing/console-requests';
import { createTestPlatform, siteRequest, type TestPlatform } from '../../testing/test-platform';

const slug = 'harbour-used-cars';

describe.each(['sqlite', 'postgres'] as const)('the console dashboard on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }
  let platform: TestPlatform;
  let staff: string;
  beforeAll(async () => {
    platform = await createTestPlatform({ engine });
    staff = await consoleSignIn(platform.app, platform.ctx.db, `staff@${slug}.localhost`);
    const siteId = (await findSiteIdBySlug(platform.ctx.db, slug))!;
    const now = Date.now();
    for (const [category, location, ago] of [
      ['General Enquiry', 11, 0],
      ['General Enquiry', 12, 0],
      ['Test Drive', 11, 86_400_000],
    ] as const)
      await createLead(
        platform.ctx.db,
        { siteId, category, leadStatus: 'New', payload: { name: 'A', location_id: location }, idempotencyKey: null },
        now - ago,
      );
    // Two shoppers' visits: one looks at a car twice, the other at the home page.
    const view = (session: string, url: string, properties: Record<string, unknown>) =>
      siteRequest(platform.app, slug, 'POST', '/api/events', {
        payload: JSON.stringify({ category: 'page_view', url, anon_id: session, session_id: session, event_properties: properties }),
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.4.4.${session.length}` },
      });
    for (const [session, url, props] of [
      ['s1', '/cars/a', { page_type: 'vehicle', car_slug: 'ute-a', car_name: 'The Ute' }],
      ['s1', '/cars/a', { page_type: 'vehicle', car_slug: 'ute-a', car_name: 'The Ute' }],
      ['s22', '/', { page_type: 'home' }],
    ] as const)
      expect((await view(session, `http://${slug}.localhost${url}`, props)).statusCode).toBe(202);
  }, 60_000);
  afterAll(async () => platform?.close());

  it('counts leads per day by form and by location, the funnel, the most viewed cars and delivery health', async () => {
    const res = await consoleRequest(platform.app, 'GET', `/api/console/sites/${slug}/dashboard?days=7`, { cookie: staff });
    expect(res.statusCode, res.body).toBe(200);
    const board = res.json<{
      days: string[];
      leads_by_form: { day: string; form: string; count: number }[];
      leads_by_location: { location_id: string | null; count: number }[];
      funnel: { visits: number; car_views: number; leads: number };
      top_cars: { slug: string; name: string; views: number }[];
      delivery: Record<string, number>;
    }>();
    const today = new Date().toISOString().slice(0, 10);
    expect(board.days).toHaveLength(7);
    expect(board.days.at(-1)).toBe(today);
    expect(board.leads_by_form.find((row) => row.day === today && row.form === 'General Enquiry')?.count).toBe(2);
    expect(board.leads_by_form.find((row) => row.form === 'Test Drive')?.count).toBe(1);
    expect(board.leads_by_location.filter((row) => row.location_id === '11').reduce((sum, row) => sum + row.count, 0)).toBe(2);
    expect(board.funnel).toEqual({ visits: 2, car_views: 2, leads: 3 });
    expect(board.top_cars).toEqual([{ slug: 'ute-a', name: 'The Ute', views: 2 }]);
    expect(typeof board.delivery).toBe('object');
  });
});
