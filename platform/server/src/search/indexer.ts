import type { EnqueuedTask, EnqueuedTaskPromise, Meilisearch, Task } from 'meilisearch';
import type { Car } from '@dealer/contracts/car';
import type { PlatformDb } from '@dealer/db/database';
import { listSiteCars } from '@dealer/db/car-store';
import { listSiteSlugs, loadSiteConfig } from '@dealer/db/site-store';
import { EmbeddedIndex } from '@dealer/search-engine/embedded-index';
import type { EmbeddedSearchEngine } from '@dealer/search-engine/search-engine';
import { carSearchDocument, carsIndexSettings, carsIndexUid } from './site-search';

export class IndexingError extends Error {}

export type IndexerOptions = {
  /** Cars per documents request. */
  batchSize: number;
  /** How long to wait for a whole-site or settings task (ms). */
  bulkTimeoutMs: number;
  /** How long to wait for a single car's task (ms): the dealer is waiting on it. */
  carTimeoutMs: number;
};

const defaults: IndexerOptions = { batchSize: 500, bulkTimeoutMs: 120_000, carTimeoutMs: 10_000 };

/**
 * The cars index's `pagination` setting. No search reaches past `maxTotalHits` hits (Meilisearch's
 * default is 1000), so it must exceed the biggest site's listed stock or that site's last search
 * pages go empty and its count stops at the cap: the metropolitan group of SPEC §1 lists 1147 cars
 * (24 a page, 48 pages). 5000 leaves room for a few such groups' growth while bounding how deep a
 * browser can page.
 */
export const carsPagination = { maxTotalHits: 5000 };

/**
 * Keeps the `cars` search index in step with the store, through the official Meilisearch client.
 * The same code serves both engines: the client points at a real Meilisearch (MEILISEARCH_URL,
 * master key) or at the platform's embedded engine (its `/meili` API, search admin key).
 * Every write waits for its task, so when a method returns, searches already see the change.
 */
export class StockIndexer {
  private readonly options: IndexerOptions;

  constructor(
    private readonly db: PlatformDb,
    private readonly client: Meilisearch,
    options: Partial<IndexerOptions> = {},
  ) {
    this.options = { ...defaults, ...options };
  }

  private get cars() {
    return this.client.index(carsIndexUid);
  }

  private async waitFor(tasks: EnqueuedTask[], what: string, timeout: number): Promise<Task[]> {
    const done = await this.client.tasks.waitForTasks(tasks, { timeout, interval: 25 });
    const failed = done.find((task) => task.status !== 'succeeded');
    if (failed)
      throw new IndexingError(
        `${what}: task ${failed.uid} ${failed.status}${failed.error ? ` (${failed.error.code}: ${failed.error.message})` : ''}`,
      );
    return done;
  }

  private async settle(pending: EnqueuedTaskPromise, what: string, timeout = this.options.bulkTimeoutMs): Promise<Task> {
    const [task] = await this.waitFor([await pending], what, timeout);
    return task!;
  }

  /** Creates the cars index (primary key `id`) unless it exists, and pushes its settings. */
  async prepareCarsIndex(): Promise<void> {
    const created = await this.client
      .createIndex(carsIndexUid, { primaryKey: 'id' })
      .waitTask({ timeout: this.options.bulkTimeoutMs, interval: 25 });
    if (created.status !== 'succeeded' && created.error?.code !== 'index_already_exists') {
      throw new IndexingError(
        `Creating the ${carsIndexUid} index: task ${created.uid} ${created.status}${created.error ? ` (${created.error.code}: ${created.error.message})` : ''}`,
      );
    }
    const info = await this.cars.getRawInfo();
    if (info.primaryKey && info.primaryKey !== 'id')
      throw new IndexingError(
        `The ${carsIndexUid} index has the primary key \`${info.primaryKey}\`, not \`id\`. Delete it and start again.`,
      );
    await this.settle(
      this.cars.updateSettings({
        filterableAttributes: carsIndexSettings.filterableAttributes,
        sortableAttributes: carsIndexSettings.sortableAttributes,
        searchableAttributes: carsIndexSettings.searchableAttributes,
        pagination: carsPagination,
      }),
      `Pushing the ${carsIndexUid} index settings`,
    );
  }

  /** Every site's stock, from scratch: index and settings first. */
  async indexAllSites(): Promise<{ sites: number; cars: number }> {
    await this.prepareCarsIndex();
    const sites = await listSiteSlugs(this.db);
    let cars = 0;
    for (const site of sites) cars += await this.indexSite(site.id);
    return { sites: sites.length, cars };
  }

  /** Puts a site's cars into the index and takes out the ones that left its stock. Returns how many it holds. */
  async indexSite(siteId: number): Promise<number> {
    const locations = (await loadSiteConfig(this.db, siteId))?.locations;
    const docs = (await listSiteCars(this.db, siteId)).map((car) => carSearchDocument(car, siteId, locations));
    const tasks: EnqueuedTask[] = [];
    for (let start = 0; start < docs.length; start += this.options.batchSize) {
      tasks.push(await this.cars.addDocuments(docs.slice(start, start + this.options.batchSize), { primaryKey: 'id' }));
    }
    // Enqueued after the additions, so Meilisearch applies it after them too.
    const gone = docs.length ? `site_id = ${siteId} AND id NOT IN [${docs.map((doc) => doc.id).join(', ')}]` : `site_id = ${siteId}`;
    tasks.push(await this.cars.deleteDocuments({ filter: gone }));
    await this.waitFor(tasks, `Indexing the stock of site ${siteId}`, this.options.bulkTimeoutMs);
    return docs.length;
  }

  /** One car as it now is in the store (added or replaced). */
  async indexCar(siteId: number, car: Car): Promise<void> {
    const locations = (await loadSiteConfig(this.db, siteId))?.locations;
    await this.settle(
      this.cars.addDocuments([carSearchDocument(car, siteId, locations)], { primaryKey: 'id' }),
      `Indexing car ${car.id}`,
      this.options.carTimeoutMs,
    );
  }

  /** Several cars of a site as they now are in the store (a feed import's batch), in one documents request per batch. */
  async indexCars(siteId: number, cars: Car[]): Promise<void> {
    if (cars.length === 0) return;
    const locations = (await loadSiteConfig(this.db, siteId))?.locations;
    const docs = cars.map((car) => carSearchDocument(car, siteId, locations));
    const tasks: EnqueuedTask[] = [];
    for (let start = 0; start < docs.length; start += this.options.batchSize)
      tasks.push(await this.cars.addDocuments(docs.slice(start, start + this.options.batchSize), { primaryKey: 'id' }));
    await this.waitFor(tasks, `Indexing ${cars.length} cars of site ${siteId}`, this.options.bulkTimeoutMs);
  }

  /** Takes one car out of search. */
  async removeCar(carId: number): Promise<void> {
    await this.settle(this.cars.deleteDocument(carId), `Removing car ${carId} from search`, this.options.carTimeoutMs);
  }
}

// -------------------------------------------------------------------------------------------
// Shortcut for tests and tools that changed the store directly: the platform itself indexes
// through StockIndexer above, over Meilisearch's API.
// -------------------------------------------------------------------------------------------

/** Puts a site's cars from the store into the embedded engine's cars index, creating it when missing. */
export async function reindexSite(search: EmbeddedSearchEngine, db: PlatformDb, siteId: number) {
  const cars = await listSiteCars(db, siteId);
  const locations = (await loadSiteConfig(db, siteId))?.locations;
  let index = search.indexes.get(carsIndexUid);
  if (!index) {
    index = new EmbeddedIndex(carsIndexUid, 'id');
    index.updateSettings({ ...carsIndexSettings, pagination: carsPagination });
    search.indexes.set(carsIndexUid, index);
  }
  index.upsert(cars.map((car) => carSearchDocument(car, siteId, locations)));
}

export async function reindexAll(search: EmbeddedSearchEngine, db: PlatformDb) {
  for (const site of await listSiteSlugs(db)) await reindexSite(search, db, site.id);
}
