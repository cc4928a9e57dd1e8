// Part of the document's first script (first-paint-entry.ts): no shared modules, no React.

/** What a server-rendered document asks the first script to load once the page is on screen. */
export type AppStart = { scripts: string[]; preloads: { href: string; as: 'script' | 'style' | 'fetch'; crossorigin?: boolean }[] };

/** Longest the app's code waits for the page's main image before it loads anyway. */
export const mainImageWaitMs = 800;

function load({ scripts, preloads }: AppStart) {
  for (const preload of preloads) {
    const link = document.createElement('link');
    link.rel = 'preload';
    link.as = preload.as;
    link.href = preload.href;
    if (preload.crossorigin) link.crossOrigin = 'anonymous';
    document.head.append(link);
  }
  for (const src of scripts) {
    const script = document.createElement('script');
    script.src = src;
    // In document order, as deferred scripts would run.
    script.async = false;
    document.head.append(script);
  }
}

/**
 * A server-rendered page is readable before any of the app's code runs, so that code is fetched
 * once the page is on screen: after its main image (the first high-priority image in the page,
 * at most `mainImageWaitMs`), or after the first frame when it has none. Fetched earlier, the app's
 * ~150 KB took bandwidth from the styles and that image on a slow line, and the shopper saw the
 * page later. Documents the browser renders itself list their scripts in the head instead.
 */
export function startAppAfterFirstPaint() {
  const element = document.getElementById('app-start');
  if (!element?.textContent) return;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    load(JSON.parse(element.textContent ?? '') as AppStart);
  };
  const afterNextFrame = () => requestAnimationFrame(() => setTimeout(start, 0));
  const image = document.querySelector<HTMLImageElement>('#root img[fetchpriority="high"]');
  if (!image || image.complete) {
    afterNextFrame();
    return;
  }
  image.addEventListener('load', afterNextFrame, { once: true });
  image.addEventListener('error', start, { once: true });
  setTimeout(start, mainImageWaitMs);
}
