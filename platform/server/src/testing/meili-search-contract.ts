/**
 * Test support for the Meilisearch search-contract suites (search/meili-conformance.search-params.test.ts
 * and search/meili-conformance.multi-search.test.ts): the platform listening over HTTP with the docs'
 * small movies and comics indexes, a dealer's browser search key and its listed stock, and raw calls
 * to /meili for the exact error bodies. Production code does not import it.
 */
import type { AddressInfo } from 'node:net';
import type { InjectOptions } from 'fastify';
import { Meilisearch } from 'meilisearch';
import type { Car } from '@dealer/contracts/car';
import { isListedInSearch } from '@dealer/rules/tags';
import { listSiteCars } from '@dealer/db/car-store';
import { findSiteIdBySlug, loadSiteConfig } from '@dealer/db/site-store';
import { createTestPlatform, testSearchAdminKey, testSearchKeySecret, type TestPlatform } from './test-platform';
import { searchKeyForSite } from '../search/site-search';

export const movies = [
  { id: 1, title: 'Carol', genres: ['Romance', 'Drama'], color: ['red'], year: 2015 },
  { id: 2, title: 'Wonder Woman', genres: ['Action', 'Adventure'], color: ['green'], year: 2017 },
  { id: 3, title: 'Life of Pi', genres: ['Adventure', 'Drama'], color: ['blue'], year: 2012 },
  { id: 4, title: 'Mad Max: Fury Road', genres: ['Adventure', 'Science Fiction'], color: ['red'], year: 2015 },
  { id: 5, title: 'Moana', genres: ['Fantasy', 'Action'], color: ['red'], year: 2016 },
  { id: 6, title: 'Philadelphia', genres: ['Drama'], color: ['blue'], year: 1993 },
  { id: 7, title: 'Escape Room', genres: ['Horror', 'Thriller', 'Multiple Words'], color: ['black'], year: 2019 },
];
export const comics = [
  { id: 1, title: 'Watchmen', genres: ['Drama'] },
  { id: 2, title: 'Saga', genres: ['Fantasy', 'Drama'] },
];

export type SearchContract = {
  platform: TestPlatform;
  /** The /meili address of the listening platform. */
  host: string;
  /** The official client with the admin key. */
  admin: Meilisearch;
  /** Metro Motor Group's browser search key, its site id and the cars it lists in search. */
  metroKey: string;
  metroId: number;
  metroListed: Car[];
};

/** The platform listening on a port of its own, with the movies and comics indexes set up and filled. */
export async function openSearchContract(): Promise<SearchContract> {
  const platform = await createTestPlatform();
  try {
    // Over HTTP, as a browser or the indexer reaches a Meilisearch: the client's own errors, headers and all.
    await platform.app.listen({ port: 0, host: '127.0.0.1' });
    const host = `http://127.0.0.1:${(platform.app.server.address() as AddressInfo).port}/meili`;
    const admin = new Meilisearch({ host, apiKey: testSearchAdminKey });
    const metroId = (await findSiteIdBySlug(platform.ctx.db, 'metro-motor-group'))!;
    const metro = (await loadSiteConfig(platform.ctx.db, metroId))!;
    const metroKey = searchKeyForSite(metroId, testSearchKeySecret);
    const now = Math.floor(Date.now() / 1000);
    const metroListed = (await listSiteCars(platform.ctx.db, metroId)).filter((car) =>
      isListedInSearch(car, metro.include_sold_cars_days, now),
    );
    await admin
      .index('movies')
      .updateSettings({ filterableAttributes: ['genres', 'color', 'year'], sortableAttributes: ['year'] })
      .waitTask();
    await admin.index('movies').addDocuments(movies).waitTask();
    await admin
      .index('comics')
      .updateSettings({ filterableAttributes: ['genres'] })
      .waitTask();
    await admin.index('comics').addDocuments(comics).waitTask();
    return { platform, host, admin, metroKey, metroId, metroListed };
  } catch (error) {
    await platform.close();
    throw error;
  }
}

/** A raw request to the platform's /meili, with the admin key unless another is given. */
export const meiliCaller =
  (platform: () => TestPlatform) =>
  (method: InjectOptions['method'], url: string, payload?: unknown, key = testSearchAdminKey) =>
    platform().app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${key}` },
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
    });

/** A refusal's status with its Meilisearch error body. */
export const errorOf = (res: { statusCode: number; json<T>(): T }) => ({
  status: res.statusCode,
  ...res.json<{ code: string; message: string }>(),
});
