import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { VehicleDetailPageProps } from '@dealer/contracts/remote-modules';
import type { Car } from '@dealer/contracts/car';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { formatPrice, isBelowMarket, belowMarketAmount } from '@dealer/rules/price';
import { formatDistance, t } from '@dealer/rules/locale';
import { canReserve } from '@dealer/rules/reserve';
import { checkoutPath, searchPathFor } from '@dealer/rules/routes';
import { cardTag } from '@dealer/rules/tags';
import { deviceWidths } from '@dealer/rules/images';
import { VehicleImage } from '@dealer/ui/vehicle-image';
import { Spinner } from '@dealer/ui/spinner';
import { Alert } from '@dealer/ui/alert';
import { RemoteSlot } from '@dealer/ui/remote-slot';
import { usePageTitle } from '@dealer/ui/page-title';
import { carFromDocument, useCarBySlugQuery } from './vehicle-api';
import './vehicle-detail-page.css';

function Specs({ car, locale }: { car: Car; locale: Parameters<typeof formatDistance>[1] }) {
  const rows: [string, string][] = [
    ['Year', String(car.year)],
    ['Odometer', formatDistance(car.km, locale)],
    ['Body', car.simple_body],
    ['Fuel', t(locale, car.simple_fuel)],
    ['Transmission', car.simple_transmission],
    ['Drive', car.simple_drive],
    [t(locale, 'Colour'), car.colour],
    ['Seats', String(car.seats)],
    ['Stock number', car.stocknum],
    ['VIN', car.vin],
  ];
  return (
    <dl className="vehicle-specs">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export default function VehicleDetailPage({ slug }: VehicleDetailPageProps) {
  const site = useAppSelector(selectSite);
  const preloaded = carFromDocument(slug);
  const { data: fetched, error, isLoading } = useCarBySlugQuery(slug, { skip: Boolean(preloaded) });
  const car = preloaded ?? fetched;
  const [now] = useState(() => Math.floor(Date.now() / 1000));
  usePageTitle(car?.name ?? 'Vehicle', site.name);

  if (!car) {
    if (isLoading) return <Spinner category={site.vehicle_category} plain={site.features.plain_spinner} />;
    return (
      <div className="dp-container vehicle-page">
        <Alert tone="info" title={error ? 'This vehicle is no longer available' : 'Vehicle not found'}>
          <Link to={searchPathFor(site)}>Search our current stock</Link>
        </Alert>
      </div>
    );
  }

  const tag = cardTag(car, site, now);
  const market = car.autograb_data?.state_average_market_price ?? car.autograb_data?.average_market_price ?? null;
  const reserve = canReserve(car, { siteSupportsOnlinePayment: Boolean(site.payment_provider) });
  const reserveOn = site.remotes.some((remote) => remote.name === 'mf-checkout');

  return (
    <article className="dp-container vehicle-page" data-remote-version={__REMOTE_VERSION__}>
      <div className="vehicle-page__gallery">
        {tag && <span className={`vehicle-tag vehicle-tag--${tag.kind}`}>{tag.text}</span>}
        <VehicleImage path={car.primary_image_url} alt={car.name} width={960} height={720} sizes="(min-width: 992px) 60vw, 100vw" widths={deviceWidths} priority />
        <ul className="vehicle-page__thumbs">
          {car.images.slice(1, 5).map((image, index) => (
            <li key={image}>
              <VehicleImage path={image} alt={`${car.name}, photo ${index + 2}`} width={240} height={180} sizes="120px" widths={[240, 480]} />
            </li>
          ))}
        </ul>
      </div>
      <div className="vehicle-page__summary">
        <h1>{car.name}</h1>
        <p className="vehicle-page__price">
          {formatPrice(car.price, { preorder: car.preorder, locale: site.locale })}
          {car.before_price && car.before_price > car.price && <s className="vehicle-page__was">{formatPrice(car.before_price, { locale: site.locale })}</s>}
        </p>
        {isBelowMarket(car.price, market) && <p className="vehicle-page__below-market">{`${formatPrice(belowMarketAmount(car.price, market), { locale: site.locale })} below market average`}</p>}
        <p>{`${car.location_name}, ${car.city} ${car.state}`}</p>
        <RemoteSlot module="mf-garage/FavouriteButton" car={{ id: car.id, name: car.name, slug: car.slug, make: car.make, model: car.model, primary_image_url: car.primary_image_url }} />
        {reserve.ok && reserveOn && (
          <Link className="dp-button dp-button--secondary" to={checkoutPath(site, car.slug)}>
            Reserve this car
          </Link>
        )}
        <Specs car={car} locale={site.locale} />
        <p className="vehicle-page__description">{car.description}</p>
      </div>
      <section className="vehicle-page__enquiry" aria-label={t(site.locale, 'Enquire about this car')}>
        <RemoteSlot module="mf-leads/EnquiryForm" carId={car.id} carType={car.car_type} stockNumber={car.stocknum} title={t(site.locale, 'Enquire about this car')} />
      </section>
    </article>
  );
}
