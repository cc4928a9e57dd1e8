import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Meilisearch } from 'meilisearch';
import type { Car } from '@dealer/contracts/car';
import { listSiteCars } from '@dealer/db/car-store';
import { findSiteIdBySlug, loadSiteConfig } from '@dealer/db/site-store';
import { InProcessMeili } from './meili-client';
import { createTestPlatform, testSearchAdminKey, testSearchKeySecret, type TestPlatform } from '../testing/test-platform';
import { carsIndexUid, searchKeyForSite } from './site-search';

/*
 * The query features through the official Meilisearch client, against the platform's embedded
 * engine: the parameters and settings reach the engine unchanged and its answers read as the
 * client expects them. Exact outputs per feature are in meili-conformance.query.test.ts.
 */

const movies = [
  {
    id: 1,
    title: 'Big Fat Liar',
    overview: 'A young liar and his friend travel to Hollywood to expose a producer',
    genre: 'comedy',
    year: 2002,
  },
  { id: 2, title: 'The Big Lebowski', overview: 'The dude abides', genre: 'comedy', year: 1998 },
  { id: 3, title: 'My Big Fat Greek Wedding', overview: 'A big fat wedding in Chicago', genre: 'romance', year: 2002 },
  { id: 4, title: 'Liar Liar', overview: 'A lawyer cannot lie for a day', genre: 'comedy', year: 1997 },
  { id: 5, title: 'Fat Albert', overview: 'Hey hey hey', genre: 'family', year: 2004 },
];

describe('the query features through the official Meilisearch client', () => {
  let platform: TestPlatform;
  let admin: Meilisearch;

  beforeAll(async () => {
    // One search reads a site's whole stock with its browser key, past what one public request may ask for.
    platform = await createTestPlatform({ env: { SEARCH_PUBLIC_MAX_HITS: '5000' } });
    const embedded = new InProcessMeili();
    embedded.attach(platform.app);
    admin = embedded.client(testSearchAdminKey);
    await admin
      .index('films')
      .updateSettings({ filterableAttributes: ['genre'], sortableAttributes: ['year'], searchableAttributes: ['title', 'overview'] })
      .waitTask();
    await admin.index('films').addDocuments(movies).waitTask();
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('matches, ranks, crops, locates and scores as asked', async () => {
    const result = await admin.index('films').search('big fat liar', {
      matchingStrategy: 'frequency',
      attributesToRetrieve: ['title'],
      attributesToCrop: ['overview:3'],
      attributesToHighlight: ['title'],
      showMatchesPosition: true,
      showRankingScore: true,
    });
    expect(result.estimatedTotalHits).toBe(2);
    expect(result.hits[0]).toEqual({
      title: 'Big Fat Liar',
      _formatted: { title: '<em>Big</em> <em>Fat</em> <em>Liar</em>', overview: '…young liar and…' },
      _matchesPosition: {
        overview: [{ start: 8, length: 4 }],
        title: [
          { start: 0, length: 3 },
          { start: 4, length: 3 },
          { start: 8, length: 4 },
        ],
      },
      _rankingScore: 1,
    });
    expect(result.hits.map((hit) => hit.title)).toEqual(['Big Fat Liar', 'Liar Liar']);
  });

  it('applies distinct, attributesToSearchOn, a score threshold and page 0', async () => {
    const films = admin.index('films');
    expect((await films.search('big', { distinct: 'genre' })).hits.map((hit) => hit.id)).toEqual([1, 3]);
    expect((await films.search('dude', { attributesToSearchOn: ['title'] })).hits).toEqual([]);
    expect((await films.search('big fat liar', { rankingScoreThreshold: 0.9 })).hits.map((hit) => hit.id)).toEqual([1]);
    expect(await films.search('', { page: 0, hitsPerPage: 2 })).toMatchObject({ hits: [], page: 0, totalHits: 5, totalPages: 3 });
  });

  it('follows the distinctAttribute, displayedAttributes and pagination settings', async () => {
    await admin
      .index('films')
      .updateSettings({ distinctAttribute: 'genre', displayedAttributes: ['id', 'title'], pagination: { maxTotalHits: 2 } })
      .waitTask();
    const result = await admin.index('films').search('', { sort: ['year:asc'], limit: 10 });
    expect(result.hits).toEqual([
      { id: 4, title: 'Liar Liar' },
      { id: 3, title: 'My Big Fat Greek Wedding' },
    ]);
    expect(result.estimatedTotalHits).toBe(2);
    await admin.index('films').resetSettings().waitTask();
  });

  it('finds a site\'s cars nearest a shopper first, each with its _geoDistance ("cars near me")', async () => {
    const siteId = (await findSiteIdBySlug(platform.ctx.db, 'metro-motor-group'))!;
    const site = (await loadSiteConfig(platform.ctx.db, siteId))!;
    // The shopper stands at the yard holding most of the group's cars.
    const cars = await listSiteCars(platform.ctx.db, siteId);
    const count = (id: number) => cars.filter((car) => car.location_id === id).length;
    const yard = site.locations.reduce((best, location) => (count(location.id) > count(best.id) ? location : best));
    const answer = await platform.app.inject({
      method: 'POST',
      url: `/meili/indexes/${carsIndexUid}/search`,
      headers: { authorization: `Bearer ${searchKeyForSite(siteId, testSearchKeySecret)}`, host: 'metro-motor-group.localhost:3000' },
      payload: {
        sort: [`_geoPoint(${yard.address.lat}, ${yard.address.long}):asc`],
        limit: 1000,
        attributesToRetrieve: ['location_id', '_geo'],
      },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const hits = answer.json<{ hits: (Pick<Car, 'location_id'> & { _geo: { lat: number; lng: number }; _geoDistance: number })[] }>().hits;
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]).toMatchObject({ location_id: yard.id, _geo: { lat: yard.address.lat, lng: yard.address.long }, _geoDistance: 0 });
    const distances = hits.map((hit) => hit._geoDistance);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
  });
});
