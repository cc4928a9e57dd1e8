import { describe, expect, it } from 'vitest';
import { depositFor, holdsTheCar, nextReservationState, reservationStates, type DepositCar } from './reservation';

const car = (deposit: number | null, price = 30_000, type: 'stripe' | 'till' | 'st_george' = 'stripe'): DepositCar => ({
  price,
  payment_processors: deposit === null ? [] : [{ authorization_type: type, authorization_key: 'pk_test_demo', deposit_amount: deposit }],
});

describe('the deposit a car takes', () => {
  it("is its processor's deposit, in cents, in the site's currency", () => {
    expect(depositFor(car(500), 'en-AU')).toEqual({ amountCents: 50_000, currency: 'AUD', provider: 'stripe' });
    expect(depositFor(car(250.5, 30_000, 'till'), 'en-NZ')).toEqual({ amountCents: 25_050, currency: 'NZD', provider: 'till' });
    expect(depositFor(car(1000, 30_000, 'st_george'), 'en-US')).toEqual({ amountCents: 100_000, currency: 'USD', provider: 'st_george' });
  });

  it('is none without a processor, or with a deposit that is not a positive amount below the price', () => {
    expect(depositFor(car(null), 'en-AU')).toBeNull();
    expect(depositFor(car(0), 'en-AU')).toBeNull();
    expect(depositFor(car(-100), 'en-AU')).toBeNull();
    expect(depositFor(car(Number.NaN), 'en-AU')).toBeNull();
    expect(depositFor(car(30_000, 30_000), 'en-AU')).toBeNull();
  });
});

describe("a reservation's states", () => {
  it('reserves the car when a held car is paid for, and frees it when the dealer releases it', () => {
    expect(nextReservationState('holding', 'paid')).toBe('reserved');
    expect(nextReservationState('reserved', 'dealer-released')).toBe('released');
  });

  it('lets a hold run out or the shopper give it up, and still honours a payment that lands after', () => {
    expect(nextReservationState('holding', 'hold-ran-out')).toBe('expired');
    expect(nextReservationState('holding', 'shopper-cancelled')).toBe('cancelled');
    expect(nextReservationState('expired', 'paid')).toBe('reserved');
    expect(nextReservationState('expired', 'paid-too-late')).toBe('refunded');
  });

  it('never moves a reservation out of a final state, nor pays twice', () => {
    for (const state of ['released', 'refunded'] as const) {
      for (const event of ['paid', 'paid-too-late', 'shopper-cancelled', 'hold-ran-out', 'dealer-released'] as const)
        expect(nextReservationState(state, event)).toBeNull();
    }
    expect(nextReservationState('reserved', 'paid')).toBeNull();
    expect(nextReservationState('reserved', 'hold-ran-out')).toBeNull();
  });

  it('holds the car only while holding or reserved', () => {
    expect(reservationStates.filter(holdsTheCar)).toEqual(['holding', 'reserved']);
  });
});
