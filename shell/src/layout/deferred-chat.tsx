import { useEffect, useState } from 'react';
import type { ChatWidgetProps } from '@dealer/contracts/remote-modules';
import { thirdPartyAllowed } from '@dealer/rules/analytics';
import { isChatHidden } from '@dealer/rules/links';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { consentNow, onConsentChange } from '../analytics/consent';
import { RemoteModule } from '../federation/remote-module';

/** SPEC §9 deferred widgets: after the first interaction or 3000 ms, whichever is first. */
export const deferredWidgetDelayMs = 3000;

/**
 * The chat launcher, deferred (SPEC §9) and hidden where SPEC §2 hides it. It is told what brought
 * it (a provider's script waits for an interaction) and whether third-party chat is allowed: on a
 * site that asks consent, only once given; the built-in chat stands in until then.
 */
export function DeferredChat({ pathname }: { pathname: string }) {
  const site = useAppSelector(selectSite);
  const [startedBy, setStartedBy] = useState<ChatWidgetProps['startedBy'] | null>(null);
  const [consent, setConsent] = useState(consentNow);
  useEffect(() => onConsentChange(setConsent), []);
  useEffect(() => {
    if (startedBy) return;
    const byInteraction = () => setStartedBy('interaction');
    const events = ['scroll', 'click', 'touchstart', 'keydown'] as const;
    events.forEach((name) => window.addEventListener(name, byInteraction, { once: true, passive: true }));
    const timer = setTimeout(() => setStartedBy('timer'), deferredWidgetDelayMs);
    return () => {
      clearTimeout(timer);
      events.forEach((name) => window.removeEventListener(name, byInteraction));
    };
  }, [startedBy]);
  if (!startedBy || isChatHidden(pathname, { hideOnCarsLocationsCheckout: site.features.hide_chat_on_stock_pages === true })) return null;
  const props: ChatWidgetProps = { startedBy, thirdPartyAllowed: thirdPartyAllowed(site, consent) };
  return <RemoteModule module="mf-chat/ChatWidget" props={props} compact loading={null} />;
}
