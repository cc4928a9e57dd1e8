import type { LeadDeliveryTargetSetting } from '@dealer/contracts/site';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoDataIfEmpty } from '@dealer/demo/seed-database';
import { skipPostgres } from '@dealer/testing/postgres';
import { openTestStore, type TestStore } from '@dealer/testing/test-store';
import { bookingPage, eventPage, leadPage, type LeadListFilter } from '@dealer/db/admin-pages';
import { migrateToLatest } from '@dealer/db/database';
import { recordEvent } from '@dealer/db/event-store';
import { insertLead, type NewLead } from '@dealer/db/lead-store';
import { listJobs, summariseDelivery, type DeliveryState } from '@dealer/db/lead-job-store';
import { decodeCursor, encodeCursor, type Page, type PagePosition } from '@dealer/db/page-cursor';
import { findSiteIdBySlug } from '@dealer/db/site-store';
import type { DeliveryJobStatus } from '@dealer/db/schema';

describe('page cursors', () => {
  it('give back the position they were made from', () => {
    expect(decodeCursor(encodeCursor({ key: 1_750_000_000_000, id: 42 }))).toEqual({ key: 1_750_000_000_000, id: 42 });
  });

  it.each([
    ['not base64url', 'a+b/c='],
    ['not JSON', Buffer.from('nope').toString('base64url')],
    ['not a pair', Buffer.from('{"key":1,"id":2}').toString('base64url')],
    ['a negative key', Buffer.from('[-1,2]').toString('base64url')],
    ['a zero id', Buffer.from('[1,0]').toString('base64url')],
    ['a fraction', Buffer.from('[1.5,2]').toString('base64url')],
    ['too long', 'A'.repeat(201)],
    ['empty', ''],
  ])('refuse %s', (_label, cursor) => {
    expect(decodeCursor(cursor)).toBeNull();
  });
});

/** Every page of a listing in turn, `limit` rows at a time. */
async function readAll<T>(
  read: (page: Page) => Promise<{ rows: T[]; next: PagePosition | null }>,
  limit: number,
): Promise<{ rows: T[]; pages: number[] }> {
  const rows: T[] = [];
  const pages: number[] = [];
  let after: PagePosition | null = null;
  do {
    const page: { rows: T[]; next: PagePosition | null } = await read({ after, limit });
    rows.push(...page.rows);
    pages.push(page.rows.length);
    after = page.next;
  } while (after);
  return { rows, pages };
}

describe.each(['sqlite', 'postgres'] as const)('admin listings a page at a time on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore(engine);
    await migrateToLatest(store.db, store.engine);
    await seedDemoDataIfEmpty(store.db);
  });
  afterAll(async () => {
    await store?.close();
  });
  const siteId = async (slug: string) => (await findSiteIdBySlug(store.db, slug))!;
  const newLead = (site: number, extra: Partial<NewLead> = {}): NewLead => ({
    siteId: site,
    category: 'General Enquiry',
    leadStatus: 'New',
    payload: { name: 'Jane' },
    idempotencyKey: null,
    requestHash: null,
    tokenSalt: null,
    formCompleted: true,
    hasFiles: false,
    spamReason: null,
    mock: false,
    ...extra,
  });
  const leads = (site: number, filter: LeadListFilter) => (page: Page) =>
    leadPage(store.db, site, filter, page).then(({ leads: rows, next }) => ({ rows, next }));

  it('pages leads newest first by (created_at, id), leads created in the same millisecond included', async () => {
    const site = await siteId('ridgeline-trucks');
    const t = 1_750_000_000_000;
    const created: { id: number; created_at: number }[] = [];
    for (const at of [t, t, t, t + 1, t + 1, t + 2, t + 2]) created.push((await insertLead(store.db, newLead(site), [], at)).lead);
    const expected = [...created].sort((a, b) => b.created_at - a.created_at || b.id - a.id).map((lead) => lead.id);
    const { rows, pages } = await readAll(leads(site, {}), 2);
    expect(rows.map((lead) => lead.id)).toEqual(expected);
    expect(pages).toEqual([2, 2, 2, 1]);
  });

  it("filters by delivery state in the database, exactly as summariseDelivery reads each lead's jobs", async () => {
    const site = await siteId('outback-campers');
    const adf: LeadDeliveryTargetSetting = { kind: 'adf-file' };
    const withJobs = async (statuses: DeliveryJobStatus[]) => {
      const { lead } = await insertLead(
        store.db,
        newLead(site),
        statuses.map(() => adf),
      );
      const jobs = await listJobs(store.db, lead.id);
      for (const [index, status] of statuses.entries())
        await store.db.updateTable('lead_delivery_jobs').set({ status }).where('id', '=', jobs[index]!.id).execute();
    };
    await insertLead(store.db, newLead(site, { mock: true }), [adf]);
    await insertLead(store.db, newLead(site, { spamReason: 'honeypot' }), [adf]);
    await insertLead(store.db, newLead(site, { spamReason: 'honeypot', formCompleted: false }), [adf]);
    await insertLead(store.db, newLead(site, { formCompleted: false }), [adf]);
    await insertLead(store.db, newLead(site), []);
    for (const statuses of [
      ['pending'],
      ['pending', 'delivered'],
      ['delivered', 'delivered'],
      ['failed', 'pending'],
      ['failed', 'delivered'],
      ['dead', 'failed'],
      ['dead', 'delivered'],
      ['delivered'],
    ] as DeliveryJobStatus[][]) {
      await withJobs(statuses);
    }
    const all = (await readAll(leads(site, { mock: 'all' }), 500)).rows;
    const stateOf = new Map<number, DeliveryState>();
    for (const lead of all) stateOf.set(lead.id, summariseDelivery(lead, await listJobs(store.db, lead.id)).state);
    const states: DeliveryState[] = ['delivered', 'pending', 'retrying', 'dead', 'held_as_spam', 'incomplete', 'mock', 'not_configured'];
    expect(new Set(stateOf.values())).toEqual(new Set(states));
    for (const state of states) {
      const expected = all.filter((lead) => stateOf.get(lead.id) === state).map((lead) => lead.id);
      // A page of one at a time: the filter is in the query, so every page is full until the last.
      const { rows, pages } = await readAll(leads(site, { delivery: state, mock: 'all' }), 1);
      expect(
        rows.map((lead) => lead.id),
        state,
      ).toEqual(expected);
      expect(
        pages.every((size) => size === 1),
        state,
      ).toBe(true);
    }
    expect((await readAll(leads(site, { delivery: 'mock' }), 10)).rows).toEqual([]);
  });

  it("pages a site's events newest first", async () => {
    const site = await siteId('coastal-motorcycles');
    const at = 1_750_000_100_000;
    for (const [offset, category] of [
      [0, 'remote-error'],
      [0, 'page-view'],
      [1, 'remote-error'],
      [2, 'page-view'],
      [2, 'remote-error'],
    ] as const) {
      await recordEvent(store.db, { siteId: site, category, url: '/', errorMessage: `${category} at ${offset}`, payload: {} }, at + offset);
    }
    await recordEvent(
      store.db,
      { siteId: await siteId('citi-rentals'), category: 'remote-error', url: '/', errorMessage: 'another site', payload: {} },
      at + 3,
    );
    const read = (category?: string) => (page: Page) =>
      eventPage(store.db, site, category, page).then(({ events, next }) => ({ rows: events, next }));
    const { rows, pages } = await readAll(read(), 2);
    expect(rows.map((event) => event.error_message)).toEqual([
      'remote-error at 2',
      'page-view at 2',
      'remote-error at 1',
      'page-view at 0',
      'remote-error at 0',
    ]);
    expect(pages).toEqual([2, 2, 1]);
    expect((await readAll(read('remote-error'), 2)).rows.map((event) => event.created_at)).toEqual([at + 2, at + 1, at]);
  });

  it("pages a site's diary soonest first, without expired holds", async () => {
    const site = await siteId('toyota-demo');
    const lead = (await insertLead(store.db, newLead(site), [])).lead.id;
    const now = 1_750_000_000_000;
    const hour = 3_600_000;
    const seats: [number, number, number | null][] = [
      [now + 2 * hour, 1, null],
      [now + hour, 1, null],
      [now + hour, 2, now + 60_000],
      [now + hour, 3, now - 1],
      [now + 3 * hour, 1, null],
      [now + 40 * 24 * hour, 1, null],
    ];
    for (const [startsAt, seat, heldUntil] of seats) {
      await store.db
        .insertInto('bookings')
        .values({
          site_id: site,
          lead_id: lead,
          location_id: 999_001,
          kind: 'appointment',
          starts_at: startsAt,
          seat,
          held_until: heldUntil,
          created_at: now,
        })
        .execute();
    }
    const window = { from: now, to: now + 30 * 24 * hour, now };
    const { rows, pages } = await readAll(
      (page) => bookingPage(store.db, site, window, page).then(({ bookings, next }) => ({ rows: bookings, next })),
      2,
    );
    expect(rows.map((booking) => [booking.starts_at, booking.confirmed])).toEqual([
      [now + hour, true],
      [now + hour, false],
      [now + 2 * hour, true],
      [now + 3 * hour, true],
    ]);
    expect(pages).toEqual([2, 2]);
  });
});
