import { useEffect, useState } from 'react';
import { isChatHidden } from '@dealer/rules/links';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { RemoteModule } from '../federation/remote-module';

/** SPEC §9 deferred widgets: after the first interaction or 3000 ms, whichever is first. */
export const deferredWidgetDelayMs = 3000;

export function DeferredChat({ pathname }: { pathname: string }) {
  const site = useAppSelector(selectSite);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (ready) return;
    const start = () => setReady(true);
    const events = ['scroll', 'click', 'touchstart', 'keydown'] as const;
    events.forEach((name) => window.addEventListener(name, start, { once: true, passive: true }));
    const timer = setTimeout(start, deferredWidgetDelayMs);
    return () => {
      clearTimeout(timer);
      events.forEach((name) => window.removeEventListener(name, start));
    };
  }, [ready]);
  if (!ready || isChatHidden(pathname, { hideOnCarsLocationsCheckout: site.features.hide_chat_on_stock_pages === true })) return null;
  return <RemoteModule module="mf-chat/ChatWidget" props={{}} compact loading={null} />;
}
