import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { CheckoutPageProps } from '@dealer/contracts/remote-modules';
import type { Car } from '@dealer/contracts/car';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { canReserve } from '@dealer/rules/reserve';
import { formatPrice } from '@dealer/rules/price';
import { searchPathFor, vehiclePath } from '@dealer/rules/routes';
import { Alert } from '@dealer/ui/alert';
import { Spinner } from '@dealer/ui/spinner';
import { VehicleImage } from '@dealer/ui/vehicle-image';
import { usePageTitle } from '@dealer/ui/page-title';

type Loaded = { state: 'loading' } | { state: 'missing' } | { state: 'ready'; car: Car };

/** Reserve-a-car checkout: which car, whether it qualifies (SPEC §9) and the deposit it takes. */
export default function CheckoutPage({ slug }: CheckoutPageProps) {
  const site = useAppSelector(selectSite);
  const [loaded, setLoaded] = useState<Loaded>(slug ? { state: 'loading' } : { state: 'missing' });
  usePageTitle('Reserve your car', site.name);

  useEffect(() => {
    if (!slug) return;
    let live = true;
    fetch(`/api/cars/${encodeURIComponent(slug)}`, { headers: { Accept: 'application/json' } })
      .then(async (response) => (response.ok ? ((await response.json()) as Car) : null))
      .catch(() => null)
      .then((car) => live && setLoaded(car ? { state: 'ready', car } : { state: 'missing' }));
    return () => {
      live = false;
    };
  }, [slug]);

  if (loaded.state === 'loading') return <Spinner category={site.vehicle_category} plain={site.features.plain_spinner} />;
  if (loaded.state === 'missing') {
    return (
      <div className="dp-container checkout-page" data-remote-version={__REMOTE_VERSION__}>
        <h1>Reserve a car</h1>
        <p>
          Choose a car to reserve from <Link to={searchPathFor(site)}>our stock</Link>.
        </p>
      </div>
    );
  }
  const { car } = loaded;
  const decision = canReserve(car, { siteSupportsOnlinePayment: Boolean(site.payment_provider) });
  const deposit = car.payment_processors[0]?.deposit_amount ?? null;
  return (
    <div className="dp-container checkout-page" data-remote-version={__REMOTE_VERSION__}>
      <h1>{`Reserve the ${car.name}`}</h1>
      <VehicleImage path={car.primary_image_url} alt={car.name} width={480} height={360} sizes="(min-width: 768px) 480px, 100vw" priority />
      <p>{formatPrice(car.price, { preorder: car.preorder, locale: site.locale })}</p>
      {decision.ok ? (
        <Alert tone="info">{`A refundable deposit of ${formatPrice(deposit, { locale: site.locale })} holds this car for you. Card payment opens here soon; until then, please call ${site.phone}.`}</Alert>
      ) : (
        <Alert tone="info">{`This car cannot be reserved online: ${decision.reason}`}</Alert>
      )}
      <p>
        <Link to={vehiclePath(site, car.slug)}>Back to the car</Link>
      </p>
    </div>
  );
}
