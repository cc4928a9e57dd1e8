// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startAppAfterFirstPaint, type AppStart } from './app-start';

const start: AppStart = { scripts: ['/assets/main.1.js'], preloads: [{ href: '/remotes/mf-vehicle/1.5.2/remoteEntry.js', as: 'script' }] };

/** A server-rendered car page: its photo (marked as the main image) and the app-start data. */
function serverPage({ mainImage }: { mainImage: boolean }) {
  document.body.innerHTML = `<div id="root" data-ssr>${mainImage ? '<img src="/img/vehicle/car/suv/blue/5.jpg?w=750&amp;q=75" fetchpriority="high" alt="">' : '<h1>Home</h1>'}</div>`;
  const data = document.createElement('script');
  data.id = 'app-start';
  data.type = 'application/json';
  data.textContent = JSON.stringify(start);
  document.body.append(data);
  return document.querySelector('img');
}

const appScripts = () => [...document.head.querySelectorAll('script')].map((script) => script.getAttribute('src'));

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('requestAnimationFrame', (run: FrameRequestCallback) => setTimeout(() => run(0), 16));
  // jsdom loads no images: the photo stays incomplete until the test says it arrived.
  vi.spyOn(HTMLImageElement.prototype, 'complete', 'get').mockReturnValue(false);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

describe('when a server-rendered page starts loading its code', () => {
  it('waits for its main image after the first frame, then loads the app and preloads the route’s remote once', () => {
    const photo = serverPage({ mainImage: true })!;
    startAppAfterFirstPaint();
    vi.advanceTimersByTime(100);
    expect(appScripts()).toEqual([]);

    photo.dispatchEvent(new Event('load'));
    // Once the frame that shows it is painted.
    expect(appScripts()).toEqual([]);
    vi.advanceTimersByTime(20);
    expect(appScripts()).toEqual(['/assets/main.1.js']);
    const preload = document.head.querySelector<HTMLLinkElement>('link[rel="preload"]');
    expect([preload?.getAttribute('href'), preload?.as]).toEqual(['/remotes/mf-vehicle/1.5.2/remoteEntry.js', 'script']);
    vi.advanceTimersByTime(2000);
    expect(appScripts()).toEqual(['/assets/main.1.js']);
  });

  it('does not wait for a main image that is slow beyond a second, nor on a page without one', () => {
    serverPage({ mainImage: true });
    startAppAfterFirstPaint();
    vi.advanceTimersByTime(900);
    expect(appScripts()).toEqual([]);
    vi.advanceTimersByTime(200);
    expect(appScripts()).toEqual(['/assets/main.1.js']);

    document.head.innerHTML = '';
    serverPage({ mainImage: false });
    startAppAfterFirstPaint();
    vi.advanceTimersByTime(20);
    expect(appScripts()).toEqual(['/assets/main.1.js']);
  });
});
