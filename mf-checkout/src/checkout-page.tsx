import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { CheckoutPageProps } from '@dealer/contracts/remote-modules';
import type { Car } from '@dealer/contracts/car';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { canReserve, reserveOptionsFor } from '@dealer/rules/reserve';
import { checkoutMessages, depositFor } from '@dealer/rules/reservation';
import { formatPrice } from '@dealer/rules/price';
import { searchPathFor, vehiclePath } from '@dealer/rules/routes';
import { Alert } from '@dealer/ui/alert';
import { Spinner } from '@dealer/ui/spinner';
import { VehicleImage } from '@dealer/ui/vehicle-image';
import { usePageTitle } from '@dealer/ui/page-title';
import type { Reservation, StartedPayment } from './checkout-api';
import { ContactStep } from './contact-step';
import { PaymentStep } from './payment-step';
import { ReservationConfirmation } from './reservation-confirmation';
import './checkout-page.css';

type Loaded = { state: 'loading' } | { state: 'missing' } | { state: 'ready'; car: Car };
type Step = { kind: 'details'; notice?: string } | { kind: 'payment'; reservation: Reservation; payment: StartedPayment };

/**
 * Reserve-a-car checkout (SPEC §2, §9): the car and its deposit, the shopper's details and the
 * terms, then the card, then the confirmation (`?reservation=<id>`, also where a payment page
 * sends the shopper back to).
 */
export default function CheckoutPage({ slug }: CheckoutPageProps) {
  const site = useAppSelector(selectSite);
  const [params, setParams] = useSearchParams();
  const [loaded, setLoaded] = useState<Loaded>(slug ? { state: 'loading' } : { state: 'missing' });
  const [step, setStep] = useState<Step>({ kind: 'details' });
  usePageTitle('Reserve your car', site.name);
  const confirmed = Number(params.get('reservation'));

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

  const page = (children: React.ReactNode) => (
    <div className="dp-container checkout-page" data-remote-version={__REMOTE_VERSION__}>
      {children}
    </div>
  );
  if (Number.isSafeInteger(confirmed) && confirmed > 0) {
    return page(<ReservationConfirmation id={confirmed} backTo={slug ? vehiclePath(site, slug) : searchPathFor(site)} />);
  }
  if (loaded.state === 'loading') return <Spinner category={site.vehicle_category} plain={site.features.plain_spinner} />;
  if (loaded.state === 'missing') {
    return page(
      <>
        <h1>Reserve a car</h1>
        <p>
          Choose a car to reserve from <Link to={searchPathFor(site)}>our stock</Link>.
        </p>
      </>,
    );
  }
  const { car } = loaded;
  const decision = canReserve(car, reserveOptionsFor(site));
  const deposit = depositFor(car, site.locale);
  const back = (
    <p>
      <Link to={vehiclePath(site, car.slug)}>Back to the car</Link>
    </p>
  );
  const summary = (
    <div className="checkout-page__car">
      <VehicleImage path={car.primary_image_url} alt={car.name} width={480} height={360} sizes="(min-width: 768px) 480px, 100vw" priority />
      <div>
        <p className="checkout-page__price">{formatPrice(car.price, { preorder: car.preorder, locale: site.locale })}</p>
        {car.stocknum && <p>Stock number {car.stocknum}</p>}
        {deposit && (
          <p className="checkout-page__deposit">{`Deposit today: ${formatPrice(deposit.amountCents / 100, { locale: site.locale })} ${deposit.currency}`}</p>
        )}
      </div>
    </div>
  );
  if (!decision.ok || !deposit) {
    return page(
      <>
        <h1>{`Reserve the ${car.name}`}</h1>
        {summary}
        <Alert tone="info">{decision.ok ? checkoutMessages.noDeposit : `This car cannot be reserved online: ${decision.reason}`}</Alert>
        {back}
      </>,
    );
  }

  return page(
    <>
      <h1>{`Reserve the ${car.name}`}</h1>
      {summary}
      {step.kind === 'details' ? (
        <ContactStep
          site={site}
          car={car}
          notice={step.notice}
          onHeld={(reservation, payment) => setStep({ kind: 'payment', reservation, payment })}
        />
      ) : (
        <PaymentStep
          site={site}
          reservation={step.reservation}
          payment={step.payment}
          onReserved={(reservation) => setParams({ reservation: String(reservation.id) })}
          onStartAgain={(notice) => setStep({ kind: 'details', notice })}
        />
      )}
      {back}
    </>,
  );
}
