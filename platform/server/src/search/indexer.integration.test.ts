import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Meilisearch, type RecordAny } from 'meilisearch';
import type { Car } from '@dealer/contracts/car';
import type { PublicSiteConfig, SiteConfig } from '@dealer/contracts/site';
import { isListedInSearch } from '@dealer/rules/tags';
import { insertCars, listSiteCars } from '@dealer/db/car-store';
import { findSiteIdBySlug, loadSiteConfig } from '@dealer/db/site-store';
import { createTestPlatform, testAdminKey, testSearchAdminKey, type TestPlatform } from '../testing/test-platform';
import { carsIndexUid } from './site-search';
import { apiError } from '@dealer/testing/meili-api-error';

/**
 * The platform's search, driven only through the official Meilisearch client over HTTP, as the
 * indexer and the browsers use it. The same suite runs against:
 * - the embedded engine: the platform listening on a random loopback port, its `/meili` API;
 * - a real Meilisearch when MEILISEARCH_URL, MEILISEARCH_MASTER_KEY, MEILISEARCH_SEARCH_KEY and
 *   MEILISEARCH_SEARCH_KEY_UID are set (skipped otherwise): the platform indexes into it and hands
 *   browsers tenant tokens. It writes the `cars` index and a scratch index: use a throwaway server.
 */

type Target = { name: string; env: NodeJS.ProcessEnv | null; real: boolean };
const realEnv = ['MEILISEARCH_URL', 'MEILISEARCH_MASTER_KEY', 'MEILISEARCH_SEARCH_KEY', 'MEILISEARCH_SEARCH_KEY_UID'] as const;
const targets: Target[] = [
  { name: 'the embedded engine', env: {}, real: false },
  {
    name: 'a real Meilisearch',
    env: realEnv.every((name) => process.env[name]) ? Object.fromEntries(realEnv.map((name) => [name, process.env[name]])) : null,
    real: true,
  },
];

const day = 86_400;
const nowSeconds = () => Math.floor(Date.now() / 1000);
type CarHit = Car & { site_id: number };

const countBy = (cars: Car[], field: keyof Car) =>
  cars.reduce<Record<string, number>>((counts, car) => ({ ...counts, [String(car[field])]: (counts[String(car[field])] ?? 0) + 1 }), {});
const sortedIds = (items: { id: number }[]) => items.map((item) => item.id).sort((a, b) => a - b);

describe.each(targets)('search through the official Meilisearch client, on $name', (target) => {
  if (!target.env) {
    it.skip(`needs ${realEnv.join(', ')} (not set)`, () => {});
    return;
  }
  const env = target.env;
  let platform: TestPlatform;
  let baseUrl: string;
  let port: number;
  /** The indexer's view: the search admin key (embedded) or the master key (real). */
  let admin: Meilisearch;
  let metro: SiteConfig;
  let harbour: SiteConfig;
  let toyota: SiteConfig;

  beforeAll(async () => {
    // These searches read a site's whole stock with its browser key, past what one public request may ask for.
    platform = await createTestPlatform({ env: { ...env, SEARCH_PUBLIC_MAX_HITS: '5000' } });
    await platform.app.listen({ port: 0, host: '127.0.0.1' });
    port = (platform.app.server.address() as AddressInfo).port;
    baseUrl = `http://127.0.0.1:${port}`;
    admin = target.real
      ? new Meilisearch({ host: env.MEILISEARCH_URL!, apiKey: env.MEILISEARCH_MASTER_KEY! })
      : new Meilisearch({ host: `${baseUrl}/meili`, apiKey: testSearchAdminKey });
    const site = async (slug: string) => (await loadSiteConfig(platform.ctx.db, (await findSiteIdBySlug(platform.ctx.db, slug))!))!;
    [metro, harbour, toyota] = await Promise.all([site('metro-motor-group'), site('harbour-used-cars'), site('toyota-demo')]);
  });
  afterAll(async () => {
    await platform?.close();
  });

  /** The search access a site's page hands its browser (`/api/site`), as a client. */
  async function siteClient(slug: string): Promise<Meilisearch> {
    const res = await platform.app.inject({ url: '/api/site', headers: { host: `${slug}.localhost:${port}` } });
    expect(res.statusCode).toBe(200);
    const { search } = res.json<PublicSiteConfig>();
    expect(search.indexUid).toBe(carsIndexUid);
    if (target.real) {
      expect(search.host).toBe(env.MEILISEARCH_URL!.replace(/\/$/, ''));
      return new Meilisearch({ host: search.host, apiKey: search.apiKey });
    }
    // The browser reaches `/meili` on its own site's origin; this machine may not resolve *.localhost.
    expect(search.host).toBe(`http://${slug}.localhost:${port}/meili`);
    return new Meilisearch({ host: `${baseUrl}/meili`, apiKey: search.apiKey });
  }

  /** What a shopper should find on a site, worked out from the store (the stock filters of the demo sites leave their stock whole). */
  async function listedCars(site: SiteConfig): Promise<Car[]> {
    return (await listSiteCars(platform.ctx.db, site.id)).filter((car) => isListedInSearch(car, site.include_sold_cars_days, nowSeconds()));
  }

  // -------------------------------------------------------------------------------------------
  describe('what the indexer does, with the admin key', () => {
    const scratch = `scratch_${randomBytes(4).toString('hex')}`;
    const docs = [
      { id: 1, name: 'Toyota HiLux SR5', make: 'Toyota', price: 45990, yard: 'north' },
      { id: 2, name: 'Mazda CX-5 Touring', make: 'Mazda', price: 38990, yard: 'south' },
      { id: 3, name: 'Toyota Corolla Ascent', make: 'Toyota', price: 27990, yard: 'south' },
      { id: 4, name: 'Kia Sportage GT-Line', make: 'Kia', price: 41990, yard: 'north' },
    ];
    afterAll(async () => {
      await admin?.deleteIndexIfExists(scratch).catch(() => false);
    });

    it('answers its health check without a key, and its version with one', async () => {
      expect(await new Meilisearch({ host: target.real ? env.MEILISEARCH_URL! : `${baseUrl}/meili` }).health()).toEqual({
        status: 'available',
      });
      expect((await admin.getVersion()).pkgVersion).toMatch(/^\d+\.\d+/);
    });

    it('asks for a key, and refuses a wrong one', async () => {
      const host = target.real ? env.MEILISEARCH_URL! : `${baseUrl}/meili`;
      expect(await apiError(new Meilisearch({ host }).getIndexes())).toMatchObject({
        status: 401,
        code: 'missing_authorization_header',
        type: 'auth',
      });
      expect(await apiError(new Meilisearch({ host, apiKey: 'not-the-admin-key-0123456789' }).getIndexes())).toMatchObject({
        status: 403,
        code: 'invalid_api_key',
        type: 'auth',
      });
    });

    it('creates an index, and fails the task (not the request) that creates it twice', async () => {
      const enqueued = await admin.createIndex(scratch, { primaryKey: 'id' });
      expect(enqueued).toMatchObject({
        taskUid: expect.any(Number),
        indexUid: scratch,
        status: 'enqueued',
        type: 'indexCreation',
        enqueuedAt: expect.any(String),
      });
      expect(await admin.tasks.waitForTask(enqueued)).toMatchObject({
        uid: enqueued.taskUid,
        indexUid: scratch,
        status: 'succeeded',
        type: 'indexCreation',
        error: null,
      });
      expect((await admin.getIndex(scratch)).primaryKey).toBe('id');
      expect((await admin.getRawIndexes({ limit: 1000 })).results.map((index) => index.uid)).toContain(scratch);

      const again = await admin.createIndex(scratch, { primaryKey: 'id' }).waitTask();
      expect(again.status).toBe('failed');
      expect(again.error).toMatchObject({ code: 'index_already_exists', type: 'invalid_request' });
    });

    it('pushes settings, all at once and one list at a time', async () => {
      const index = admin.index(scratch);
      const task = await index
        .updateSettings({ filterableAttributes: ['make', 'price'], sortableAttributes: ['price'], searchableAttributes: ['name'] })
        .waitTask();
      expect(task).toMatchObject({ status: 'succeeded', type: 'settingsUpdate' });
      expect(await index.getSettings()).toMatchObject({
        filterableAttributes: ['make', 'price'],
        sortableAttributes: ['price'],
        searchableAttributes: ['name'],
      });

      expect((await index.updateFilterableAttributes(['make', 'price', 'yard']).waitTask()).status).toBe('succeeded');
      expect((await index.updateSortableAttributes(['name', 'price']).waitTask()).status).toBe('succeeded');
      expect((await index.updateSearchableAttributes(['name', 'make']).waitTask()).status).toBe('succeeded');
      expect(await index.getFilterableAttributes()).toEqual(['make', 'price', 'yard']);
      expect(await index.getSortableAttributes()).toEqual(['name', 'price']);
      expect(await index.getSearchableAttributes()).toEqual(['name', 'make']);
    });

    it('adds documents, pages through them and gives one back', async () => {
      const index = admin.index(scratch);
      const enqueued = await index.addDocuments(docs);
      expect(enqueued).toMatchObject({ indexUid: scratch, status: 'enqueued', type: 'documentAdditionOrUpdate' });
      const task = await admin.tasks.waitForTask(enqueued.taskUid);
      expect(task).toMatchObject({
        uid: enqueued.taskUid,
        status: 'succeeded',
        details: { receivedDocuments: 4, indexedDocuments: 4 },
        error: null,
      });
      expect(task.finishedAt).toEqual(expect.any(String));

      const page = await index.getDocuments({ limit: 2, offset: 1 });
      expect(page).toMatchObject({ total: 4, limit: 2, offset: 1 });
      expect(page.results).toHaveLength(2);
      expect(await index.getDocument(2)).toEqual(docs[1]);
      expect(await index.getDocument(2, { fields: ['name'] })).toEqual({ name: 'Mazda CX-5 Touring' });
      const toyotas = await index.getDocuments<RecordAny>({ filter: 'make = Toyota', fields: ['id'] });
      expect(toyotas.results.map((doc) => doc.id as number).sort()).toEqual([1, 3]);
    });

    it('updates only the fields given of a document already there', async () => {
      const index = admin.index(scratch);
      expect((await index.updateDocuments([{ id: 2, price: 36990 }]).waitTask()).status).toBe('succeeded');
      expect(await index.getDocument(2)).toEqual({ ...docs[1], price: 36990 });
    });

    it('searches what it indexed, unscoped, with filters and sort', async () => {
      const index = admin.index(scratch);
      const found = await index.search('toyota', { filter: 'price > 30000' });
      expect(found.hits.map((hit) => hit.id)).toEqual([1]);
      const cheapestFirst = await index.search('', { sort: ['price:asc'] });
      expect(cheapestFirst.hits.map((hit) => hit.id)).toEqual([3, 2, 4, 1]);
    });

    it('fails the task of a document without its id, or with an id it cannot take, and keeps the rest', async () => {
      const index = admin.index(scratch);
      const missing = await index.addDocuments([{ name: 'No id' } as never]).waitTask();
      expect(missing).toMatchObject({ status: 'failed', error: { code: 'missing_document_id' } });
      const invalid = await index.addDocuments([{ id: 'not valid!', name: 'Bad id' } as never]).waitTask();
      expect(invalid).toMatchObject({ status: 'failed', error: { code: 'invalid_document_id' } });
      expect((await index.getDocuments()).total).toBe(4);
    });

    it('lists its tasks newest first, page by page, and gives one by uid', async () => {
      const first = await admin.tasks.getTasks({ indexUids: [scratch], limit: 2 });
      expect(first.results).toHaveLength(2);
      expect(first.results[0]!.uid).toBeGreaterThan(first.results[1]!.uid);
      expect(first.next).toEqual(expect.any(Number));
      const second = await admin.tasks.getTasks({ indexUids: [scratch], limit: 2, from: first.next! });
      expect(second.results[0]!.uid).toBe(first.next);
      const failed = await admin.tasks.getTasks({ indexUids: [scratch], statuses: ['failed'] });
      expect(failed.results.length).toBeGreaterThanOrEqual(3);
      expect(failed.results.every((task) => task.status === 'failed' && task.error !== null)).toBe(true);

      const one = await admin.tasks.getTask(first.results[0]!.uid);
      expect(one).toMatchObject({
        uid: first.results[0]!.uid,
        indexUid: scratch,
        enqueuedAt: expect.any(String),
        startedAt: expect.any(String),
        finishedAt: expect.any(String),
      });
      expect(await apiError(admin.tasks.getTask(987_654_321))).toMatchObject({ status: 404, code: 'task_not_found' });
    });

    it('deletes documents: one, by ids, by filter, then all', async () => {
      const index = admin.index(scratch);
      expect((await index.deleteDocument(1).waitTask()).status).toBe('succeeded');
      expect(await apiError(index.getDocument(1))).toMatchObject({ status: 404, code: 'document_not_found' });
      expect((await index.deleteDocuments([2]).waitTask()).status).toBe('succeeded');
      expect(sortedIds((await index.getDocuments<{ id: number }>()).results)).toEqual([3, 4]);

      await index.addDocuments([docs[0]!, docs[1]!]).waitTask();
      const byFilter = await index.deleteDocuments({ filter: 'make = Toyota' }).waitTask();
      expect(byFilter).toMatchObject({ status: 'succeeded', type: 'documentDeletion', details: { deletedDocuments: 2 } });
      expect(sortedIds((await index.getDocuments<{ id: number }>()).results)).toEqual([2, 4]);

      expect((await index.deleteAllDocuments().waitTask()).status).toBe('succeeded');
      expect((await index.getDocuments()).total).toBe(0);
    });

    it('deletes the index, and fails the task that deletes it again', async () => {
      expect((await admin.deleteIndex(scratch).waitTask()).status).toBe('succeeded');
      expect(await apiError(admin.getIndex(scratch))).toMatchObject({ status: 404, code: 'index_not_found' });
      expect(await admin.deleteIndex(scratch).waitTask()).toMatchObject({ status: 'failed', error: { code: 'index_not_found' } });
    });

    it("holds every site's listed and unlisted cars in the cars index, put there by the indexer at start", async () => {
      const stats = await admin.index(carsIndexUid).getDocuments({ limit: 1, filter: `site_id = ${harbour.id}` });
      expect(stats.total).toBe((await listSiteCars(platform.ctx.db, harbour.id)).length);
      expect((await admin.index(carsIndexUid).getSettings()).sortableAttributes).toEqual(expect.arrayContaining(['custom_rank', 'price']));
    });
  });

  // -------------------------------------------------------------------------------------------
  describe("a site's search, with the key its pages hand the browser", () => {
    let harbourSearch: Meilisearch;
    let metroSearch: Meilisearch;
    beforeAll(async () => {
      [harbourSearch, metroSearch] = await Promise.all([siteClient('harbour-used-cars'), siteClient('metro-motor-group')]);
    });
    const cars = () => harbourSearch.index<CarHit>(carsIndexUid);

    it('finds every car the dealer lists, and no other', async () => {
      const listed = await listedCars(harbour);
      expect(listed.length).toBeGreaterThan(40);
      const result = await cars().search('', { limit: 1000 });
      expect(result.estimatedTotalHits).toBe(listed.length);
      expect(sortedIds(result.hits)).toEqual(sortedIds(listed));
      expect(result.hits.every((hit) => hit.site_id === harbour.id)).toBe(true);
    });

    it('filters: equality, ranges, and the array form (outer AND, inner OR)', async () => {
      const listed = await listedCars(harbour);
      const make = listed[0]!.make;
      const byMake = await cars().search('', { filter: `make = "${make}"`, limit: 1000 });
      expect(sortedIds(byMake.hits)).toEqual(sortedIds(listed.filter((car) => car.make === make)));

      const range = await cars().search('', { filter: 'price 20000 TO 30000', limit: 1000 });
      expect(sortedIds(range.hits)).toEqual(sortedIds(listed.filter((car) => car.price >= 20000 && car.price <= 30000)));

      const [a, b] = [...new Set(listed.map((car) => car.simple_body))];
      const either = await cars().search('', { filter: [[`simple_body = "${a}"`, `simple_body = "${b}"`], 'km < 100000'], limit: 1000 });
      expect(sortedIds(either.hits)).toEqual(
        sortedIds(listed.filter((car) => (car.simple_body === a || car.simple_body === b) && car.km < 100000)),
      );
    });

    it('counts facets over every matching car, with min and max of numbers', async () => {
      const listed = await listedCars(harbour);
      const result = await cars().search('', { facets: ['make', 'car_type', 'price'], limit: 1 });
      expect(result.hits).toHaveLength(1);
      expect(result.facetDistribution?.make).toEqual(countBy(listed, 'make'));
      expect(result.facetDistribution?.car_type).toEqual(countBy(listed, 'car_type'));
      const prices = listed.map((car) => car.price);
      expect(result.facetStats?.price).toEqual({ min: Math.min(...prices), max: Math.max(...prices) });
    });

    it('sorts, and pages by offset and by page the same way', async () => {
      const all = (await cars().search('', { sort: ['price:asc'], limit: 1000 })).hits;
      const prices = all.map((hit) => hit.price);
      expect(prices).toEqual([...prices].sort((x, y) => x - y));
      const byKm = (await cars().search('', { sort: ['km:desc'], limit: 1000 })).hits.map((hit) => hit.km);
      expect(byKm).toEqual([...byKm].sort((x, y) => y - x));

      const offsetPage = await cars().search('', { sort: ['price:asc'], limit: 10, offset: 10 });
      expect(offsetPage.hits.map((hit) => hit.id)).toEqual(all.slice(10, 20).map((hit) => hit.id));
      const numbered = await cars().search('', { sort: ['price:asc'], hitsPerPage: 10, page: 2 });
      expect(numbered).toMatchObject({ page: 2, hitsPerPage: 10, totalHits: all.length, totalPages: Math.ceil(all.length / 10) });
      expect(numbered.hits.map((hit) => hit.id)).toEqual(offsetPage.hits.map((hit) => hit.id));
    });

    it('finds cars by the words of their name', async () => {
      const listed = await listedCars(harbour);
      const model = listed.find((car) => /^[A-Za-z]{4,}$/.test(car.model))!.model;
      const result = await cars().search(model, { limit: 1000 });
      expect(result.hits.length).toBeGreaterThan(0);
      expect(result.hits.every((hit) => `${hit.name} ${hit.model}`.toLowerCase().includes(model.toLowerCase()))).toBe(true);
    });

    it('answers a multi-search query by query, as the search page asks it', async () => {
      const listed = await listedCars(harbour);
      const { results } = await harbourSearch.multiSearch({
        queries: [
          { indexUid: carsIndexUid, facets: ['make'], limit: 1 },
          { indexUid: carsIndexUid, filter: ['car_type = used'], limit: 0 },
        ],
      });
      expect(results).toHaveLength(2);
      expect(results[0]!.hits).toHaveLength(1);
      expect(results[0]!.estimatedTotalHits).toBe(listed.length);
      expect(results[1]!.estimatedTotalHits).toBe(listed.filter((car) => car.car_type === 'used').length);
    });

    it("reports a search it cannot run as the client's MeilisearchApiError with Meilisearch's code", async () => {
      expect(await apiError(cars().search('', { filter: 'make Toyota' }))).toMatchObject({
        status: 400,
        code: 'invalid_search_filter',
        type: 'invalid_request',
      });
      expect(await apiError(cars().search('', { filter: 'vin = X' }))).toMatchObject({ status: 400, code: 'invalid_search_filter' });
      expect(await apiError(cars().search('', { sort: ['name:asc'] }))).toMatchObject({ status: 400, code: 'invalid_search_sort' });
      expect(await apiError(cars().search('', { facets: ['vin'] }))).toMatchObject({ status: 400, code: 'invalid_search_facets' });
      expect(await apiError(admin.index('no_such_index').search(''))).toMatchObject({ status: 404, code: 'index_not_found' });
    });

    describe("kept to the dealer's own stock", () => {
      const otherIndex = `scratch_${randomBytes(4).toString('hex')}`;
      beforeAll(async () => {
        await admin.createIndex(otherIndex, { primaryKey: 'id' }).waitTask();
        await admin
          .index(otherIndex)
          .addDocuments([{ id: 1, note: 'not for browsers' }])
          .waitTask();
      });
      afterAll(async () => {
        await admin?.deleteIndexIfExists(otherIndex).catch(() => false);
      });

      it("never shows another dealer's car, whatever filter tries to widen the search", async () => {
        const metroCars = metroSearch.index<CarHit>(carsIndexUid);
        const count = async (filter: string | (string | string[])[]) =>
          (await metroCars.search('', { filter, limit: 0 })).estimatedTotalHits;
        expect(await count(`site_id = ${harbour.id}`)).toBe(0);
        expect(await count(`site_id != ${metro.id}`)).toBe(0);
        expect(await count(`dealership_id IN [${harbour.dealerships.map((dealership) => dealership.id).join(', ')}]`)).toBe(0);
        expect(await count(`site_id = ${harbour.id} OR site_id = ${metro.id} OR show_on_dealer_website = false`)).toBe(
          await count(`site_id = ${metro.id}`),
        );
        const either = await metroCars.search('', { filter: [[`site_id = ${harbour.id}`, `site_id = ${metro.id}`]], limit: 50 });
        expect(either.hits.length).toBe(50);
        expect(either.hits.every((hit) => hit.site_id === metro.id)).toBe(true);
      });

      it('never shows a car hidden from the website or sold before the sold-cars window', async () => {
        const metroCars = metroSearch.index<CarHit>(carsIndexUid);
        const soldSince = nowSeconds() - metro.include_sold_cars_days * day;
        expect((await metroCars.search('', { filter: 'show_on_dealer_website = false', limit: 0 })).estimatedTotalHits).toBe(0);
        expect(
          (await metroCars.search('', { filter: `status = sold AND sold_date_timestamp < ${soldSince - 60}`, limit: 0 }))
            .estimatedTotalHits,
        ).toBe(0);
      });

      it("finds a car by its VIN only on its own dealer's site", async () => {
        const car = (await listedCars(harbour))[0]!;
        expect((await cars().search(car.vin)).hits.map((hit) => hit.id)).toContain(car.id);
        expect((await metroSearch.index<CarHit>(carsIndexUid).search(car.vin)).hits.map((hit) => hit.id)).not.toContain(car.id);
      });

      it('searches the cars index only', async () => {
        expect(await apiError(metroSearch.index(otherIndex).search(''))).toMatchObject({ status: 403, code: 'invalid_api_key' });
      });

      it('cannot call what the indexer calls: a site key is refused as an invalid API key', async () => {
        const before = (await admin.index(carsIndexUid).getDocuments({ limit: 1 })).total;
        const someId = (await listedCars(metro))[0]!.id;
        const refused: (() => Promise<unknown>)[] = [
          () => metroSearch.getIndexes(),
          () => metroSearch.getIndex(carsIndexUid),
          () => metroSearch.createIndex('stolen', { primaryKey: 'id' }),
          () => metroSearch.index(carsIndexUid).getDocuments(),
          () => metroSearch.index(carsIndexUid).getDocument(someId),
          () => metroSearch.index(carsIndexUid).addDocuments([{ id: 1, name: 'Free car' }]),
          () => metroSearch.index(carsIndexUid).updateDocuments([{ id: someId, price: 1 }]),
          () => metroSearch.index(carsIndexUid).deleteDocument(someId),
          () => metroSearch.index(carsIndexUid).deleteAllDocuments(),
          () => metroSearch.index(carsIndexUid).updateSettings({ filterableAttributes: [] }),
          () => metroSearch.index(carsIndexUid).getSettings(),
          () => metroSearch.deleteIndex(carsIndexUid),
          () => metroSearch.tasks.getTasks(),
        ];
        for (const call of refused)
          expect(await apiError(call()), call.toString()).toMatchObject({ status: 403, code: 'invalid_api_key', type: 'auth' });
        expect((await admin.index(carsIndexUid).getDocuments({ limit: 1 })).total).toBe(before);
        expect((await admin.index(carsIndexUid).getDocument(someId)).price).not.toBe(1);
      });
    });
  });

  // -------------------------------------------------------------------------------------------
  describe("a manufacturer's site, with its stock filter", () => {
    const otherMakeId = 990_301;
    const newCarId = 990_302;
    afterAll(async () => {
      await platform.ctx.db.deleteFrom('cars').where('id', 'in', [otherMakeId, newCarId]).execute();
      await platform.ctx.indexer.indexSite(toyota.id);
    });

    it('shows Toyota pre-owned stock only, even when the feed sends another make or a new car', async () => {
      expect(toyota.manufacturer).toBe('Toyota');
      expect(toyota.stock_filter_code).toBe(4);
      const search = (await siteClient('toyota-demo')).index<CarHit>(carsIndexUid);
      const before = await search.search('', { facets: ['make', 'car_type'], limit: 0 });
      expect(Object.keys(before.facetDistribution?.make ?? {})).toEqual(['Toyota']);
      expect(Object.keys(before.facetDistribution?.car_type ?? {}).sort()).toEqual(['demo', 'used']);

      const template = (await listedCars(toyota)).find((car) => car.status === 'in_stock' && !car.sold)!;
      await insertCars(platform.ctx.db, toyota.id, [
        { ...template, id: otherMakeId, slug: `test-other-make-${otherMakeId}`, stocknum: `T${otherMakeId}`, make: 'Mazda', model: 'CX-5' },
        { ...template, id: newCarId, slug: `test-new-${newCarId}`, stocknum: `T${newCarId}`, car_type: 'new' },
      ]);
      await platform.ctx.indexer.indexSite(toyota.id);
      // In the index (the admin key sees them) but never on the site.
      expect((await admin.index(carsIndexUid).getDocument(otherMakeId)).make).toBe('Mazda');
      expect((await admin.index(carsIndexUid).getDocument(newCarId)).car_type).toBe('new');
      const after = await search.search('', { filter: `id IN [${otherMakeId}, ${newCarId}] OR make = Mazda OR car_type = new`, limit: 10 });
      expect(after.estimatedTotalHits).toBe(0);
      expect((await search.search('', { limit: 0 })).estimatedTotalHits).toBe(before.estimatedTotalHits);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe("a dealer's change to a car, seen by the next search", () => {
    let search: Meilisearch;
    let cars: Car[];
    beforeAll(async () => {
      search = await siteClient('harbour-used-cars');
      cars = (await listedCars(harbour)).filter((car) => car.status === 'in_stock' && !car.sold && !car.reserved);
      expect(cars.length).toBeGreaterThan(5);
    });

    const patchCar = async (id: number, change: Record<string, unknown>) => {
      const res = await fetch(`${baseUrl}/api/admin/cars/${id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${testAdminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(change),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { car: Car; searchUpdated: boolean };
      expect(body.searchUpdated).toBe(true);
      return body.car;
    };
    const find = async (id: number) => (await search.index<CarHit>(carsIndexUid).search('', { filter: `id = ${id}` })).hits;

    it('shows a new price on the next search, within a second', async () => {
      const car = cars[0]!;
      const started = performance.now();
      await patchCar(car.id, { price: car.price - 1000, before_price: car.price });
      const [hit] = await find(car.id);
      expect(performance.now() - started).toBeLessThan(1000);
      expect(hit).toMatchObject({ id: car.id, price: car.price - 1000, before_price: car.price });
    });

    it('takes a car sold before the sold-cars window off the site', async () => {
      const car = cars[1]!;
      const saved = await patchCar(car.id, { status: 'sold', sold_date_timestamp: nowSeconds() - 30 * day });
      expect(saved).toMatchObject({ status: 'sold', sold: true });
      expect(await find(car.id)).toEqual([]);
    });

    it('keeps a car sold just now on the site as sold, for the sold-cars window', async () => {
      const car = cars[2]!;
      const started = nowSeconds();
      await patchCar(car.id, { sold: true });
      const [hit] = await find(car.id);
      expect(hit).toMatchObject({ id: car.id, status: 'sold', sold: true });
      expect(hit!.sold_date_timestamp).toBeGreaterThanOrEqual(started);
    });

    it('keeps a reserved car on the site, marked reserved', async () => {
      const car = cars[3]!;
      await patchCar(car.id, { reserved: true, tag: 'Special' });
      expect(await find(car.id)).toEqual([expect.objectContaining({ id: car.id, reserved: true, tag: 'Special', status: 'in_stock' })]);
    });

    it('takes a car hidden from the website off it, and brings it back', async () => {
      const car = cars[4]!;
      await patchCar(car.id, { show_on_dealer_website: false });
      expect(await find(car.id)).toEqual([]);
      await patchCar(car.id, { show_on_dealer_website: true });
      expect((await find(car.id)).map((hit) => hit.id)).toEqual([car.id]);
    });
  });
});
