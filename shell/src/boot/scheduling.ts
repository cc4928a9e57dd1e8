// Used by the document's first script (app-start.ts, main-image.ts) and the app's code (app-entry.ts, remote-runtime.ts): no React.

/** After the next frame is painted: what runs then takes nothing from what that frame shows. */
export const afterNextFrame = (run: () => void) => requestAnimationFrame(() => setTimeout(run, 0));

/** A turn for the browser (input, paint) between steps of a long start. */
export const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Once the page has loaded (its images and styles too) and the browser has an idle moment, or
 * `timeout` ms after the load when it has none.
 */
export function afterLoadWhenIdle(run: () => void, timeout = 2000) {
  const idle = () => {
    if ('requestIdleCallback' in window) requestIdleCallback(() => run(), { timeout });
    else setTimeout(run, 0);
  };
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}
