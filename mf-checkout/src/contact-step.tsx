import { FORM_ERROR } from 'final-form';
import { Form } from 'react-final-form';
import type { Car } from '@dealer/contracts/car';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { validateFields } from '@dealer/rules/lead-validation';
import { phoneRuleFor } from '@dealer/rules/phone';
import { checkoutFormRules, reservationTerms } from '@dealer/rules/reservation';
import { Alert } from '@dealer/ui/alert';
import { Button } from '@dealer/ui/button';
import { checkoutApi, reservationToken, type Reservation, type StartedPayment } from './checkout-api';
import { TextField, TickField } from './checkout-fields';

type ContactValues = { first_name?: string; last_name?: string; email?: string; phone?: string; terms_accepted?: boolean };

/**
 * The shopper's details and the reservation terms. Continuing holds the car for them (or says
 * who has it) and starts the payment; whatever was typed stays when the server refuses.
 */
export function ContactStep({
  site,
  car,
  notice,
  onHeld,
}: {
  site: PublicSiteConfig;
  car: Car;
  notice?: string;
  onHeld: (reservation: Reservation, payment: StartedPayment) => void;
}) {
  const validate = (values: ContactValues) =>
    validateFields(checkoutFormRules, values, { phoneRule: phoneRuleFor(site), locale: site.locale });

  const onSubmit = async (values: ContactValues) => {
    const answer = await checkoutApi.hold(car.slug, { ...values, terms_accepted: values.terms_accepted === true });
    if (!answer.ok) return { ...answer.fields, [FORM_ERROR]: answer.message };
    reservationToken.set(answer.data.reservation.id, answer.data.token);
    onHeld(answer.data.reservation, answer.data.payment);
    return undefined;
  };

  return (
    <Form<ContactValues> onSubmit={onSubmit} validate={validate} initialValues={{ terms_accepted: false }}>
      {({ handleSubmit, submitting, submitError }) => (
        <form className="checkout-page__form" noValidate onSubmit={handleSubmit} aria-label="Your details">
          <h2>Your details</h2>
          {notice && <Alert tone="destructive">{notice}</Alert>}
          <TextField name="first_name" label="First name" autoComplete="given-name" maxLength={200} />
          <TextField name="last_name" label="Last name" autoComplete="family-name" maxLength={200} />
          <TextField name="email" label="Email address" type="email" inputMode="email" autoComplete="email" maxLength={200} />
          <TextField name="phone" label="Mobile number" type="tel" inputMode="tel" autoComplete="tel" maxLength={30} />
          <p className="checkout-page__terms">{reservationTerms(site.name)}</p>
          <TickField name="terms_accepted">I agree to the reservation terms</TickField>
          {submitError && <Alert tone="destructive">{String(submitError)}</Alert>}
          <Button type="submit" loading={submitting}>
            Continue to payment
          </Button>
        </form>
      )}
    </Form>
  );
}
