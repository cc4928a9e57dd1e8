// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routeFilesAhead, startAppAfterFirstPaint, type AppStart } from './app-start';

const start: AppStart = { scripts: ['/assets/main.1.js'], preloads: [{ href: '/remotes/mf-vehicle/1.5.2/remoteEntry.js', as: 'script' }] };

/** A server-rendered car page: its photo (VehicleImage's main image) and the app-start data. */
function serverPage({
  mainImage,
  siteConfig,
  prefetches,
}: {
  mainImage: boolean;
  siteConfig?: string;
  prefetches?: AppStart['prefetches'];
}) {
  document.body.innerHTML = `<div id="root" data-ssr>${mainImage ? '<img src="/img/vehicle/car/suv/blue/5.jpg?w=750&amp;q=75" fetchpriority="high" elementtiming="main-image" alt="">' : '<h1>Home</h1>'}</div>`;
  const data = document.createElement('script');
  data.id = 'app-start';
  data.type = 'application/json';
  data.textContent = JSON.stringify({ ...start, ...(siteConfig ? { siteConfig } : {}), ...(prefetches ? { prefetches } : {}) });
  document.body.append(data);
  return document.querySelector('img');
}

const appScripts = () => [...document.head.querySelectorAll('script')].map((script) => script.getAttribute('src'));

/** Lets the decode promise and the frame after it run. */
async function nextFrames() {
  await vi.advanceTimersByTimeAsync(40);
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('requestAnimationFrame', (run: FrameRequestCallback) => setTimeout(() => run(0), 16));
  // jsdom loads no images: the photo stays incomplete until the test says it arrived.
  vi.spyOn(HTMLImageElement.prototype, 'complete', 'get').mockReturnValue(false);
  HTMLImageElement.prototype.decode = () => Promise.resolve();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

describe('when a server-rendered page starts loading its code', () => {
  it('in a browser without Element Timing: once its main image has arrived and the frame after its decode, then once', async () => {
    const photo = serverPage({ mainImage: true })!;
    startAppAfterFirstPaint();
    await vi.advanceTimersByTimeAsync(100);
    expect(appScripts()).toEqual([]);

    photo.dispatchEvent(new Event('load'));
    await nextFrames();
    expect(appScripts()).toEqual(['/assets/main.1.js']);
    // The route remote's files wait for the app's start or the page's settling (routeFilesAhead).
    expect(document.head.querySelector('link[href*="/remotes/"]')).toBeNull();
    await vi.advanceTimersByTimeAsync(2000);
    expect(appScripts()).toEqual(['/assets/main.1.js']);
  });

  it('in Chromium: when the browser reports the main image painted (Element Timing), not before', async () => {
    let report: ((entries: { identifier: string }[]) => void) | null = null;
    class ElementObserver {
      static supportedEntryTypes = ['element', 'largest-contentful-paint'];
      constructor(private readonly callback: (list: { getEntries: () => unknown[] }, observer: ElementObserver) => void) {}
      observe() {
        report = (entries) => this.callback({ getEntries: () => entries }, this);
      }
      disconnect() {
        report = null;
      }
    }
    vi.stubGlobal('PerformanceObserver', ElementObserver);
    const photo = serverPage({ mainImage: true })!;
    startAppAfterFirstPaint();
    await vi.advanceTimersByTimeAsync(40);
    // Arrived but not yet painted: the code waits.
    photo.dispatchEvent(new Event('load'));
    await nextFrames();
    report!([{ identifier: 'logo' }]);
    expect(appScripts()).toEqual([]);

    report!([{ identifier: 'main-image' }]);
    expect(appScripts()).toEqual(['/assets/main.1.js']);
    expect(report).toBeNull();
  });

  it('does not wait for a main image that is slow beyond a second, nor on a page without one', async () => {
    serverPage({ mainImage: true });
    startAppAfterFirstPaint();
    await vi.advanceTimersByTimeAsync(900);
    expect(appScripts()).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(appScripts()).toEqual(['/assets/main.1.js']);

    document.head.innerHTML = '';
    serverPage({ mainImage: false });
    startAppAfterFirstPaint();
    await vi.advanceTimersByTimeAsync(20);
    expect(appScripts()).toEqual(['/assets/main.1.js']);
  });

  it('does not fetch the site config as the page loads: the app fetches it as it starts', async () => {
    serverPage({ mainImage: false, siteConfig: '/api/site?v=abc' });
    startAppAfterFirstPaint();
    await vi.advanceTimersByTimeAsync(20);
    expect(appScripts()).toEqual(['/assets/main.1.js']);
    expect(document.head.querySelector('link[as="fetch"]')).toBeNull();
  });
});

describe('the route remote’s files, fetched ahead', () => {
  const links = () =>
    [...document.head.querySelectorAll('link')].map((link) => `${link.rel} ${link.getAttribute('as')} ${link.getAttribute('href')}`);

  it('are prefetched once the page has settled and preloaded when the app starts, each once per way', () => {
    serverPage({ mainImage: false });
    routeFilesAhead('prefetch');
    routeFilesAhead('prefetch');
    expect(links()).toEqual(['prefetch script /remotes/mf-vehicle/1.5.2/remoteEntry.js']);
    routeFilesAhead('preload');
    expect(links()).toEqual([
      'prefetch script /remotes/mf-vehicle/1.5.2/remoteEntry.js',
      'preload script /remotes/mf-vehicle/1.5.2/remoteEntry.js',
    ]);
  });

  it('with the other remote modules’ in the markup once the page has settled, and not when the app starts, which loads those itself', () => {
    serverPage({
      mainImage: false,
      prefetches: [
        { href: '/remotes/mf-leads/1.9.3/remoteEntry.js', as: 'script' },
        { href: '/remotes/mf-leads/1.9.3/EnquireButton.js', as: 'script' },
      ],
    });
    routeFilesAhead('preload');
    expect(links()).toEqual(['preload script /remotes/mf-vehicle/1.5.2/remoteEntry.js']);
    routeFilesAhead('prefetch');
    expect(links()).toEqual([
      'preload script /remotes/mf-vehicle/1.5.2/remoteEntry.js',
      'prefetch script /remotes/mf-vehicle/1.5.2/remoteEntry.js',
      'prefetch script /remotes/mf-leads/1.9.3/remoteEntry.js',
      'prefetch script /remotes/mf-leads/1.9.3/EnquireButton.js',
    ]);
  });

  it('are none on a page without app-start data (a page the browser renders lists its own)', () => {
    document.body.innerHTML = '<div id="root"></div>';
    routeFilesAhead('preload');
    expect(links()).toEqual([]);
  });
});
