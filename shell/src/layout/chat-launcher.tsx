import { startTransition, useEffect, useRef, useState, useSyncExternalStore, type ComponentType } from 'react';
import type { ChatWidgetProps } from '@dealer/contracts/remote-modules';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { thirdPartyAllowed } from '@dealer/rules/analytics';
import { isChatHidden } from '@dealer/rules/links';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { Button } from '@dealer/ui/button';
import { consentNow, onConsentChange } from '../analytics/consent';
import { chatWelcomeClosedBefore, chatWelcomeDelayMs } from '../boot/chat-bubble';
import { RemoteBoundary } from '../federation/remote-boundary';
import { forgetFailedRemote, isModuleEnabled, loadRemoteModule } from '../federation/remote-runtime';

const chatWidget = 'mf-chat/ChatWidget';

const subscribeNever = () => () => {};
/** Whether this component's markup was drawn by the browser, not adopted from the server's page (fixed at mount). */
function useDrawnInBrowser() {
  const inBrowser = useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
  const [drawnInBrowser] = useState(inBrowser);
  return drawnInBrowser;
}

/**
 * The chat launcher where chat shows: the site runs mf-chat, and SPEC §2 does not hide it here
 * (careers pages; on some sites stock pages). Rendered on the server with the page.
 */
export function ChatLauncher({ pathname }: { pathname: string }) {
  const site = useAppSelector(selectSite);
  const hidden = isChatHidden(pathname, { hideOnCarsLocationsCheckout: site.features.hide_chat_on_stock_pages === true });
  if (hidden || !isModuleEnabled(chatWidget)) return null;
  return <LauncherThenWidget site={site} />;
}

/**
 * 'Text us' and the welcome bubble as markup: the page shows them, and the document's first script
 * (boot/chat-bubble.ts) shows and closes the bubble, before any of the app's code runs. The widget
 * (the federation runtime and mf-chat) loads when the shopper presses Text us, a press made before
 * the app started included (the keeper, boot/before-hydration.ts, hands it over), and opens at once.
 * The shell's launcher stays, busy, until the widget's replaces it in the same commit: never two.
 * The widget is told whether third-party chat is allowed: on a site that asks consent, only once given.
 */
function LauncherThenWidget({ site }: { site: PublicSiteConfig }) {
  const [Widget, setWidget] = useState<ComponentType<ChatWidgetProps> | null>(null);
  const [loading, setLoading] = useState(false);
  const [consent, setConsent] = useState(consentNow);
  useEffect(() => onConsentChange(setConsent), []);
  const bubble = useRef<HTMLDivElement>(null);
  const focusWidget = useRef(false);
  const drawnInBrowser = useDrawnInBrowser();

  // The first script shows the bubble the server wrote, when it is due. One the browser draws later
  // (a page it rendered itself, or after a page without chat) shows at once when already due, or
  // by the first script's timer when not.
  useEffect(() => {
    if (!drawnInBrowser || !bubble.current || performance.now() < chatWelcomeDelayMs || chatWelcomeClosedBefore(site.slug)) return;
    bubble.current.hidden = false;
  }, [drawnInBrowser, site.slug]);

  // A keyboard shopper stays on Text us when the widget's takes the shell's place.
  useEffect(() => {
    if (Widget && focusWidget.current) document.querySelector<HTMLElement>('.chat-widget__launcher')?.focus();
  }, [Widget]);

  const textUs = () => {
    if (loading) return;
    setLoading(true);
    loadRemoteModule<{ default: ComponentType<ChatWidgetProps> }>(chatWidget).then(
      (loaded) => {
        focusWidget.current = document.activeElement?.closest('[data-chat-launcher]') != null;
        startTransition(() => setWidget(() => loaded.default));
      },
      () => {
        // Reported where it failed. The launcher stays, and the next press asks the network again.
        forgetFailedRemote(chatWidget);
        setLoading(false);
      },
    );
  };

  if (Widget) {
    const props: ChatWidgetProps = { startedBy: 'interaction', thirdPartyAllowed: thirdPartyAllowed(site, consent), openOnStart: true };
    return (
      <RemoteBoundary module={chatWidget} compact onRetry={() => undefined}>
        <Widget {...props} />
      </RemoteBoundary>
    );
  }
  return (
    <div className="chat-widget" data-chat-launcher="" data-site={site.slug}>
      {/* Its `hidden` changes outside React, never by a render: the first script's (maybe before React adopted it), or the effect above. */}
      <div ref={bubble} className="chat-widget__bubble" role="status" hidden data-chat-bubble="" suppressHydrationWarning>
        <p>{`Hi! Questions about a car? ${site.name} can text you back.`}</p>
        <button type="button" className="chat-widget__close" aria-label="Close message" data-chat-bubble-close="">
          ×
        </button>
      </div>
      <Button className="chat-widget__launcher" aria-busy={loading || undefined} onClick={textUs}>
        Text us
      </Button>
    </div>
  );
}
