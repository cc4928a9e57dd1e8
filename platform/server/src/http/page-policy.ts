import type { SiteConfig } from '@dealer/contracts/site';
import { tagOriginsFor } from '@dealer/rules/analytics';
import { chatChoiceFor, chatOriginsFor } from '@dealer/rules/chat';
import type { PlatformConfig } from '../config';

/** The origins every page of this deployment may use, whichever site it is. */
export type PlatformOrigins = {
  /** Where remotes' files come from when not from this server (a CDN). */
  remotes: string[];
  /** A real Meilisearch the browser searches directly. */
  search: string[];
  /** Live deposits on Stripe: its Payment Element loads from js.stripe.com and talks to its API from frames of its own. */
  stripe: boolean;
};

/** This deployment's origins, as its settings give them. */
export function platformOriginsOf(config: Pick<PlatformConfig, 'remotesBaseUrl' | 'meilisearch' | 'payments'>): PlatformOrigins {
  return {
    remotes: config.remotesBaseUrl ? [new URL(config.remotesBaseUrl).origin] : [],
    // With a real Meilisearch the browser searches it directly (with a tenant token).
    search: config.meilisearch ? [new URL(config.meilisearch.url).origin] : [],
    stripe: config.payments.mode === 'live',
  };
}

type VendorSite = Pick<SiteConfig, 'third_party'> & { features: Pick<SiteConfig['features'], 'chat_provider'> };

/**
 * The Content-Security-Policy of a site's pages: this platform's origins plus the site's own
 * vendors only (its Google and Meta tags, its chat provider), so a page's policy names no vendor it
 * does not use and its first round trip carries no other site's hosts. Without a site (API answers,
 * assets, error pages) the policy names no vendor at all. No inline script, no eval.
 */
export function contentSecurityPolicy(platform: PlatformOrigins, site: VendorSite | null): string {
  const tags = site ? tagOriginsFor(site) : { script: [], connect: [], img: [] };
  const chat = site ? chatOriginsFor(chatChoiceFor(site)) : { script: [], connect: [], frame: [], img: [] };
  const stripe = platform.stripe;
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...platform.remotes, ...tags.script, ...chat.script, ...(stripe ? ['https://js.stripe.com'] : [])]],
    ['frame-src', ["'self'", ...chat.frame, ...(stripe ? ['https://js.stripe.com', 'https://hooks.stripe.com'] : [])]],
    ['style-src', ["'self'", "'unsafe-inline'", ...platform.remotes]],
    ['img-src', ["'self'", 'data:', 'blob:', ...tags.img, ...chat.img]],
    ['font-src', ["'self'", ...platform.remotes]],
    [
      'connect-src',
      ["'self'", ...platform.remotes, ...platform.search, ...tags.connect, ...chat.connect, ...(stripe ? ['https://api.stripe.com'] : [])],
    ],
    ['frame-ancestors', ["'self'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${[...new Set(sources)].join(' ')}`).join(';');
}
