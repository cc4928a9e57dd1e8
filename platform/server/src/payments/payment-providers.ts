import type { SiteConfig } from '@dealer/contracts/site';
import type { PaymentsConfig } from '../config';
import { HostedPagePaymentProvider } from './hosted-provider';
import { PaymentNotConfigured, type PaymentProvider, type PaymentProviderKind } from './payment-provider';
import { StripePaymentProvider } from './stripe-provider';
import { TestPaymentProvider } from './test-provider';

/** Live providers kept per site and key; far more than the sites one deployment serves. */
const maxCachedProviders = 2_000;

/**
 * Which provider takes a deposit. In test mode (the embedded default) the built-in test provider
 * takes every car's deposit, whatever its processor; in live mode each car's processor (SPEC §3
 * `authorization_type`) with the site's own server-side keys, or PaymentNotConfigured when the site
 * has none. A reservation remembers the provider that started its payment, so a refund or a
 * notification goes back to the same one even if the mode or the car changes later.
 */
export class PaymentProviders {
  readonly test = new TestPaymentProvider();
  private readonly live = new Map<string, PaymentProvider>();

  constructor(private readonly config: PaymentsConfig) {}

  get mode() {
    return this.config.mode;
  }

  /** The provider for a new deposit on a car whose processor is `processor`. */
  forDeposit(site: SiteConfig, processor: Exclude<PaymentProviderKind, 'test'>): PaymentProvider {
    return this.config.mode === 'test' ? this.test : this.named(site, processor);
  }

  /** The provider a stored reservation was paid through. */
  named(site: SiteConfig, kind: PaymentProviderKind): PaymentProvider {
    if (kind === 'test') return this.test;
    const secrets = site.secrets;
    if (kind === 'stripe') {
      const secretKey = secrets.stripe_secret_key;
      if (!secretKey) throw new PaymentNotConfigured(kind);
      return this.cached(`${site.id}|stripe|${secretKey}|${secrets.stripe_webhook_secret ?? ''}`, () => {
        return new StripePaymentProvider({
          secretKey,
          webhookSecret: secrets.stripe_webhook_secret,
          api: this.config.stripeApi ?? undefined,
        });
      });
    }
    const gateway = secrets[kind];
    if (!gateway) throw new PaymentNotConfigured(kind);
    return this.cached(`${site.id}|${kind}|${gateway.url}|${gateway.key}`, () => new HostedPagePaymentProvider({ kind, gateway }));
  }

  private cached(key: string, make: () => PaymentProvider): PaymentProvider {
    const known = this.live.get(key);
    if (known) return known;
    if (this.live.size >= maxCachedProviders) this.live.delete(this.live.keys().next().value!);
    const provider = make();
    this.live.set(key, provider);
    return provider;
  }
}

/**
 * The Stripe publishable key the browser's Payment Element needs for a car: its dealership's
 * `stripe_publishable_key` (SPEC §3 site config), else the `pk_…` its processor carries. Null: not Stripe.
 */
export function stripePublishableKey(
  site: Pick<SiteConfig, 'dealerships'>,
  car: { dealership_id: number; payment_processors: { authorization_type: string; authorization_key: string }[] },
): string | null {
  const processor = car.payment_processors.find((entry) => entry.authorization_type === 'stripe');
  if (!processor) return null;
  const dealership = site.dealerships.find((entry) => entry.id === car.dealership_id)?.stripe_publishable_key;
  return dealership ?? (processor.authorization_key.startsWith('pk_') ? processor.authorization_key : null);
}
