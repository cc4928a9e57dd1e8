import { useEffect, useRef, useState } from 'react';
import { FORM_ERROR } from 'final-form';
import { Form } from 'react-final-form';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { checkoutMessages } from '@dealer/rules/reservation';
import { formatPrice } from '@dealer/rules/price';
import { Alert } from '@dealer/ui/alert';
import { Button } from '@dealer/ui/button';
import { checkoutApi, type Reservation, type StartedPayment } from './checkout-api';
import { TextField } from './checkout-fields';

type Props = {
  site: PublicSiteConfig;
  reservation: Reservation;
  payment: StartedPayment;
  onReserved: (reservation: Reservation) => void;
  /** Back to the details (the hold ran out, or the shopper let the car go), with what to tell them. */
  onStartAgain: (notice?: string) => void;
};

/** "Held for you until 3:42 pm", in the shopper's own clock. */
const heldUntilText = (heldUntil: number, locale: string) =>
  new Date(heldUntil).toLocaleTimeString(locale, { hour: 'numeric', minute: '2-digit' });

/**
 * Paying the deposit while the car is held: the test provider's card form (the embedded
 * default), Stripe's Payment Element, or a hosted payment page, whichever started the payment.
 */
export function PaymentStep({ site, reservation, payment, onReserved, onStartAgain }: Props) {
  const amount = `${formatPrice(reservation.deposit.amount_cents / 100, { locale: site.locale })} ${reservation.deposit.currency}`;
  const cancel = async () => {
    await checkoutApi.cancel(reservation.id);
    onStartAgain();
  };
  return (
    <section className="checkout-page__payment" aria-label="Payment">
      <h2>{`Pay your ${amount} deposit`}</h2>
      <Alert tone="info">{`We are holding this car for you until ${heldUntilText(reservation.held_until, site.locale)}.`}</Alert>
      {payment.provider === 'test' && (
        <TestCardForm reservation={reservation} amount={amount} onReserved={onReserved} onStartAgain={onStartAgain} />
      )}
      {payment.provider === 'stripe' && payment.client_secret && payment.publishable_key && (
        <StripePaymentForm
          clientSecret={payment.client_secret}
          publishableKey={payment.publishable_key}
          amount={amount}
          reservationId={reservation.id}
        />
      )}
      {payment.redirect_url && (
        <p>
          <a className="dp-button dp-button--primary" href={payment.redirect_url}>
            Continue to secure payment
          </a>
        </p>
      )}
      <Button variant="link" onClick={() => void cancel()}>
        Cancel and let the car go
      </Button>
    </section>
  );
}

type CardValues = { card_number?: string; expiry?: string; cvc?: string };

/** The built-in test provider's card form: Stripe's test numbers and words, no real card taken. */
function TestCardForm({
  reservation,
  amount,
  onReserved,
  onStartAgain,
}: {
  reservation: Reservation;
  amount: string;
  onReserved: Props['onReserved'];
  onStartAgain: Props['onStartAgain'];
}) {
  const onSubmit = async (values: CardValues) => {
    const answer = await checkoutApi.payWithTestCard(reservation.id, values);
    if (answer.ok) {
      onReserved(answer.data.reservation);
      return undefined;
    }
    if (answer.status === 409 && answer.message === checkoutMessages.holdRanOut) {
      onStartAgain(answer.message);
      return undefined;
    }
    return { ...answer.fields, [FORM_ERROR]: answer.message };
  };
  return (
    <Form<CardValues> onSubmit={onSubmit}>
      {({ handleSubmit, submitting, submitError }) => (
        <form className="checkout-page__form" noValidate onSubmit={handleSubmit} aria-label="Card details">
          <p className="checkout-page__test-mode">
            Test mode: pay with 4242 4242 4242 4242, any future expiry date and any 3 digits. No real card is charged.
          </p>
          <TextField
            name="card_number"
            label="Card number"
            inputMode="numeric"
            autoComplete="cc-number"
            placeholder="1234 1234 1234 1234"
            maxLength={23}
          />
          <div className="checkout-page__card-row">
            <TextField name="expiry" label="Expiry (MM/YY)" inputMode="numeric" autoComplete="cc-exp" placeholder="MM/YY" maxLength={7} />
            <TextField name="cvc" label="Security code" inputMode="numeric" autoComplete="cc-csc" placeholder="CVC" maxLength={4} />
          </div>
          {submitError && <Alert tone="destructive">{String(submitError)}</Alert>}
          <Button type="submit" loading={submitting}>
            {`Pay ${amount} deposit`}
          </Button>
        </form>
      )}
    </Form>
  );
}

/**
 * Stripe's Payment Element for the PaymentIntent the server created: Stripe.js is loaded only
 * here, with the dealership's publishable key. Paying returns the shopper to the confirmation,
 * which waits for Stripe's webhook to reserve the car.
 */
function StripePaymentForm({
  clientSecret,
  publishableKey,
  amount,
  reservationId,
}: {
  clientSecret: string;
  publishableKey: string;
  amount: string;
  reservationId: number;
}) {
  const mount = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState<{ confirm: () => Promise<string | null> } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);

  useEffect(() => {
    let live = true;
    import('@stripe/stripe-js')
      .then(({ loadStripe }) => loadStripe(publishableKey))
      .then((stripe) => {
        if (!live || !stripe || !mount.current) return;
        const elements = stripe.elements({ clientSecret });
        elements.create('payment').mount(mount.current);
        setReady({
          confirm: async () => {
            const returnUrl = new URL(window.location.href);
            returnUrl.searchParams.set('reservation', String(reservationId));
            const result = await stripe.confirmPayment({ elements, confirmParams: { return_url: returnUrl.toString() } });
            return result.error?.message ?? null;
          },
        });
      })
      .catch(() => live && setError('The secure card form could not load. Check your connection and try again.'));
    return () => {
      live = false;
    };
  }, [clientSecret, publishableKey, reservationId]);

  const pay = async () => {
    if (!ready) return;
    setPaying(true);
    setError(null);
    try {
      setError(await ready.confirm());
    } catch (thrown) {
      // Stripe.js throws (rather than answering with an error) when it cannot send the payment at all.
      setError(
        `Your payment could not be sent${thrown instanceof Error && thrown.message ? ` (${thrown.message})` : ''}. Your card has not been charged; please try again.`,
      );
    } finally {
      setPaying(false);
    }
  };
  return (
    <div className="checkout-page__form">
      <div ref={mount} />
      {error && <Alert tone="destructive">{error}</Alert>}
      <Button onClick={() => void pay()} loading={paying} disabled={!ready}>
        {`Pay ${amount} deposit`}
      </Button>
    </div>
  );
}
