/**
 * The Google reviews of a site's locations (issue 24 part 4), as last fetched: the home page shows
 * the newest good ones and each location's average. A review keeps its row across fetches (found by
 * its source's id), so a fetch changes what the review says rather than adding it again.
 */
import type { PlatformDb } from './database';
import { touchSiteContent } from './content-store';

export interface LocationReview {
  location_id: number;
  /** Where it came from: 'google'. */
  source: string;
  /** The source's id of the review. */
  external_id: string;
  author: string;
  /** Stars, 1 to 5. */
  rating: number;
  text: string;
  reviewed_at: number;
}

/** A location's reviews in short: the average stars (to one decimal) and how many. */
export interface LocationReviewSummary {
  location_id: number;
  rating: number;
  count: number;
}

/** Rows per insert: well under either engine's limit of bound values in one statement. */
const reviewChunk = 200;

/** Stores reviews as fetched (new ones added, known ones updated) and moves the site's content stamp. */
export async function replaceLocationReviews(db: PlatformDb, siteId: number, reviews: LocationReview[], now: number): Promise<void> {
  // One row per review: PostgreSQL refuses an insert that updates one row twice.
  const unique = [...new Map(reviews.map((review) => [`${review.source}\n${review.external_id}`, review])).values()];
  if (unique.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < unique.length; start += reviewChunk) {
      await trx
        .insertInto('location_reviews')
        .values(
          unique.slice(start, start + reviewChunk).map((review) => ({
            site_id: siteId,
            location_id: review.location_id,
            source: review.source,
            external_id: review.external_id,
            author: review.author,
            rating: review.rating,
            text: review.text,
            reviewed_at: review.reviewed_at,
            fetched_at: now,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['site_id', 'source', 'external_id']).doUpdateSet((eb) => ({
            location_id: eb.ref('excluded.location_id'),
            author: eb.ref('excluded.author'),
            rating: eb.ref('excluded.rating'),
            text: eb.ref('excluded.text'),
            reviewed_at: eb.ref('excluded.reviewed_at'),
            fetched_at: eb.ref('excluded.fetched_at'),
          })),
        )
        .execute();
    }
    await touchSiteContent(trx, siteId, now);
  });
}

/** The site's reviews of at least `minRating` stars, newest first. */
export async function listLocationReviews(
  db: PlatformDb,
  siteId: number,
  options: { minRating: number; limit: number },
): Promise<LocationReview[]> {
  return db
    .selectFrom('location_reviews')
    .select(['location_id', 'source', 'external_id', 'author', 'rating', 'text', 'reviewed_at'])
    .where('site_id', '=', siteId)
    .where('rating', '>=', options.minRating)
    .orderBy('reviewed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit)
    .execute();
}

/** Each reviewed location's average stars and count, over all its reviews (the low ones too), by location id. */
export async function reviewSummary(db: PlatformDb, siteId: number): Promise<LocationReviewSummary[]> {
  const rows = await db
    .selectFrom('location_reviews')
    .select((eb) => ['location_id', eb.fn.avg<number | string>('rating').as('average'), eb.fn.countAll<number>().as('count')])
    .where('site_id', '=', siteId)
    .groupBy('location_id')
    .orderBy('location_id')
    .execute();
  // PostgreSQL answers an average as numeric text.
  return rows.map((row) => ({
    location_id: row.location_id,
    rating: Math.round(Number(row.average) * 10) / 10,
    count: Number(row.count),
  }));
}
