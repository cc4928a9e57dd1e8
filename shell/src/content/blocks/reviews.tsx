import type { ContentBlock, ReviewCard } from '@dealer/contracts/content';
import { formatNumber } from '@dealer/rules/locale';

type ReviewsBlockProps = {
  block: Extract<ContentBlock, { type: 'reviews' }> & {
    reviews: ReviewCard[];
    locations: { name: string; rating: number; count: number }[];
  };
};

function Stars({ rating }: { rating: number }) {
  const whole = Math.max(0, Math.min(5, Math.round(rating)));
  return (
    <span className="content-stars" role="img" aria-label={`${whole} out of 5 stars`}>
      {'★'.repeat(whole) + '☆'.repeat(5 - whole)}
    </span>
  );
}

/** Google reviews of the site's locations: each location's rating, then the reviews themselves. */
export function ReviewsBlock({ block }: ReviewsBlockProps) {
  if (block.reviews.length === 0 && block.locations.length === 0) return null;
  return (
    <>
      <h2>{block.title || 'What our customers say'}</h2>
      {block.locations.length > 0 && (
        <ul className="content-ratings">
          {block.locations.map((location) => (
            <li key={location.name}>
              <strong>{location.name}</strong>
              {` ${formatNumber(location.rating, 1)} `}
              <Stars rating={location.rating} />
              {` (${formatNumber(location.count)} ${location.count === 1 ? 'review' : 'reviews'})`}
            </li>
          ))}
        </ul>
      )}
      <ul className="content-reviews">
        {block.reviews.map((review, index) => (
          <li key={index} className="content-review">
            <Stars rating={review.rating} />
            <blockquote>{review.text}</blockquote>
            <p className="content-meta">{`${review.author} · ${review.location_name}`}</p>
          </li>
        ))}
      </ul>
    </>
  );
}
