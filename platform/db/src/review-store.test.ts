import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformDb } from './database';
import { listLocationReviews, replaceLocationReviews, reviewSummary, type LocationReview } from './review-store';
import { siteContentStamp } from './site-store';
import { openMigratedStore } from '@dealer/testing/migrated-store';
import { skipPostgres } from '@dealer/testing/postgres';

const review = (
  external_id: string,
  location_id: number,
  rating: number,
  reviewed_at: number,
  text = 'Great service.',
): LocationReview => ({
  location_id,
  source: 'google',
  external_id,
  author: `Shopper ${external_id}`,
  rating,
  text,
  reviewed_at,
});

describe.each(['sqlite', 'postgres'] as const)('Google reviews of a site’s locations on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let store: { db: PlatformDb; close(): Promise<void> };
  beforeAll(async () => {
    store = await openMigratedStore(engine);
    await store.db
      .insertInto('sites')
      .values([1, 2].map((id) => ({ id, slug: `site-${id}`, domain_name: null, config: '{}', updated_at: 0 })))
      .execute();
  });
  afterAll(async () => store?.close());

  it('shows the newest good reviews first, and updates a review fetched again rather than adding it twice', async () => {
    const before = await siteContentStamp(store.db, 1);
    await replaceLocationReviews(
      store.db,
      1,
      [review('a', 10, 5, 1_000), review('b', 10, 3, 2_000), review('c', 11, 4, 3_000), review('d', 11, 5, 500)],
      10_000,
    );
    expect(await siteContentStamp(store.db, 1)).not.toBe(before);
    await replaceLocationReviews(store.db, 2, [review('a', 20, 5, 9_000)], 10_000);

    const good = await listLocationReviews(store.db, 1, { minRating: 4, limit: 12 });
    expect(good.map((row) => row.external_id)).toEqual(['c', 'a', 'd']);
    expect(good[0]).toEqual(review('c', 11, 4, 3_000));
    expect((await listLocationReviews(store.db, 1, { minRating: 4, limit: 2 })).length).toBe(2);

    // The shopper edited review a, and it came twice in one fetch: one row, the later words.
    await replaceLocationReviews(store.db, 1, [review('a', 10, 4, 1_000, 'Good.'), review('a', 10, 5, 4_000, 'Great again.')], 20_000);
    expect((await listLocationReviews(store.db, 1, { minRating: 1, limit: 12 })).map((row) => [row.external_id, row.text])).toEqual([
      ['a', 'Great again.'],
      ['c', 'Great service.'],
      ['b', 'Great service.'],
      ['d', 'Great service.'],
    ]);
  });

  it('averages each location’s stars to one decimal over all its reviews, the low ones too', async () => {
    await replaceLocationReviews(store.db, 1, [review('e', 11, 4, 5_000)], 30_000);
    expect(await reviewSummary(store.db, 1)).toEqual([
      { location_id: 10, rating: 4, count: 2 },
      { location_id: 11, rating: 4.3, count: 3 },
    ]);
    expect(await reviewSummary(store.db, 2)).toEqual([{ location_id: 20, rating: 5, count: 1 }]);
  });

  it('leaves the site’s stamp alone when a fetch brings no reviews', async () => {
    const before = await siteContentStamp(store.db, 1);
    await replaceLocationReviews(store.db, 1, [], 40_000);
    expect(await siteContentStamp(store.db, 1)).toBe(before);
  });
});
