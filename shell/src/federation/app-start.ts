// Part of the document's first script (first-paint-entry.ts): no shared modules, no React.

/** What a server-rendered document asks the first script to load once the page is on screen. */
export type AppStart = { scripts: string[]; preloads: { href: string; as: 'script' | 'style' }[] };

function load({ scripts, preloads }: AppStart) {
  for (const preload of preloads) {
    const link = document.createElement('link');
    link.rel = 'preload';
    link.as = preload.as;
    link.href = preload.href;
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
 * once the page's first frame is on screen. Fetched earlier, the app's ~150 KB took bandwidth from
 * the styles and the main image on a slow line, and the shopper saw the page later. It is not held
 * back further (say, until the main image has loaded): the page would then finish loading before
 * its code started, and what a shopper clicks meanwhile does nothing. Documents the browser renders
 * itself list their scripts in the head instead.
 */
export function startAppAfterFirstPaint() {
  const element = document.getElementById('app-start');
  if (!element?.textContent) return;
  const start = JSON.parse(element.textContent) as AppStart;
  requestAnimationFrame(() => setTimeout(() => load(start), 0));
}
