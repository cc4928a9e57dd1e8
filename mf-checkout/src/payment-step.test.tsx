// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testSite } from '@dealer/contracts/testing/test-site';
import type { Reservation, StartedPayment } from './checkout-api';
import { PaymentStep } from './payment-step';

/** Stripe.js as the Payment Element uses it: `confirmPayment` answers each press of Pay with the next of `confirmations`. */
const confirmations: (() => Promise<{ error?: { message: string } }>)[] = [];
const confirmPayment = vi.fn(() => (confirmations.shift() ?? (() => new Promise<never>(() => {})))());
vi.mock('@stripe/stripe-js', () => ({
  loadStripe: async () => ({
    elements: () => ({ create: () => ({ mount: () => {} }) }),
    confirmPayment,
  }),
}));

const reservation: Reservation = {
  id: 7,
  state: 'holding',
  car: { id: 1, slug: '2021-mazda-cx-5', name: '2021 Mazda CX-5' },
  deposit: { amount_cents: 50_000, currency: 'AUD' },
  held_until: Date.now() + 15 * 60_000,
  provider: 'stripe',
  payment_reference: null,
};
const payment: StartedPayment = {
  provider: 'stripe',
  client_secret: 'pi_1_secret_2',
  redirect_url: null,
  publishable_key: 'pk_test_dealer',
};

function renderStep() {
  render(<PaymentStep site={testSite()} reservation={reservation} payment={payment} onReserved={() => {}} onStartAgain={() => {}} />);
}

describe('paying the deposit with Stripe', () => {
  afterEach(() => {
    cleanup();
    confirmations.length = 0;
    confirmPayment.mockClear();
  });

  it('shows the error beside the card when Stripe.js throws, and lets the shopper press Pay again', async () => {
    confirmations.push(() => Promise.reject(new Error('Failed to fetch')));
    confirmations.push(async () => ({ error: { message: 'Your card was declined.' } }));
    renderStep();
    const payButton = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Pay $500 AUD deposit' });
    // Usable once Stripe.js has loaded and the element is mounted.
    await vi.waitFor(() => expect(payButton().disabled).toBe(false), { timeout: 10_000 });

    fireEvent.click(payButton());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Your payment could not be sent (Failed to fetch). Your card has not been charged; please try again.');
    expect(payButton().disabled).toBe(false);

    fireEvent.click(payButton());
    await vi.waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Your card was declined.'), { timeout: 10_000 });
    expect(payButton().disabled).toBe(false);
    expect(confirmPayment).toHaveBeenCalledTimes(2);
  });
});
