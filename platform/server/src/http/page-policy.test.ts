import { describe, expect, it } from 'vitest';
import { testSite } from '@dealer/contracts/testing/test-site';
import { contentSecurityPolicy, platformOriginsOf } from './page-policy';

const directive = (policy: string, name: string) => policy.split(';').find((part) => part.startsWith(`${name} `));

describe('the content security policy of a page', () => {
  it("names the deployment's remote CDN, its search host and Stripe's hosts for live deposits", () => {
    const platform = platformOriginsOf({
      remotesBaseUrl: 'https://cdn.example.com/mf',
      meilisearch: { url: 'https://search.example.com:7700', apiKey: 'k' } as never,
      payments: { mode: 'live' } as never,
    });
    const policy = contentSecurityPolicy(platform, null);
    expect(directive(policy, 'script-src')).toBe("script-src 'self' https://cdn.example.com https://js.stripe.com");
    expect(directive(policy, 'connect-src')).toBe(
      "connect-src 'self' https://cdn.example.com https://search.example.com:7700 https://api.stripe.com",
    );
    expect(directive(policy, 'frame-src')).toBe("frame-src 'self' https://js.stripe.com https://hooks.stripe.com");
    // Test deposits load nothing of Stripe's in the browser.
    const test = contentSecurityPolicy(
      platformOriginsOf({ remotesBaseUrl: null, meilisearch: null, payments: { mode: 'test' } as never }),
      null,
    );
    expect(test).not.toContain('stripe');
    expect(directive(test, 'default-src')).toBe("default-src 'self'");
  });

  it("adds the site's own tag and chat hosts, each once", () => {
    const platform = platformOriginsOf({ remotesBaseUrl: null, meilisearch: null, payments: { mode: 'test' } as never });
    const site = testSite();
    const withVendors = {
      ...site,
      third_party: { ...site.third_party, google_analytics_id: 'G-1', facebook_pixel: null, zendesk_key: 'zk' },
      features: { ...site.features, chat_provider: undefined },
    };
    const policy = contentSecurityPolicy(platform, withVendors);
    expect(directive(policy, 'script-src')).toBe("script-src 'self' https://www.googletagmanager.com https://static.zdassets.com");
    expect(directive(policy, 'connect-src')).toBe(
      "connect-src 'self' https://www.google-analytics.com https://*.google-analytics.com https://www.googletagmanager.com https://*.zendesk.com wss://*.zendesk.com https://*.zdassets.com",
    );
    expect(policy).not.toMatch(/facebook|podium|livechat|impel/);
  });
});
