import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { NamedSlotContext, RemoteSlotContext } from '@dealer/ui/remote-slot';
import { useRoutedLinks } from '@dealer/ui/routed-links';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { resolveRoute } from '@dealer/rules/routes';
import { SiteHeader } from './layout/site-header';
import { PreviewBanner } from './layout/preview-banner';
import { SiteFooter } from './layout/site-footer';
import { ChatLauncher } from './layout/chat-launcher';
import { RouteView } from './route-view';
import { renderNamedSlot, renderSlot } from './federation/remote-module';
import { usePrefetchOnHover } from './federation/prefetch';
import { recordPageVisit } from './page-tracking';
import { dispatchPlatformEvent } from '@dealer/events/bus';
import { pageViewTypeOf } from '@dealer/rules/analytics';
import { startAnalyticsSink } from './analytics/analytics-sink';
import { documentCounted } from './analytics/document-page-view';
import { ConsentBanner } from './analytics/consent-banner';

export function App() {
  const site = useAppSelector(selectSite);
  const location = useLocation();
  const match = resolveRoute(site, location.pathname, new URLSearchParams(location.search));
  usePrefetchOnHover(site);
  // The header's, footer's and cards' links are plain anchors this follows through the router.
  useRoutedLinks();

  // A new page starts at its top. Not the first one: the browser placed it, and the shopper may have
  // scrolled a server-rendered page before its code ran (jumping back to the top then moved what
  // they were tapping away from under their finger).
  const shownPath = useRef(location.pathname);
  useEffect(() => {
    if (shownPath.current === location.pathname) return;
    shownPath.current = location.pathname;
    window.scrollTo(0, 0);
  }, [location.pathname]);

  // The sink subscribes before the first page view below is sent (effects run in order).
  useEffect(() => startAnalyticsSink(site), [site]);

  const pageType = pageViewTypeOf(match);
  useEffect(() => {
    // A server-rendered page counted itself before the app started (analytics/document-page-view.ts).
    if (documentCounted(window.location.href)) return;
    recordPageVisit(window.location.href);
    // The vehicle page sends its own page view: only it knows a new car from a used one.
    if (pageType !== 'own') dispatchPlatformEvent('analytics:page-view', { pageType, url: window.location.href });
  }, [location.pathname, location.search, pageType]);

  return (
    <RemoteSlotContext.Provider value={renderSlot}>
      <NamedSlotContext.Provider value={renderNamedSlot}>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <PreviewBanner site={site} />
        <SiteHeader />
        <main id="main" className="site-main">
          <RouteView match={match} />
        </main>
        <SiteFooter />
        <ChatLauncher pathname={location.pathname} />
        <ConsentBanner site={site} />
      </NamedSlotContext.Provider>
    </RemoteSlotContext.Provider>
  );
}
