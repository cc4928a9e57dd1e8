// Used by the document's first script (app-start.ts) and the shell's entry (index.ts): no React.
import { mainImageTiming } from '@dealer/rules/images';
import { afterNextFrame } from './scheduling';

/**
 * Runs `run` once, when `image` is on screen: as the browser reports it painted (Element Timing,
 * Chromium, for an image named `mainImageTiming`), elsewhere once it is decoded and the next frame
 * is painted; at once if it fails, and after `maxWaitMs` whatever happens.
 */
export function whenImageShown(image: HTMLImageElement, run: () => void, maxWaitMs: number) {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    run();
  };
  setTimeout(once, maxWaitMs);
  image.addEventListener('error', once, { once: true });
  if (image.getAttribute('elementtiming') === mainImageTiming && typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes?.includes('element')) {
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
