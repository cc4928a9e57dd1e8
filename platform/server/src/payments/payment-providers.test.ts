import { describe, expect, it } from 'vitest';
import type { SiteConfig } from '@dealer/contracts/site';
import { HostedPagePaymentProvider } from './hosted-provider';
import { PaymentNotConfigured } from './payment-provider';
import { PaymentProviders, stripePublishableKey } from './payment-providers';
import { StripePaymentProvider } from './stripe-provider';

const site = (secrets: Partial<SiteConfig['secrets']> = {}) =>
  ({
    id: 7,
    dealerships: [{ id: 701, slug: 'metro', name: 'Metro', stripe_publishable_key: 'pk_test_metro' }],
    secrets: { podium_api_token: null, stripe_secret_key: null, stripe_webhook_secret: null, lead_webhook_secret: null, ...secrets },
  }) as unknown as SiteConfig;

describe('which provider takes a deposit', () => {
  it("takes every deposit with the test provider in test mode, whatever the car's processor", () => {
    const providers = new PaymentProviders({ mode: 'test', stripeApi: null });
    for (const kind of ['stripe', 'till', 'st_george'] as const) expect(providers.forDeposit(site(), kind)).toBe(providers.test);
  });

  it("sends each car to its own processor in live mode, with the site's keys, and says plainly when they are missing", () => {
    const providers = new PaymentProviders({ mode: 'live', stripeApi: null });
    expect(() => providers.forDeposit(site(), 'stripe')).toThrow(PaymentNotConfigured);
    expect(() => providers.forDeposit(site(), 'till')).toThrow(PaymentNotConfigured);
    const keyed = site({
      stripe_secret_key: 'sk_test_metro',
      stripe_webhook_secret: 'whsec_metro',
      till: { url: 'https://till.example.com', key: 'till-key-0123456789' },
    });
    const stripe = providers.forDeposit(keyed, 'stripe');
    expect(stripe).toBeInstanceOf(StripePaymentProvider);
    expect(providers.forDeposit(keyed, 'stripe'), 'one client per site and key').toBe(stripe);
    expect(providers.forDeposit(keyed, 'till')).toBeInstanceOf(HostedPagePaymentProvider);
    expect(() => providers.forDeposit(keyed, 'st_george')).toThrow(PaymentNotConfigured);
    // A reservation paid in test mode is refunded by the test provider, whatever the mode is now.
    expect(providers.named(keyed, 'test')).toBe(providers.test);
  });

  it("gives the browser the dealership's publishable key for a Stripe car, and none for other processors", () => {
    const car = (type: 'stripe' | 'till', key: string, dealership = 701) => ({
      dealership_id: dealership,
      payment_processors: [{ authorization_type: type, authorization_key: key }],
    });
    expect(stripePublishableKey(site(), car('stripe', 'pk_test_car'))).toBe('pk_test_metro');
    expect(stripePublishableKey(site(), car('stripe', 'pk_test_car', 999))).toBe('pk_test_car');
    expect(stripePublishableKey(site(), car('stripe', 'not-a-key', 999))).toBeNull();
    expect(stripePublishableKey(site(), car('till', 'pub_demo_701'))).toBeNull();
  });
});
