// Part of the document's first script (first-script.ts): no shared modules, no React.
import { mainImageTiming } from '@dealer/rules/images';
import { waitForMainImage } from './main-image';
import { afterNextFrame } from './scheduling';

/** What a server-rendered document asks the first script to load once the page is on screen. */
export type AppStart = {
  /** Where the site config is fetched, when the document does not carry it (site-config-source.ts). */
  siteConfig?: string;
  scripts: string[];
  preloads: { href: string; as: 'script' | 'style' }[];
};

function load({ siteConfig, scripts, preloads }: AppStart) {
  // Fetched beside the app's first files: the app starts from it. (`crossorigin`: a fetch()'s request, which it then answers.)
  if (siteConfig && !document.getElementById('site-config')) {
    const link = document.createElement('link');
    link.rel = 'preload';
    link.setAttribute('as', 'fetch');
    link.setAttribute('crossorigin', 'anonymous');
    link.href = siteConfig;
    document.head.append(link);
  }
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
 * once the page's first frame is on screen and its main image (VehicleImage's `priority` one: the
 * car's photo, the first card's) is painted too, or after main-image.ts's longest wait. Fetched
 * earlier, the app's code took bandwidth from the styles and that image on a slow line, and the
 * shopper saw the page later (docs/decisions/0011, 0012). What a shopper types or presses meanwhile is kept and handed to React once
 * it has taken the page over (before-hydration.ts). Documents the browser renders itself list
 * their scripts in the head instead.
 */
export function startAppAfterFirstPaint() {
  const element = document.getElementById('app-start');
  if (!element?.textContent) return;
  const start = JSON.parse(element.textContent) as AppStart;
  afterNextFrame(() => {
    const image = document.querySelector<HTMLImageElement>(`#root img[elementtiming="${mainImageTiming}"]`);
    if (image) waitForMainImage(image, () => load(start));
    else load(start);
  });
}
