import { useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import type { Consent } from '@dealer/rules/analytics';
import { Button } from '@dealer/ui/button';
import { consentNow, onConsentChange, setConsent } from './consent';

/**
 * The consent banner of a site that asks (`consent_banner`): until the shopper answers, no
 * third-party tag loads; refusing keeps only the site's own first-party event log.
 */
export function ConsentBanner({ site }: { site: PublicSiteConfig }) {
  // The server (and hydration) cannot know what this browser answered: the banner comes after.
  const consent = useSyncExternalStore<Consent | 'unknown'>(onConsentChange, consentNow, () => 'unknown');
  const shown = site.consent_banner === true && consent === 'unasked';
  const banner = useRef<HTMLElement>(null);
  // While it shows, what floats at the bottom of the screen (the chat's 'Text us') sits above it.
  useLayoutEffect(() => {
    const element = banner.current;
    if (!shown || !element) return;
    const root = document.documentElement;
    const inset = () => root.style.setProperty('--dp-bottom-inset', `${element.offsetHeight}px`);
    inset();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(inset) : null;
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      root.style.removeProperty('--dp-bottom-inset');
    };
  }, [shown]);
  if (!shown) return null;
  return (
    <section ref={banner} className="consent-banner" role="region" aria-label="Cookies and tracking">
      <p>{`${site.name} would like to use cookies from Google and Meta to measure visits and show you relevant ads. Our own site statistics are kept either way.`}</p>
      <div className="consent-banner__actions">
        <Button onClick={() => setConsent('granted')}>Accept</Button>
        <Button variant="secondary" onClick={() => setConsent('refused')}>
          Decline
        </Button>
      </div>
    </section>
  );
}
