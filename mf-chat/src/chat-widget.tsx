import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import type { ChatWidgetProps } from '@dealer/contracts/remote-modules';
import { dispatchPlatformEvent } from '@dealer/events/bus';
import {
  chatChoiceFor,
  chatEventLabel,
  chatMessageCounts,
  chatWelcomeClosedKey,
  type ChatChoice,
  type ChatProvider,
} from '@dealer/rules/chat';
import { eventIds } from '@dealer/rules/enquiry';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { Button } from '@dealer/ui/button';
import { loadProvider, onProviderShopperMessage, openProvider, setProviderVisible, type ProviderStatus } from './providers';
import './chat-widget.css';

/** The built-in chat (its form, phone rules and polling) loads when the shopper opens it, not with the launcher. */
const BuiltInChat = lazy(() => import('./built-in-chat').then((module) => ({ default: module.BuiltInChat })));

/** SPEC §9: the welcome bubble appears 3 seconds after load. */
export const welcomeDelayMs = 3000;

const interactionEvents = ['scroll', 'click', 'touchstart', 'keydown', 'pointerdown'] as const;

/** When the shopper last acted in the chat (opened it, sent a message), for SPEC §9's 10-second rule. */
let lastShopperActionAt: number | null = null;
/** Providers whose message reports are already counted on this page (the widget may mount again). */
const listening = new Set<string>();

const trackMessage = (choice: ChatChoice) =>
  dispatchPlatformEvent('analytics:track', { eventId: eventIds.webchatMessage, label: chatEventLabel(choice) });

/**
 * The chat launcher: a welcome bubble after 3 s unless the shopper closed it before (remembered),
 * and 'Text us', which opens the site's chat provider (its script loaded on the shopper's first
 * interaction, never before) or the built-in chat: for sites without a provider, for shoppers who
 * refused third-party tags, and whenever the provider's script cannot be loaded. With `openOnStart`
 * the shopper already pressed the shell's 'Text us' (whose bubble the shell handled): the chat opens
 * at once, as that press would here, and no bubble shows.
 */
export default function ChatWidget({ startedBy = 'timer', thirdPartyAllowed = true, openOnStart = false }: ChatWidgetProps) {
  const site = useAppSelector(selectSite);
  const choice = useMemo<ChatChoice>(() => (thirdPartyAllowed ? chatChoiceFor(site) : { kind: 'built_in' }), [site, thirdPartyAllowed]);
  const provider: ChatProvider | null = choice.kind === 'built_in' ? null : choice;
  const closedKey = chatWelcomeClosedKey(site.slug);
  const [bubble, setBubble] = useState(false);
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState<ProviderStatus>('idle');
  const [opening, setOpening] = useState(false);

  useEffect(() => {
    if (openOnStart || localStorage.getItem(closedKey)) return;
    const timer = setTimeout(() => setBubble(true), welcomeDelayMs);
    return () => clearTimeout(timer);
  }, [closedKey, openOnStart]);

  // The provider's script: on the shopper's first interaction (at once when that is what brought the launcher).
  useEffect(() => {
    if (!provider) return;
    let cancelled = false;
    const load = () => {
      interactionEvents.forEach((name) => window.removeEventListener(name, load));
      setStatus((current) => (current === 'idle' ? 'loading' : current));
      void loadProvider(provider).then((ok) => {
        if (!cancelled) setStatus(ok ? 'ready' : 'failed');
      });
    };
    if (startedBy === 'interaction') load();
    else interactionEvents.forEach((name) => window.addEventListener(name, load, { once: true, passive: true }));
    return () => {
      cancelled = true;
      interactionEvents.forEach((name) => window.removeEventListener(name, load));
    };
  }, [provider, startedBy]);

  // The provider's own window shows while the launcher does (it is hidden where the page's rule hides chat).
  useEffect(() => {
    if (!provider || status !== 'ready') return;
    setProviderVisible(provider, true);
    if (!listening.has(provider.src)) {
      listening.add(provider.src);
      onProviderShopperMessage(provider, () => {
        if (chatMessageCounts(lastShopperActionAt, Date.now())) trackMessage(provider);
      });
    }
    return () => setProviderVisible(provider, false);
  }, [provider, status]);

  const closeBubble = () => {
    setBubble(false);
    localStorage.setItem(closedKey, '1');
  };

  const builtIn = !provider || status === 'failed';

  /** 'Text us': opens the chat, loading the provider first if needed; a second press closes the built-in one. */
  const textUs = async ({ toggle }: { toggle: boolean }) => {
    closeBubble();
    lastShopperActionAt = Date.now();
    if (builtIn) return setOpen(toggle ? !open : true);
    setOpening(true);
    const ok = await loadProvider(provider);
    setOpening(false);
    setStatus(ok ? 'ready' : 'failed');
    if (ok) openProvider(provider);
    else setOpen(true);
  };

  // The press of the shell's 'Text us' that brought this widget: it opens the chat, once per mount.
  const openedOnStart = useRef(false);
  useEffect(() => {
    if (!openOnStart || openedOnStart.current) return;
    openedOnStart.current = true;
    void textUs({ toggle: false });
  });

  return (
    <div className="chat-widget" data-remote-version={__REMOTE_VERSION__} data-chat-provider={builtIn ? 'built_in' : provider.kind}>
      {bubble && !open && (
        <div className="chat-widget__bubble" role="status">
          <p>{`Hi! Questions about a car? ${site.name} can text you back.`}</p>
          <button type="button" className="chat-widget__close" aria-label="Close message" onClick={closeBubble}>
            ×
          </button>
        </div>
      )}
      {open && builtIn && (
        <section className="chat-widget__panel" aria-label="Chat with us">
          <button type="button" className="chat-widget__close" aria-label="Close chat" onClick={() => setOpen(false)}>
            ×
          </button>
          <Suspense fallback={<p role="status">Opening chat…</p>}>
            <BuiltInChat
              site={site}
              onShopperMessage={() => {
                lastShopperActionAt = Date.now();
                trackMessage({ kind: 'built_in' });
              }}
            />
          </Suspense>
        </section>
      )}
      <Button
        className="chat-widget__launcher"
        aria-busy={opening}
        aria-expanded={builtIn ? open : undefined}
        onClick={() => void textUs({ toggle: true })}
      >
        Text us
      </Button>
    </div>
  );
}
