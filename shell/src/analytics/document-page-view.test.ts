// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testSite } from '@dealer/contracts/testing/test-site';
import { dispatchPlatformEvent } from '@dealer/events/bus';
import { documentCounted, startDocumentAnalytics } from './document-page-view';
import { adTrackingContent } from '@dealer/rules/ad-tracking';
import { pageTrackingStorageKey } from '@dealer/rules/first-page-tracking';
import { startAnalyticsSink } from './analytics-sink';

const site = testSite({ slug: 'metro-motor-group' });
const stops: (() => void)[] = [];

/** The events the sink logged to the platform (its first-party log: a beacon of the event's JSON as text), by category. */
const logged = (beacon: ReturnType<typeof vi.fn>) =>
  beacon.mock.calls.map(([, body]) => body as unknown).filter((body): body is string => typeof body === 'string');

async function categories(beacon: ReturnType<typeof vi.fn>) {
  return logged(beacon).map((body) => JSON.parse(body) as { category: string; event_properties: Record<string, unknown> });
}

function carPage() {
  document.body.innerHTML = `<div id="root" data-ssr><h1>2021 Toyota Hilux</h1></div>
<script id="page-view" type="application/json">${JSON.stringify({ pageType: 4, carSlug: 'toyota-hilux-1', carName: '2021 Toyota Hilux', viewContent: adTrackingContent({ stocknum: 'S1', price: 30000, name: '2021 Toyota Hilux' }) })}</script>`;
}

let beacon: ReturnType<typeof vi.fn>;
beforeEach(() => {
  beacon = vi.fn(() => true);
  vi.stubGlobal('navigator', { ...navigator, sendBeacon: beacon });
  localStorage.clear();
  carPage();
});
afterEach(() => {
  stops.splice(0).forEach((stop) => stop());
  vi.unstubAllGlobals();
});

describe('a server-rendered page counts its own view, without the app', () => {
  it('sends the page view the server wrote: the car page with its car', async () => {
    stops.push(startDocumentAnalytics(site));
    stops.push(startAnalyticsSink(site));
    const [view] = await categories(beacon);
    expect(view).toMatchObject({
      category: 'page_view',
      event_properties: { page_type: 4, car_slug: 'toyota-hilux-1', car_name: '2021 Toyota Hilux' },
    });
    // The visited pages the leads carry (SPEC §4) hold this one.
    expect(localStorage.getItem(pageTrackingStorageKey)).toContain(location.href);
  });

  it('once: the app and the car remote starting later do not count it again', async () => {
    stops.push(startDocumentAnalytics(site));
    // The app starts on the first tap: its sink and its first page view of the same address.
    stops.push(startAnalyticsSink(site));
    expect(documentCounted(location.href)).toBe(true);
    dispatchPlatformEvent('analytics:page-view', { pageType: 4, url: location.href, carSlug: 'toyota-hilux-1' });
    const views = (await categories(beacon)).filter((entry) => entry.category === 'page_view');
    expect(views).toHaveLength(1);
    // The next page the app shows is counted as usual.
    expect(documentCounted(location.href)).toBe(false);
    dispatchPlatformEvent('analytics:page-view', { pageType: 2, url: `${location.origin}/search`, carSlug: undefined });
    expect((await categories(beacon)).filter((entry) => entry.category === 'page_view')).toHaveLength(2);
  });

  it('leaves the page view to the app when the document carries none', async () => {
    document.getElementById('page-view')!.remove();
    stops.push(startDocumentAnalytics(site));
    expect(documentCounted(location.href)).toBe(false);
    expect(await categories(beacon)).toEqual([]);
  });
});
