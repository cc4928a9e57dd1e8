/**
 * A page's blocks with what they point at filled in: the site's current offers, open jobs, newest
 * posts, featured cars and Google reviews. Reads only the site's own rows, each list bounded.
 */
import type { Car } from '@dealer/contracts/car';
import type { CarCard, ContentBlock, JobContent, OfferContent, PostContent, ResolvedBlock } from '@dealer/contracts/content';
import type { SiteConfig } from '@dealer/contracts/site';
import { listPublishedContent } from '@dealer/db/content-store';
import { listLocationReviews } from '@dealer/db/review-store';
import type { PlatformDb } from '@dealer/db/database';
import { isCarOnSite } from '../search/site-search';

/** SPEC §9: reviews of 4 stars and up, 12 at most. */
export const reviewMinimumRating = 4;
export const reviewsShown = 12;

/** The newest cars looked at to find the featured ones (the site's search hides some: sold, filtered out). */
const newestLooked = 200;

const card = (car: Car): CarCard => ({
  id: car.id,
  slug: car.slug,
  name: car.name,
  year: car.year,
  km: car.km,
  price: car.price,
  before_price: car.before_price,
  car_type: car.car_type,
  primary_image_url: car.primary_image_url,
  location_name: car.location_name,
});

/** Cards of the chosen cars the site still lists, in the order chosen; with none chosen, the newest `limit` listed and unsold. */
export async function carCards(
  db: PlatformDb,
  site: SiteConfig,
  ids: readonly number[] | undefined,
  limit: number,
  now: number,
): Promise<CarCard[]> {
  const nowSeconds = Math.floor(now / 1000);
  const listed = (car: Car) => isCarOnSite(site, car, nowSeconds) && !car.sold;
  if (ids && ids.length > 0) {
    const rows = await db
      .selectFrom('cars')
      .select('data')
      .where('site_id', '=', site.id)
      .where('id', 'in', [...ids])
      .execute();
    const cars = new Map(rows.map((row) => JSON.parse(row.data) as Car).map((car) => [car.id, car]));
    return ids.flatMap((id) => {
      const car = cars.get(id);
      return car && listed(car) ? [card(car)] : [];
    });
  }
  if (limit <= 0) return [];
  const rows = await db
    .selectFrom('cars')
    .select('data')
    .where('site_id', '=', site.id)
    .where('show_on_dealer_website', '=', 1)
    .orderBy('id', 'desc')
    .limit(newestLooked)
    .execute();
  return rows
    .map((row) => JSON.parse(row.data) as Car)
    .filter(listed)
    .sort((a, b) => b.created_at_timestamp - a.created_at_timestamp || b.id - a.id)
    .slice(0, limit)
    .map(card);
}

type Options = { drafts: boolean; now: number };

export async function resolveBlocks(
  db: PlatformDb,
  site: SiteConfig,
  blocks: readonly ContentBlock[],
  options: Options,
): Promise<ResolvedBlock[]> {
  const locationName = (id: number | undefined) => site.locations.find((location) => location.id === id)?.name ?? null;
  const resolved: ResolvedBlock[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'offers_list': {
        const list = await listPublishedContent(db, site.id, 'offer', { offset: 0, limit: 24, now: options.now, drafts: options.drafts });
        const chosen = block.offer_ids?.length ? list.items.filter((item) => block.offer_ids!.includes(item.id)) : list.items;
        const offers = chosen.slice(0, block.limit).map((item) => {
          const offer = item.version as OfferContent;
          return { slug: item.slug, title: offer.title, summary: offer.summary, image: offer.image ?? null, expires_at: offer.expires_at };
        });
        resolved.push({ ...block, offers });
        break;
      }
      case 'jobs_list': {
        const list = await listPublishedContent(db, site.id, 'job', { offset: 0, limit: 50, now: options.now, drafts: options.drafts });
        const jobs = list.items.map((item) => {
          const job = item.version as JobContent;
          return {
            slug: item.slug,
            title: job.title,
            employment_type: job.employment_type,
            location_name: locationName(job.location_id),
            summary: job.summary,
            body_html: job.body_html,
            closes_at: job.closes_at ?? null,
          };
        });
        resolved.push({ ...block, jobs });
        break;
      }
      case 'posts_list': {
        const list = await listPublishedContent(db, site.id, 'post', {
          offset: 0,
          limit: block.limit,
          now: options.now,
          drafts: options.drafts,
        });
        const posts = list.items.map((item) => {
          const post = item.version as PostContent;
          return {
            slug: item.slug,
            title: post.title,
            summary: post.summary,
            image: post.image ?? null,
            published_at: item.published_at ?? options.now,
          };
        });
        resolved.push({ ...block, posts, section: site.features.blog_to_news ? 'news' : 'blog' });
        break;
      }
      case 'featured_stock': {
        // The dealer's switch: no stock on the home page, no section (its place closes up).
        if (!site.features.stock_on_homepage) break;
        const cars = await carCards(db, site, block.car_ids, block.limit, options.now);
        if (cars.length > 0) resolved.push({ ...block, cars, detail_path: site.detail_path });
        break;
      }
      case 'reviews': {
        const reviews = await listLocationReviews(db, site.id, { minRating: reviewMinimumRating, limit: reviewsShown });
        const locations = site.locations
          .filter((location) => location.visible && location.reviews.count > 0)
          .map((location) => ({ name: location.name, rating: location.reviews.average_rating, count: location.reviews.count }));
        if (reviews.length > 0)
          resolved.push({
            ...block,
            reviews: reviews.map((review) => ({
              author: review.author,
              rating: review.rating,
              text: review.text,
              reviewed_at: review.reviewed_at,
              location_name: locationName(review.location_id) ?? site.name,
            })),
            locations,
          });
        break;
      }
      default:
        resolved.push(block);
    }
  }
  return resolved;
}
