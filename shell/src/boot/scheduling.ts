// Used by the document's first script (app-start.ts, main-image.ts) and the app's code (app-entry.ts, remote-runtime.ts): no React.

/** After the next frame is painted: what runs then takes nothing from what that frame shows. */
export const afterNextFrame = (run: () => void) => requestAnimationFrame(() => setTimeout(run, 0));

/** A turn for the browser (input, paint) between steps of a long start. */
export const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Once the page has loaded (its images and styles too), `delay` ms more have passed and the browser
 * has an idle moment, or `timeout` ms after that when it has none.
 */
export function afterLoadWhenIdle(run: () => void, { timeout = 2000, delay = 0 }: { timeout?: number; delay?: number } = {}) {
  const idle = () => {
    if ('requestIdleCallback' in window) requestIdleCallback(() => run(), { timeout });
    else setTimeout(run, 0);
  };
  const loaded = () => (delay > 0 ? setTimeout(idle, delay) : idle());
  if (document.readyState === 'complete') loaded();
  else window.addEventListener('load', loaded, { once: true });
}
