import { SmartLink } from '@dealer/ui/smart-link';
import type { ContentBlock, OfferCard } from '@dealer/contracts/content';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { formatDay } from '../content-dates';
import { ContentImage } from './image';

const cardSizes = '(min-width: 1200px) 360px, (min-width: 640px) 45vw, 100vw';

function Offer({ offer }: { offer: OfferCard }) {
  const site = useAppSelector(selectSite);
  return (
    <li className="content-card">
      <SmartLink to={`/special-offers/${offer.slug}`} className="content-card__link">
        {offer.image && <ContentImage className="content-card__picture" image={offer.image} width={480} height={320} sizes={cardSizes} />}
        <h3>{offer.title}</h3>
      </SmartLink>
      {offer.summary && <p>{offer.summary}</p>}
      <p className="content-meta">{`Ends ${formatDay(offer.expires_at, site.locale)}`}</p>
    </li>
  );
}

/** The site's current offers, each a card opening the offer's page. */
export function OffersListBlock({ block }: { block: Extract<ContentBlock, { type: 'offers_list' }> & { offers: OfferCard[] } }) {
  if (block.offers.length === 0) return <p>There are no special offers right now. Please check back soon.</p>;
  return (
    <ul className="content-cards">
      {block.offers.map((offer) => (
        <Offer key={offer.slug} offer={offer} />
      ))}
    </ul>
  );
}
