import type { PlatformDb } from '../db/database';
import { listSiteCars } from '../db/car-store';
import { listSiteSlugs } from '../db/site-store';
import { SearchIndex } from './search-index';
import { carSearchDocument, carsIndexSettings, carsIndexUid } from './site-search';

/** The embedded engine: indexes kept in process, filled from the store at start. */
export class EmbeddedSearchEngine {
  readonly indexes = new Map<string, SearchIndex>();

  constructor() {
    this.indexes.set(carsIndexUid, new SearchIndex(carsIndexUid, carsIndexSettings));
  }

  index(uid: string): SearchIndex | undefined {
    return this.indexes.get(uid);
  }

  async reindexSite(db: PlatformDb, siteId: number) {
    const cars = await listSiteCars(db, siteId);
    this.indexes.get(carsIndexUid)!.upsert(cars.map((car) => carSearchDocument(car, siteId)));
  }

  async reindexAll(db: PlatformDb) {
    for (const site of await listSiteSlugs(db)) await this.reindexSite(db, site.id);
  }
}
