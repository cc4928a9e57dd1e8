import type { PlatformEvents } from '@dealer/contracts/events';
import type { DocumentSite } from '@dealer/contracts/site';
import { subscribePlatformEvent } from '@dealer/events/bus';
import {
  conversionEventDelayMs,
  dataLayerEvent,
  dataLayerPageView,
  deferredTagDelayMs,
  eventLogEntry,
  firstInteractionEvents,
  tagScriptsFor,
  thirdPartyAllowed,
} from '@dealer/rules/analytics';
import { analyticsIds } from './analytics-ids';
import { sendToEventLog } from './event-log';
import { consentNow, onConsentChange } from './consent';

type Command = (...args: unknown[]) => void;
type PageView = PlatformEvents['analytics:page-view'];
type PixelFunction = Command & { callMethod?: Command; queue: unknown[]; push: Command; loaded: boolean; version: string };
type TagWindow = Window & { dataLayer?: unknown[]; gtag?: Command; fbq?: PixelFunction; _fbq?: PixelFunction };

const tagWindow = () => window as TagWindow;

/**
 * The tag managers' own stubs (the snippets Google and Meta publish): calls made before their
 * scripts arrive are queued and read by them on load, so nothing tracked early is lost.
 */
function installStubs(site: DocumentSite) {
  const w = tagWindow();
  w.dataLayer ??= [];
  const { google_analytics_id: google, facebook_pixel: pixel } = site.third_party;
  if (google && !w.gtag) {
    w.gtag = function gtag() {
      // gtag.js reads Arguments objects, not arrays.
      // eslint-disable-next-line prefer-rest-params
      w.dataLayer!.push(arguments);
    };
    w.gtag('js', new Date());
    if (!google.startsWith('GTM-')) w.gtag('config', google, { send_page_view: false });
    else w.dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
  }
  if (pixel && !w.fbq) {
    const fbq = function (...args: unknown[]) {
      if (fbq.callMethod) fbq.callMethod(...args);
      else fbq.queue.push(args);
    } as PixelFunction;
    fbq.queue = [];
    fbq.push = fbq;
    fbq.loaded = true;
    fbq.version = '2.0';
    w.fbq = fbq;
    w._fbq ??= fbq;
    fbq('init', pixel);
  }
}

/** Adds the site's tag scripts once; never before first paint (the sink starts after the app's first render). */
function loadTagScripts(site: DocumentSite) {
  for (const { group, src } of tagScriptsFor(site)) {
    if (document.querySelector(`script[data-tag-group="${group}"]`)) continue;
    const script = document.createElement('script');
    script.async = true;
    script.src = src;
    script.dataset.tagGroup = group;
    document.head.appendChild(script);
  }
}

/**
 * SPEC §7: the server-side copy of a pixel event, 250 ms after it, with the same event id so Meta
 * counts the two once. The platform hashes what identifies the shopper and forwards it (its outbox).
 */
function sendServerAdEvent(body: Record<string, unknown>) {
  setTimeout(() => {
    void fetch('/api/fb-events', {
      method: 'POST',
      body: JSON.stringify({ ...body, event_source_url: location.href }),
      headers: { 'Content-Type': 'application/json' },
      keepalive: true,
    }).catch(() => undefined);
  }, conversionEventDelayMs);
}

/**
 * The one analytics sink (issue 11): every event on the bus goes to the platform's event log
 * (first party, always), and, when the site has the ids and the shopper has not refused, to the
 * tag manager's data layer, GA4's gtag and the Meta pixel. The tags' scripts load after the first
 * interaction or 3 s (SPEC §4), and on a site that asks consent only once it is given.
 */
export function startAnalyticsSink(site: DocumentSite): () => void {
  // One sink per page, however many start it (the document's analytics, then the app): it stops when the last lets go.
  if (!running) running = { stop: runSink(site), users: 0 };
  const sink = running;
  sink.users++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--sink.users > 0 || running !== sink) return;
    running = null;
    sink.stop();
  };
}

let running: { stop: () => void; users: number } | null = null;

function runSink(site: DocumentSite): () => void {
  const ids = analyticsIds();
  const allowed = () => thirdPartyAllowed(site, consentNow());
  const w = tagWindow();
  const uid = () => (crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`);
  const stops: (() => void)[] = [];

  // Deferred tags: waiting for the first interaction or 3 s, then for consent where it is asked.
  let due = false;
  const loadWhenAllowed = () => {
    if (!due || !allowed()) return;
    installStubs(site);
    loadTagScripts(site);
  };
  const start = () => {
    if (due) return;
    due = true;
    loadWhenAllowed();
  };
  firstInteractionEvents.forEach((name) => window.addEventListener(name, start, { once: true, passive: true }));
  const timer = setTimeout(start, deferredTagDelayMs);
  stops.push(() => {
    clearTimeout(timer);
    firstInteractionEvents.forEach((name) => window.removeEventListener(name, start));
  });
  // The page the shopper is on when they accept is counted then: it was not sent to the tags before.
  let lastPageView: PageView | null = null;
  let lastViewContent: string | null = null;
  stops.push(
    onConsentChange(() => {
      loadWhenAllowed();
      if (lastPageView) pageViewToTags(lastPageView);
    }),
  );

  /** To the tags, when allowed: their stubs queue what comes before their scripts. */
  const toTags = (send: () => void) => {
    if (!allowed()) return;
    installStubs(site);
    send();
  };

  function pageViewToTags(view: PageView) {
    toTags(() => {
      w.dataLayer!.push(dataLayerPageView(view));
      w.gtag?.('event', 'page_view', { page_location: view.url, ...(view.pageType ? { page_type: view.pageType } : {}) });
      w.fbq?.('track', 'PageView');
    });
  }

  stops.push(
    subscribePlatformEvent('analytics:page-view', (view) => {
      // The same page counted twice (the document counted it, then the app or the car's remote on starting) is one view.
      if (lastPageView?.url === view.url) return;
      lastPageView = view;
      pageViewToTags(view);
      sendToEventLog(
        eventLogEntry({
          category: 'page_view',
          url: view.url,
          ...ids,
          properties: { page_type: view.pageType, car_slug: view.carSlug, car_name: view.carName },
        }),
      );
    }),
    subscribePlatformEvent('analytics:track', (event) => {
      const eventUid = uid();
      toTags(() => {
        w.dataLayer!.push(dataLayerEvent(event, eventUid));
        w.gtag?.('event', `dealer_event_${event.eventId}`, { event_label: event.label });
        if (!w.fbq) return;
        w.fbq('trackCustom', `DealerEvent${event.eventId}`, { label: event.label }, { eventID: eventUid });
        sendServerAdEvent({ eventName: `DealerEvent${event.eventId}`, eventId: eventUid });
      });
      sendToEventLog(
        eventLogEntry({
          category: `event_${event.eventId}`,
          url: location.href,
          ...ids,
          properties: { label: event.label, event_uid: eventUid, ...event.properties },
        }),
      );
    }),
    subscribePlatformEvent('ads:view-content', (content) => {
      const viewed = `${location.href} ${content.content_ids.join(',')}`;
      if (viewed === lastViewContent) return;
      lastViewContent = viewed;
      toTags(() => {
        if (!w.fbq) return;
        const eventUid = uid();
        w.fbq('track', 'ViewContent', content, { eventID: eventUid });
        sendServerAdEvent({ eventName: 'ViewContent', eventId: eventUid, contentOptions: content });
      });
    }),
    subscribePlatformEvent('search:performed', (search) =>
      toTags(() => {
        w.dataLayer!.push({ event: 'search', search_term: search.query, search_total: search.total });
        w.gtag?.('event', 'search', { search_term: search.query });
      }),
    ),
  );
  return () => stops.forEach((stop) => stop());
}
