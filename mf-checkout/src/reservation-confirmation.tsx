import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { checkoutMessages } from '@dealer/rules/reservation';
import { formatPrice } from '@dealer/rules/price';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { Alert } from '@dealer/ui/alert';
import { Spinner } from '@dealer/ui/spinner';
import { checkoutApi, type Reservation } from './checkout-api';

/** How long the page waits for a provider's webhook to confirm a payment made on its own form. */
const confirmPolls = 30;
const pollMs = 1000;

type Shown = { kind: 'loading' } | { kind: 'gone'; message: string } | { kind: 'ready'; reservation: Reservation };

/**
 * The confirmation: the reservation as the server has it. A payment made on Stripe's or a
 * gateway's own page is confirmed by the provider's notification, so a reservation still holding
 * is asked again each second for a while.
 */
export function ReservationConfirmation({ id, backTo }: { id: number; backTo: string }) {
  const site = useAppSelector(selectSite);
  const [shown, setShown] = useState<Shown>({ kind: 'loading' });

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async (left: number) => {
      const answer = await checkoutApi.status(id);
      if (!live) return;
      if (!answer.ok) return setShown({ kind: 'gone', message: answer.status === 404 ? checkoutMessages.notYours : answer.message });
      setShown({ kind: 'ready', reservation: answer.data.reservation });
      if (answer.data.reservation.state === 'holding' && left > 0) timer = setTimeout(() => void ask(left - 1), pollMs);
    };
    void ask(confirmPolls);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [id]);

  if (shown.kind === 'loading') return <Spinner category={site.vehicle_category} plain={site.features.plain_spinner} />;
  if (shown.kind === 'gone') {
    return (
      <>
        <h1>Reserve a car</h1>
        <Alert tone="destructive">{shown.message}</Alert>
        <p>
          <Link to={backTo}>Back to the car</Link>
        </p>
      </>
    );
  }
  const { reservation } = shown;
  const deposit = `${formatPrice(reservation.deposit.amount_cents / 100, { locale: site.locale })} ${reservation.deposit.currency}`;
  const outcome: Record<Reservation['state'], { title: string; text: string; tone: 'success' | 'info' | 'destructive' }> = {
    reserved: {
      title: `Your ${reservation.car.name} is reserved`,
      text: `Thank you. We have received your ${deposit} deposit and the car is held for you. ${site.name} will contact you shortly to arrange the next steps.`,
      tone: 'success',
    },
    holding: {
      title: 'Confirming your payment',
      text: 'We are waiting for the payment provider to confirm your deposit. This page updates by itself.',
      tone: 'info',
    },
    expired: { title: 'Reservation not completed', text: checkoutMessages.holdRanOut, tone: 'destructive' },
    cancelled: { title: 'Reservation cancelled', text: 'You let this car go before paying; nothing was charged.', tone: 'info' },
    refunded: {
      title: 'Your deposit has been refunded',
      text: `Your payment arrived after the car had been reserved by another buyer, so your ${deposit} deposit has been refunded in full to your card.`,
      tone: 'info',
    },
    released: {
      title: 'Reservation released',
      text: `${site.name} has released this reservation and refunded your ${deposit} deposit.`,
      tone: 'info',
    },
  };
  const { title, text, tone } = outcome[reservation.state];
  return (
    <>
      <h1>{title}</h1>
      <Alert tone={tone}>{text}</Alert>
      {reservation.payment_reference && (
        <dl className="checkout-page__receipt">
          <dt>Deposit</dt>
          <dd>{deposit}</dd>
          <dt>Payment reference</dt>
          <dd data-testid="payment-reference">{reservation.payment_reference}</dd>
          <dt>Reservation number</dt>
          <dd>{reservation.id}</dd>
        </dl>
      )}
      {reservation.state === 'holding' && <Spinner category={site.vehicle_category} plain />}
      <p>
        <Link to={backTo}>Back to the car</Link>
      </p>
    </>
  );
}
