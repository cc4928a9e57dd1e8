import { Link } from 'react-router-dom';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { formatPrice, isBelowMarket, belowMarketAmount } from '@dealer/rules/price';
import { formatDistance, t } from '@dealer/rules/locale';
import { vehiclePath } from '@dealer/rules/routes';
import { cardTag } from '@dealer/rules/tags';
import { VehicleImage } from '@dealer/ui/vehicle-image';
import { RemoteSlot } from '@dealer/ui/remote-slot';
import { KeptMarkup } from '@dealer/ui/kept-markup';
import type { SearchHit } from './search-api';

type Props = { car: SearchHit; site: PublicSiteConfig; now: number; priority: boolean };

/** SPEC §2 vehicle card: image, tag banner, location overlay, price, was-price, below-market. */
export function VehicleCard({ car, site, now, priority }: Props) {
  const tag = cardTag(car, site, now);
  return (
    // The server repeats a card it rendered before for the same car, tag and site (not the first
    // cards: their pictures load eagerly and React announces them). What is inside is a component
    // of its own, so a repeat does not even work out its prices.
    <KeptMarkup
      as="li"
      keep={priority ? null : () => `card ${tag?.text ?? ''} ${JSON.stringify(car)}`}
      className="vehicle-card"
      data-car-id={car.id}
    >
      <CardContents car={car} site={site} tag={tag} priority={priority} />
    </KeptMarkup>
  );
}

function CardContents({ car, site, tag, priority }: Omit<Props, 'now'> & { tag: ReturnType<typeof cardTag> }) {
  const market = car.autograb_data?.state_average_market_price ?? car.autograb_data?.average_market_price ?? null;
  const price = site.offers_subscription && car.subscription_price ? car.subscription_price : car.price;
  return (
    <>
      {/* Markup only: the browser keeps the server's markup of what the card shows (its link is an anchor
          the shell routes, and hovering it warms the car page), and hydrates only its Save button. */}
      <KeptMarkup as="div" keep={null} markupOnly={`card-${car.id}`} shows={car} className="vehicle-card__body">
        <a href={vehiclePath(site, car.slug)} className="vehicle-card__link" data-prefetch="intent">
          <span className="vehicle-card__media">
            <VehicleImage
              path={car.primary_image_url}
              alt={car.name}
              width={480}
              height={360}
              sizes="(min-width: 1200px) 300px, (min-width: 768px) 45vw, 100vw"
              priority={priority}
            />
            {tag && <span className={`vehicle-card__tag vehicle-card__tag--${tag.kind}`}>{tag.text}</span>}
            <span className="vehicle-card__location">{car.location_name}</span>
          </span>
          <span className="vehicle-card__name">{car.name}</span>
        </a>
        <span className="vehicle-card__price">
          {formatPrice(price, { preorder: car.preorder, locale: site.locale })}
          {site.offers_subscription && car.subscription_price ? <small> / week</small> : null}
          {car.before_price && car.before_price > car.price && (
            <s className="vehicle-card__was">{formatPrice(car.before_price, { locale: site.locale })}</s>
          )}
        </span>
        {isBelowMarket(car.price, market) && (
          <span className="vehicle-card__below-market">{`${formatPrice(belowMarketAmount(car.price, market), { locale: site.locale })} below market`}</span>
        )}
        <span className="vehicle-card__meta">{`${formatDistance(car.km, site.locale)} · ${t(site.locale, car.simple_fuel)} · ${car.simple_transmission}`}</span>
      </KeptMarkup>
      <span className="vehicle-card__actions">
        <RemoteSlot
          module="mf-garage/FavouriteButton"
          car={{ id: car.id, name: car.name, slug: car.slug, make: car.make, model: car.model, primary_image_url: car.primary_image_url }}
        />
      </span>
    </>
  );
}

/** SPEC §2: a promo card injected into the results at the site's configured positions. */
export function PromoCard({ site }: { site: PublicSiteConfig }) {
  return (
    <li className="vehicle-card promo-card" data-promo>
      <strong>{t(site.locale, 'Finance made simple')}</strong>
      <p>{`Ask ${site.name} about finance and trade-in on any car in stock.`}</p>
      <Link className="dp-button dp-button--primary" to={site.finance_path}>
        Get a quote
      </Link>
    </li>
  );
}
