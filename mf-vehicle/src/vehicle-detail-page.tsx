import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import type { VehicleContext, VehicleDetailPageProps } from '@dealer/contracts/remote-modules';
import type { Car } from '@dealer/contracts/car';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { searchPathFor } from '@dealer/rules/routes';
import { cardTag, isSold, isTestDriveOnly } from '@dealer/rules/tags';
import { showsFinanceCalculator } from '@dealer/rules/finance';
import { adTrackingContent } from '@dealer/rules/ad-tracking';
import { vehiclePageViewType } from '@dealer/rules/analytics';
import { dispatchPlatformEvent } from '@dealer/events/bus';
import { Spinner } from '@dealer/ui/spinner';
import { Modal } from '@dealer/ui/modal';
import { Button } from '@dealer/ui/button';
import { KeptMarkup } from '@dealer/ui/kept-markup';
import { NamedSlot, RemoteSlot } from '@dealer/ui/remote-slot';
import { usePageTitle } from '@dealer/ui/page-title';
import { carFromDocument, useCarBySlugQuery } from './vehicle-api';
import { Gallery } from './gallery';
import { PriceBlock } from './price-block';
import { FinanceCalculator, FinanceLink } from './finance-calculator';
import { VehicleSpecs } from './vehicle-specs';
import { DealerLocation } from './dealer-location';
import { SimilarCars } from './similar-cars';
import './vehicle-detail-page.css';

const vehicleContext = (car: Car): VehicleContext => ({
  id: car.id,
  slug: car.slug,
  name: car.name,
  make: car.make,
  model: car.model,
  year: car.year,
  car_type: car.car_type,
  stocknum: car.stocknum,
  vin: car.vin,
  price: car.price,
  tag: car.tag,
  location_id: car.location_id,
  dealership_slug: car.dealership_slug,
  primary_image_url: car.primary_image_url,
  status: car.status,
  sold: car.sold,
  reserved: car.reserved,
  reservable: car.reservable,
  payment_processors: car.payment_processors,
  has_checkout_payment_processor: car.has_checkout_payment_processor,
});

function NotFound({ site }: { site: PublicSiteConfig }) {
  usePageTitle('Vehicle not found', site.name);
  return (
    <div className="dp-container vehicle-page vehicle-page--missing" data-remote-version={__REMOTE_VERSION__}>
      <h1>This vehicle is no longer available</h1>
      <p>It may have been sold, or the link may be wrong.</p>
      <p>
        <Link className="dp-button dp-button--primary" to={searchPathFor(site)}>
          Search our current stock
        </Link>{' '}
        <Link to="/">Home</Link>
      </p>
    </div>
  );
}

/** Toyota pre-owned sites explain what "certified" means (SPEC §2 Toyota Certified modal). */
function CertifiedInfo() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="link" onClick={() => setOpen(true)}>
        Toyota Certified: what it means
      </Button>
      <Modal open={open} onClose={() => setOpen(false)} title="Toyota Certified Pre-Owned">
        <ul>
          <li>Multi-point inspection by Toyota-trained technicians</li>
          <li>Genuine Toyota parts for any reconditioning</li>
          <li>Extended warranty and roadside assistance</li>
          <li>Full service history and a clear title check</li>
        </ul>
      </Modal>
    </>
  );
}

function useVehicleAnalytics(car: Car | undefined) {
  useEffect(() => {
    if (!car) return;
    dispatchPlatformEvent('analytics:page-view', {
      pageType: vehiclePageViewType(car),
      url: location.href,
      carSlug: car.slug,
      carName: car.name,
    });
    dispatchPlatformEvent('ads:view-content', adTrackingContent(car));
  }, [car]);
}

export default function VehicleDetailPage({ slug }: VehicleDetailPageProps) {
  const site = useAppSelector(selectSite);
  // Read once per car: the same object on every render, so its markup-only details stay the server's.
  const preloaded = useMemo(() => carFromDocument(slug), [slug]);
  const { data: fetched, isLoading } = useCarBySlugQuery(slug, { skip: Boolean(preloaded) });
  const car = preloaded ?? fetched;
  const [now] = useState(() => Math.floor(Date.now() / 1000));
  usePageTitle(car?.name ?? 'Vehicle', site.name);
  useVehicleAnalytics(car);

  if (!car) {
    if (isLoading) return <Spinner category={site.vehicle_category} plain={site.features.plain_spinner} />;
    return <NotFound site={site} />;
  }

  const tag = cardTag(car, site, now);
  const sold = isSold(car);
  const testDriveOnly = isTestDriveOnly(car);
  const location = site.locations.find((item) => item.id === car.location_id);
  const context = vehicleContext(car);
  const similarSearch = `${searchPathFor(site)}?make=${encodeURIComponent(car.make)}`;

  return (
    <article className="dp-container vehicle-page" data-remote-version={__REMOTE_VERSION__} data-car-id={car.id}>
      <Gallery
        images={car.images.length ? car.images : [car.primary_image_url]}
        name={car.name}
        tag={tag && <span className={`vehicle-tag vehicle-tag--${tag.kind}`}>{tag.text}</span>}
      />
      <div className="vehicle-page__summary">
        <h1>{car.name}</h1>
        {car.status === 'coming_soon' && <p className="vehicle-page__status">Coming soon: enquire now to be first in line.</p>}
        {sold && <p className="vehicle-page__status vehicle-page__status--sold">This car has been sold.</p>}
        <PriceBlock car={car} site={site} />
        {car.certified && site.template === 'toyota-pre-owned' && <CertifiedInfo />}
        <div className="vehicle-page__actions">
          {sold ? (
            <Link className="dp-button dp-button--primary" to={similarSearch}>
              Find similar cars
            </Link>
          ) : (
            <>
              {testDriveOnly ? (
                <>
                  <RemoteSlot module="mf-leads/TestDriveButton" car={context} variant="primary" />
                  <p className="vehicle-page__note">This vehicle is available for test drives only.</p>
                </>
              ) : (
                <>
                  <RemoteSlot module="mf-leads/EnquireButton" car={context} variant="primary" />
                  <RemoteSlot module="mf-leads/TestDriveButton" car={context} />
                </>
              )}
              <RemoteSlot module="mf-leads/RequestPhotosButton" car={context} />
              <NamedSlot name="vehicle.actions" car={context} />
            </>
          )}
          <RemoteSlot
            module="mf-garage/FavouriteButton"
            car={{ id: car.id, name: car.name, slug: car.slug, make: car.make, model: car.model, primary_image_url: car.primary_image_url }}
          />
        </div>
        {!sold && (showsFinanceCalculator(site) ? <FinanceCalculator car={car} site={site} /> : <FinanceLink car={car} site={site} />)}
      </div>
      {/* Markup only: the browser keeps the server's markup of the car's details while it shows this car. */}
      <KeptMarkup as="div" keep={null} markupOnly="vehicle-details" shows={car} className="vehicle-page__details">
        <VehicleSpecs car={car} locale={site.locale} />
        <section aria-labelledby="vehicle-description-title">
          <h2 id="vehicle-description-title">About this car</h2>
          <p>{car.description}</p>
        </section>
      </KeptMarkup>
      {location && <DealerLocation location={location} carName={car.name} />}
      <SimilarCars car={car} site={site} />
    </article>
  );
}
