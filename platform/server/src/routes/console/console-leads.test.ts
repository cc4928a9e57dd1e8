import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createLead, insertLeadFiles } from '@dealer/db/lead-store';
import { uploadsRoot } from '@dealer/leads/uploads';
import { findSiteIdBySlug } from '@dealer/db/site-store';
import { consoleLeadPage, type ConsoleLeadFilter } from '@dealer/db/console-lead-store';
import type { PagePosition } from '@dealer/db/page-cursor';
import { skipPostgres } from '@dealer/testing/postgres';
import { consoleRequest, consoleSignIn } from '../../testing/console-requests';
import { createTestPlatform, type TestPlatform } from '../../testing/test-platform';

const slug = 'harbour-used-cars';
type Listed = {
  leads: { id: number; dealer_status: string; category: string; payload: Record<string, unknown> }[];
  next_cursor: string | null;
};

describe.each(['sqlite', 'postgres'] as const)('the dealer console’s leads inbox on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }
  let platform: TestPlatform;
  let staff: string;
  let admin: string;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    platform = await createTestPlatform({ engine });
    const siteId = (await findSiteIdBySlug(platform.ctx.db, slug))!;
    const other = (await findSiteIdBySlug(platform.ctx.db, 'ridgeline-trucks'))!;
    const add = async (name: string, category: string, payload: Record<string, unknown>, at: number, site = siteId) =>
      (
        await createLead(
          platform.ctx.db,
          { siteId: site, category, leadStatus: 'New', payload: { name, ...payload }, idempotencyKey: null },
          at,
        )
      ).lead.id;
    const day = Date.parse('2026-11-20T10:00:00Z');
    ids.jane = await add(
      'Jane Citizen',
      'General Enquiry',
      { email: 'jane@example.com', comments: 'Is the Corolla still here?', location_id: 11 },
      day,
    );
    ids.raj = await add('Raj Patel', 'Test Drive', { email: 'raj@example.com', location_id: 12 }, day + 86_400_000);
    ids.ana = await add('Ana 100%_sure', 'Finance', { email: 'ana@example.com' }, day + 2 * 86_400_000);
    ids.elsewhere = await add('Other Site', 'General Enquiry', { email: 'x@example.com' }, day, other);
    staff = await consoleSignIn(platform.app, platform.ctx.db, `staff@${slug}.localhost`);
    admin = await consoleSignIn(platform.app, platform.ctx.db, `site-admin@${slug}.localhost`);
  }, 60_000);
  afterAll(async () => platform?.close());

  const list = async (query = '') => {
    const res = await consoleRequest(platform.app, 'GET', `/api/console/sites/${slug}/leads${query}`, { cookie: staff });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Listed>();
  };

  it('lists the site’s leads newest first, and only the site’s', async () => {
    const page = await list();
    expect(page.leads.map((lead) => lead.id)).toEqual([ids.ana, ids.raj, ids.jane]);
    expect(page.leads.every((lead) => lead.dealer_status === 'new')).toBe(true);
  });

  it('filters by form, location, dates and words the shopper wrote, and pages with a cursor', async () => {
    expect((await list('?form=Test%20Drive')).leads.map((l) => l.id)).toEqual([ids.raj]);
    expect((await list('?location=11')).leads.map((l) => l.id)).toEqual([ids.jane]);
    expect((await list('?from=2026-11-21&to=2026-11-21')).leads.map((l) => l.id)).toEqual([ids.raj]);
    expect((await list('?q=corolla')).leads.map((l) => l.id)).toEqual([ids.jane]);
    // % and _ are matched as typed, not as wildcards.
    expect((await list('?q=100%25_')).leads.map((l) => l.id)).toEqual([ids.ana]);
    expect((await list('?q=1%25')).leads.map((l) => l.id)).toEqual([]);
    // Words and other filters together, a page at a time.
    expect((await list('?q=example.com&form=Test%20Drive')).leads.map((l) => l.id)).toEqual([ids.raj]);
    const words = await list('?q=example.com&limit=2');
    expect(words.leads.map((l) => l.id)).toEqual([ids.ana, ids.raj]);
    expect((await list(`?q=example.com&limit=2&cursor=${words.next_cursor}`)).leads.map((l) => l.id)).toEqual([ids.jane]);
    const first = await list('?limit=2');
    expect(first.leads).toHaveLength(2);
    const second = await list(`?limit=2&cursor=${first.next_cursor}`);
    expect(second.leads.map((l) => l.id)).toEqual([ids.jane]);
    expect(second.next_cursor).toBeNull();
  });

  it('finds a word many leads hold by walking the newest first, with the same answer as a rare word', async () => {
    // More leads than `fewMatches` hold the word: the store walks the site's leads newest first instead of the index.
    const siteId = (await findSiteIdBySlug(platform.ctx.db, slug))!;
    const walk = (filter: ConsoleLeadFilter, after: PagePosition | null) =>
      consoleLeadPage(platform.ctx.db, platform.ctx.dialect, siteId, filter, { after, limit: 1 }, 1);
    // 'an' is in Ana's and Jane's leads, not Raj's.
    const first = await walk({ text: 'AN' }, null);
    expect(first.leads.map((l) => l.id)).toEqual([ids.ana]);
    const second = await walk({ text: 'AN' }, first.next);
    expect(second.leads.map((l) => l.id)).toEqual([ids.jane]);
    expect(second.next).toBeNull();
    expect((await walk({ text: 'example.com', category: 'Test Drive' }, null)).leads.map((l) => l.id)).toEqual([ids.raj]);
  });

  it('offers the forms the site’s leads came from, its locations and who leads can be assigned to', async () => {
    const res = await consoleRequest(platform.app, 'GET', `/api/console/sites/${slug}/leads/choices`, { cookie: staff });
    expect(res.statusCode, res.body).toBe(200);
    const choices = res.json<{ forms: string[]; locations: { id: number; name: string }[]; assignees: { email: string }[] }>();
    expect(choices.forms).toEqual(['Finance', 'General Enquiry', 'Test Drive']);
    const site = await platform.ctx.sites.forId((await findSiteIdBySlug(platform.ctx.db, slug))!);
    expect(choices.locations).toEqual(site!.locations.map((location) => ({ id: location.id, name: location.name })));
    expect(choices.assignees.map((person) => person.email)).toEqual(
      expect.arrayContaining([`staff@${slug}.localhost`, `site-admin@${slug}.localhost`]),
    );
  });

  it('refuses a bad filter beside its field', async () => {
    const res = await consoleRequest(platform.app, 'GET', `/api/console/sites/${slug}/leads?status=maybe&from=yesterday`, {
      cookie: staff,
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json<{ fields: Record<string, string> }>().fields).sort()).toEqual(['from', 'status']);
  });

  it('moves a lead to contacted with a note, assigns it, and the site admin reads who did it in the audit log', async () => {
    const users = (await consoleRequest(platform.app, 'GET', `/api/console/sites/${slug}/leads/${ids.jane}`, { cookie: staff })).json<{
      assignees: { id: number; email: string }[];
    }>().assignees;
    const stacey = users.find((user) => user.email === `staff@${slug}.localhost`)!;
    const res = await consoleRequest(platform.app, 'POST', `/api/console/sites/${slug}/leads/${ids.jane}/workflow`, {
      cookie: staff,
      payload: { status: 'contacted', note: 'Called, coming Saturday', assignee_id: stacey.id },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'contacted',
      assignee_id: stacey.id,
      notes: [{ author: `staff@${slug}.localhost`, body: 'Called, coming Saturday' }],
    });
    expect((await list('?status=contacted')).leads.map((l) => l.id)).toEqual([ids.jane]);
    expect((await list(`?assignee=${stacey.id}`)).leads.map((l) => l.id)).toEqual([ids.jane]);

    const audit = await consoleRequest(platform.app, 'GET', `/api/console/sites/${slug}/audit`, { cookie: admin });
    expect(audit.statusCode).toBe(200);
    expect(audit.json<{ entries: unknown[] }>().entries[0]).toMatchObject({
      user_email: `staff@${slug}.localhost`,
      action: 'leads.update',
      target: `lead ${ids.jane}`,
      before: { status: 'new', assignee_id: null },
      after: { status: 'contacted', assignee_id: stacey.id, note: 'Called, coming Saturday' },
    });
    // Staff do not read the audit log.
    expect((await consoleRequest(platform.app, 'GET', `/api/console/sites/${slug}/audit`, { cookie: staff })).statusCode).toBe(403);
  });

  it('refuses an assignee who does not work on the site, and another site’s lead, and keeps the lead as it was', async () => {
    const res = await consoleRequest(platform.app, 'POST', `/api/console/sites/${slug}/leads/${ids.raj}/workflow`, {
      cookie: staff,
      payload: { status: 'sold', assignee_id: 999_999 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ fields: { assignee_id: 'Assign the lead to someone who works on this site.' } });
    expect((await list('?status=sold')).leads).toEqual([]);
    const foreign = await consoleRequest(platform.app, 'POST', `/api/console/sites/${slug}/leads/${ids.elsewhere}/workflow`, {
      cookie: staff,
      payload: { status: 'sold' },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('exports the filtered leads as CSV', async () => {
    const res = await consoleRequest(platform.app, 'GET', `/api/console/sites/${slug}/leads.csv?form=Finance`, { cookie: staff });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('Ana 100%_sure');
  });

  it('downloads a file the shopper sent, as an attachment that is never shown inline; another lead’s file is not found', async () => {
    const siteId = (await findSiteIdBySlug(platform.ctx.db, slug))!;
    const relative = `${siteId}/test/licence.pdf`;
    const absolute = join(uploadsRoot(platform.ctx.config.dataDir), relative);
    await mkdir(dirname(absolute), { recursive: true });
    await writeFile(absolute, '%PDF-1.4 test %%EOF');
    await platform.ctx.db
      .transaction()
      .execute((trx) =>
        insertLeadFiles(trx, [
          { leadId: ids.jane!, siteId, path: relative, contentType: 'application/pdf', size: 19, originalName: 'licence.pdf' },
        ]),
      );
    const detail = (await consoleRequest(platform.app, 'GET', `/api/console/sites/${slug}/leads/${ids.jane}`, { cookie: staff })).json<{
      files: { id: number; name: string }[];
    }>();
    const file = detail.files[0]!;
    expect(file.name).toBe('licence.pdf');
    const res = await consoleRequest(platform.app, 'GET', `/api/console/sites/${slug}/leads/${ids.jane}/files/${file.id}`, {
      cookie: staff,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toBe('%PDF-1.4 test %%EOF');
    const wrongLead = await consoleRequest(platform.app, 'GET', `/api/console/sites/${slug}/leads/${ids.raj}/files/${file.id}`, {
      cookie: staff,
    });
    expect(wrongLead.statusCode).toBe(404);
  });
});
