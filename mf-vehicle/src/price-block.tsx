import type { Car } from '@dealer/contracts/car';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { belowMarketAmount, formatPrice, isBelowMarket, isPriceShown } from '@dealer/rules/price';

/** Price, was-price, below-market and the subscription price (SPEC §5, §9). */
export function PriceBlock({ car, site }: { car: Car; site: PublicSiteConfig }) {
  const market = car.autograb_data?.state_average_market_price ?? car.autograb_data?.average_market_price ?? null;
  const shown = isPriceShown(car.price);
  return (
    <div className="price-block">
      {site.offers_subscription && car.subscription_price ? (
        <p className="price-block__price">
          {formatPrice(car.subscription_price, { locale: site.locale })}
          <span className="price-block__note"> per week, subscription</span>
        </p>
      ) : null}
      <p className={site.offers_subscription && car.subscription_price ? 'price-block__secondary' : 'price-block__price'}>
        {formatPrice(car.price, { preorder: car.preorder, locale: site.locale })}
        {shown && site.locale === 'en-AU' && <span className="price-block__note"> drive away</span>}
        {shown && car.before_price && car.before_price > car.price && (
          <s className="price-block__was" aria-label={`Was ${formatPrice(car.before_price, { locale: site.locale })}`}>
            {formatPrice(car.before_price, { locale: site.locale })}
          </s>
        )}
      </p>
      {isBelowMarket(car.price, market) && (
        <p className="price-block__below-market">{`${formatPrice(belowMarketAmount(car.price, market), { locale: site.locale })} below the market average`}</p>
      )}
    </div>
  );
}
