import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Car } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';
import { generateDemoData } from '@dealer/demo/demo-data';
import { seedDemoDataIfEmpty } from '@dealer/demo/seed-database';
import { skipPostgres } from '@dealer/testing/postgres';
import { openTestStore, type TestStore } from '@dealer/testing/test-store';
import { carCount, findCarBySlug } from '@dealer/db/car-store';
import { migrateToLatest } from '@dealer/db/database';
import { eventPage, leadPage, type LeadListFilter } from '@dealer/db/admin-pages';
import { recordEvent } from '@dealer/db/event-store';
import { createLead } from '@dealer/db/lead-store';
import { listSiteSlugs, loadSiteConfig, setSiteRemote, siteCount } from '@dealer/db/site-store';

// A fixed instant (2025-06-02T00:00:00Z): the seeded store must equal the generator's output for it.
const now = 1_748_822_400;

/** Every lead (up to one admin page) or event of a site, newest first, as the admin API lists them. */
const listLeads = async (db: TestStore['db'], siteId: number, filter: LeadListFilter = {}) =>
  (await leadPage(db, siteId, filter, { after: null, limit: 500 })).leads;
const listEvents = async (db: TestStore['db'], siteId: number, category?: string) =>
  (await eventPage(db, siteId, category, { after: null, limit: 500 })).events;
const demo = generateDemoData(now);
const siteOf = (slug: string): SiteConfig => {
  const site = demo.sites.find((entry) => entry.slug === slug);
  if (!site) throw new Error(`no demo site ${slug}`);
  return site;
};
const carsOf = (site: SiteConfig): Car[] => {
  const dealerships = new Set(site.dealerships.map((dealership) => dealership.id));
  return demo.cars.filter((car) => dealerships.has(car.dealership_id));
};
const metro = siteOf('metro-motor-group');
const harbour = siteOf('harbour-used-cars');

const enquiry = (name: string) => ({
  name,
  email: `${name.toLowerCase()}@example.com`,
  phone: '0411222333',
  message: 'Is it still available?',
});

describe.each(['sqlite', 'postgres'] as const)('the dealer data store on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore(engine);
    await migrateToLatest(store.db, store.engine);
    await seedDemoDataIfEmpty(store.db, now);
  });
  afterAll(async () => {
    await store?.close();
  });

  it('opens the engine it was asked for', () => {
    expect(store.engine).toBe(engine);
  });

  it('can run the migrations again on a store already up to date, keeping every dealer', async () => {
    await expect(migrateToLatest(store.db, store.engine)).resolves.toBeUndefined();
    await expect(migrateToLatest(store.db, store.engine)).resolves.toBeUndefined();
    expect(await siteCount(store.db)).toBe(10);
  });

  it('seeds the demo dealers only once', async () => {
    expect(await seedDemoDataIfEmpty(store.db, now)).toBe(false);
    expect(await siteCount(store.db)).toBe(10);
    expect((await listSiteSlugs(store.db)).map((site) => site.slug)).toEqual(demo.sites.map((site) => site.slug));
  });

  it('gives back the Metro Motor Group config exactly as generated, locations and remote switches included', async () => {
    const stored = await loadSiteConfig(store.db, metro.id);
    expect(stored).toEqual(metro);
    expect(stored?.locations).toHaveLength(25);
    expect(stored?.remotes.every((remote) => remote.enabled && remote.version === null)).toBe(true);
  });

  it('gives back every dealer config as generated, with its remotes switched on or off as seeded', async () => {
    for (const site of demo.sites) expect(await loadSiteConfig(store.db, site.id), site.slug).toEqual(site);
  });

  it("keeps each dealer's stock under that dealer", async () => {
    for (const site of demo.sites) expect(await carCount(store.db, site.id), site.slug).toBe(carsOf(site).length);
    const harbourCar = carsOf(harbour)[0]!;
    expect(await findCarBySlug(store.db, harbour.id, harbourCar.slug)).toEqual(harbourCar);
    expect(await findCarBySlug(store.db, metro.id, harbourCar.slug)).toBeNull();
  });

  it('switches a remote off, on and pins it to a version, for one dealer only', async () => {
    const remoteOf = async (siteId: number, name: string) =>
      (await loadSiteConfig(store.db, siteId))?.remotes.find((remote) => remote.name === name);

    await setSiteRemote(store.db, metro.id, 'mf-checkout', { enabled: false });
    expect(await remoteOf(metro.id, 'mf-checkout')).toEqual({ name: 'mf-checkout', enabled: false, version: null });
    expect((await remoteOf(harbour.id, 'mf-checkout'))?.enabled).toBe(true);

    await setSiteRemote(store.db, metro.id, 'mf-checkout', { version: '2.1.0' });
    expect(await remoteOf(metro.id, 'mf-checkout')).toEqual({ name: 'mf-checkout', enabled: false, version: '2.1.0' });

    await setSiteRemote(store.db, metro.id, 'mf-checkout', { enabled: true });
    expect(await remoteOf(metro.id, 'mf-checkout')).toEqual({ name: 'mf-checkout', enabled: true, version: '2.1.0' });

    await setSiteRemote(store.db, metro.id, 'mf-checkout', { version: null });
    expect(await remoteOf(metro.id, 'mf-checkout')).toEqual({ name: 'mf-checkout', enabled: true, version: null });
    expect(await loadSiteConfig(store.db, metro.id)).toEqual(metro);
  });

  it('switches on a remote a dealer never had a setting for', async () => {
    const site = siteOf('toyota-demo');
    await store.db.deleteFrom('site_remotes').where('site_id', '=', site.id).where('remote', '=', 'mf-chat').execute();
    expect((await loadSiteConfig(store.db, site.id))?.remotes.find((remote) => remote.name === 'mf-chat')?.enabled).toBe(false);
    await setSiteRemote(store.db, site.id, 'mf-chat', { enabled: true });
    expect((await loadSiteConfig(store.db, site.id))?.remotes.find((remote) => remote.name === 'mf-chat')).toEqual({
      name: 'mf-chat',
      enabled: true,
      version: null,
    });
  });

  describe('leads', () => {
    const t0 = 1_750_000_000_000;

    it('stores an enquiry and lists it for its dealer, newest filters applied', async () => {
      const first = await createLead(
        store.db,
        { siteId: metro.id, category: 'General Enquiry', leadStatus: 'New', payload: enquiry('Jane'), idempotencyKey: null },
        t0,
      );
      const partial = await createLead(
        store.db,
        { siteId: metro.id, category: 'Finance Enquiry', leadStatus: 'Incomplete', payload: enquiry('Ari'), idempotencyKey: null },
        t0 + 60_000,
      );
      expect(first.created).toBe(true);
      expect(first.lead).toMatchObject({
        site_id: metro.id,
        category: 'General Enquiry',
        lead_status: 'New',
        payload: enquiry('Jane'),
        created_at: t0,
        updated_at: t0,
      });
      expect(typeof first.lead.id).toBe('number');
      expect(partial.lead.id).toBeGreaterThan(first.lead.id);

      const all = await listLeads(store.db, metro.id);
      expect(all.map((lead) => lead.id)).toEqual(expect.arrayContaining([first.lead.id, partial.lead.id]));
      expect(all.find((lead) => lead.id === first.lead.id)).toEqual(first.lead);

      const since = await listLeads(store.db, metro.id, { since: t0 + 1 });
      expect(since.map((lead) => lead.id)).toContain(partial.lead.id);
      expect(since.map((lead) => lead.id)).not.toContain(first.lead.id);
      expect(since.every((lead) => lead.created_at >= t0 + 1)).toBe(true);

      const incomplete = await listLeads(store.db, metro.id, { status: 'Incomplete' });
      expect(incomplete.map((lead) => lead.id)).toContain(partial.lead.id);
      expect(incomplete.every((lead) => lead.lead_status === 'Incomplete')).toBe(true);

      const exactSince = await listLeads(store.db, metro.id, { since: t0 + 60_000, status: 'Incomplete' });
      expect(exactSince.map((lead) => lead.id)).toContain(partial.lead.id);
    });

    it("never gives one dealer's leads to another dealer", async () => {
      const mine = await createLead(
        store.db,
        { siteId: harbour.id, category: 'General Enquiry', leadStatus: 'New', payload: enquiry('Harbour'), idempotencyKey: null },
        t0,
      );
      const metroLeads = await listLeads(store.db, metro.id);
      expect(metroLeads.length).toBeGreaterThan(0);
      expect(metroLeads.every((lead) => lead.site_id === metro.id)).toBe(true);
      expect(metroLeads.map((lead) => lead.id)).not.toContain(mine.lead.id);
      const harbourLeads = await listLeads(store.db, harbour.id);
      expect(harbourLeads.map((lead) => lead.id)).toEqual([mine.lead.id]);
    });

    it('keeps a retried enquiry as one lead', async () => {
      const once = await createLead(
        store.db,
        { siteId: metro.id, category: 'General Enquiry', leadStatus: 'New', payload: enquiry('Retry'), idempotencyKey: 'retry-1' },
        t0,
      );
      const again = await createLead(
        store.db,
        { siteId: metro.id, category: 'General Enquiry', leadStatus: 'New', payload: enquiry('Retry changed'), idempotencyKey: 'retry-1' },
        t0 + 5_000,
      );
      expect(once.created).toBe(true);
      expect(again.created).toBe(false);
      expect(again.lead).toEqual(once.lead);
      const rows = await store.db.selectFrom('leads').select('id').where('idempotency_key', '=', 'retry-1').execute();
      expect(rows).toHaveLength(1);
    });

    it('keeps a double-submitted enquiry as one lead when both arrive at once', async () => {
      const results = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          createLead(
            store.db,
            {
              siteId: metro.id,
              category: 'General Enquiry',
              leadStatus: 'New',
              payload: enquiry(`Twin${i}`),
              idempotencyKey: 'double-click',
            },
            t0 + i,
          ),
        ),
      );
      expect(results.filter((result) => result.created)).toHaveLength(1);
      expect(new Set(results.map((result) => result.lead.id)).size).toBe(1);
      const rows = await store.db.selectFrom('leads').select('id').where('idempotency_key', '=', 'double-click').execute();
      expect(rows.map((row) => Number(row.id))).toEqual([results[0]!.lead.id]);
    });

    it('lets two dealers use the same idempotency key without sharing a lead', async () => {
      const a = await createLead(
        store.db,
        { siteId: metro.id, category: 'General Enquiry', leadStatus: 'New', payload: enquiry('Same'), idempotencyKey: 'shared-key' },
        t0,
      );
      const b = await createLead(
        store.db,
        { siteId: harbour.id, category: 'General Enquiry', leadStatus: 'New', payload: enquiry('Same'), idempotencyKey: 'shared-key' },
        t0,
      );
      expect(b.created).toBe(true);
      expect(b.lead.id).not.toBe(a.lead.id);
      expect(b.lead.site_id).toBe(harbour.id);
    });
  });

  describe('events', () => {
    it('records remote failures and analytics events per dealer, filterable by category', async () => {
      const at = 1_750_000_100_000;
      await recordEvent(
        store.db,
        {
          siteId: metro.id,
          category: 'remote-error',
          url: '/cars/x',
          errorMessage: 'mf-vehicle failed',
          payload: { remote: 'mf-vehicle' },
        },
        at,
      );
      await recordEvent(store.db, { siteId: metro.id, category: 'page-view', url: '/', errorMessage: null, payload: {} }, at + 1);
      await recordEvent(
        store.db,
        { siteId: harbour.id, category: 'remote-error', url: '/', errorMessage: 'harbour only', payload: {} },
        at + 2,
      );
      await recordEvent(store.db, { siteId: null, category: 'remote-error', url: null, errorMessage: 'no site', payload: {} }, at + 3);

      const events = await listEvents(store.db, metro.id);
      expect(events).toEqual([
        { id: expect.any(Number), category: 'page-view', url: '/', error_message: null, created_at: at + 1 },
        { id: expect.any(Number), category: 'remote-error', url: '/cars/x', error_message: 'mf-vehicle failed', created_at: at },
      ]);
      const errors = await listEvents(store.db, metro.id, 'remote-error');
      expect(errors.map((event) => event.error_message)).toEqual(['mf-vehicle failed']);
      expect((await listEvents(store.db, harbour.id)).map((event) => event.error_message)).toEqual(['harbour only']);
    });
  });
});
