import { describe, it, expect } from 'vitest';
import { canReserve, reserveBlockReasons as why, reserveOptionsFor, siteTakesDeposits, type ReserveCar } from './reserve';

const stripe = { authorization_type: 'stripe', authorization_key: 'pk_test', deposit_amount: 500 } as const;

const car = (over: Partial<ReserveCar> = {}): ReserveCar => ({
  price: 25990,
  status: 'in_stock',
  sold: false,
  reserved: false,
  reservable: true,
  payment_processors: [stripe],
  has_checkout_payment_processor: false,
  ...over,
});

const online = { siteSupportsOnlinePayment: true };

describe('canReserve', () => {
  it.each([
    ['eligible in-stock car', car(), online, { ok: true }],
    ['price 201', car({ price: 201 }), online, { ok: true }],
    ['price 200.01', car({ price: 200.01 }), online, { ok: true }],
    ['price 200', car({ price: 200 }), online, { ok: false, reason: why.price }],
    ['price 0', car({ price: 0 }), online, { ok: false, reason: why.price }],
    ['price NaN', car({ price: Number.NaN }), online, { ok: false, reason: why.price }],
    ['site without online payment', car(), { siteSupportsOnlinePayment: false }, { ok: false, reason: why.noOnlinePayment }],
    ['coming soon, not allowed', car({ status: 'coming_soon' }), online, { ok: false, reason: why.status }],
    ['coming soon, allowed', car({ status: 'coming_soon' }), { ...online, allowComingSoon: true }, { ok: true }],
    ['in stock with coming soon allowed', car(), { ...online, allowComingSoon: true }, { ok: true }],
    ['sold status', car({ status: 'sold' }), online, { ok: false, reason: why.sold }],
    ['sold flag', car({ sold: true }), online, { ok: false, reason: why.sold }],
    [
      'sold even when coming soon is allowed',
      car({ status: 'sold' }),
      { ...online, allowComingSoon: true },
      { ok: false, reason: why.sold },
    ],
    ['already reserved', car({ reserved: true }), online, { ok: false, reason: why.reserved }],
    ['reservable false', car({ reservable: false }), online, { ok: false, reason: why.notReservable }],
    ['reservable null', car({ reservable: null }), online, { ok: true }],
    ['no payment processor', car({ payment_processors: [] }), online, { ok: false, reason: why.noPaymentProcessor }],
    ['checkout processor only', car({ payment_processors: [], has_checkout_payment_processor: true }), online, { ok: true }],
  ] as const)('%s', (_name, input, opts, expected) => {
    expect(canReserve(input, opts)).toEqual(expected);
  });
});

describe('which sites take deposits', () => {
  it('takes none on subscription and rental sites, and otherwise only with a payment provider', () => {
    expect(siteTakesDeposits({ template: 'dealer-group', payment_provider: 'stripe' })).toBe(true);
    expect(siteTakesDeposits({ template: 'dealer-group', payment_provider: null })).toBe(false);
    expect(siteTakesDeposits({ template: 'subscription-cars', payment_provider: 'stripe' })).toBe(false);
    expect(siteTakesDeposits({ template: 'rental-cars', payment_provider: 'stripe' })).toBe(false);
  });
});

describe("a site's reserve options", () => {
  it('lets coming-soon cars be reserved only on a dealer that takes deposits on them', () => {
    const site = (features: { reserve_coming_soon?: boolean }) => ({
      template: 'campers' as const,
      payment_provider: 'stripe',
      features: features as never,
    });
    const comingSoon = car({ status: 'coming_soon' });
    expect(canReserve(comingSoon, reserveOptionsFor(site({ reserve_coming_soon: true })))).toEqual({ ok: true });
    expect(canReserve(comingSoon, reserveOptionsFor(site({})))).toEqual({ ok: false, reason: why.status });
    expect(
      reserveOptionsFor({ template: 'rental-cars', payment_provider: 'stripe', features: { reserve_coming_soon: true } as never })
        .siteSupportsOnlinePayment,
    ).toBe(false);
  });
});
