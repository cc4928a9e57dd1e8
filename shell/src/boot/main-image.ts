// Used by the document's first script (app-start.ts) and the app's entry (app-entry.ts): no React.
import { mainImageTiming } from '@dealer/rules/images';
import { afterNextFrame } from './scheduling';

/**
 * Longest the app's code waits for the page's main image, on either kind of page: the value
 * measured with bench:pages (docs/decisions/0012 and 0016).
 */
const mainImageWaitMs = 1000;

/**
 * Runs `run` once, when `image` (the page's main image) is on screen: as the browser reports it
 * painted (Element Timing, Chromium, for an image named `mainImageTiming`), elsewhere once it is
 * decoded and the next frame is painted; at once if it fails, and after `mainImageWaitMs` whatever happens.
 */
export function waitForMainImage(image: HTMLImageElement, run: () => void) {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    run();
  };
  setTimeout(once, mainImageWaitMs);
  image.addEventListener('error', once, { once: true });
  if (
    image.getAttribute('elementtiming') === mainImageTiming &&
    typeof PerformanceObserver !== 'undefined' &&
    PerformanceObserver.supportedEntryTypes?.includes('element')
  ) {
    new PerformanceObserver((list, observer) => {
      if (!list.getEntries().some((entry) => (entry as PerformanceEntry & { identifier?: string }).identifier === mainImageTiming)) return;
      observer.disconnect();
      once();
    }).observe({ type: 'element', buffered: true });
    return;
  }
  const decoded = () =>
    void Promise.resolve(image.decode?.())
      .catch(() => undefined)
      .then(() => afterNextFrame(once));
  if (image.complete) decoded();
  else image.addEventListener('load', decoded, { once: true });
}
