// Part of the document's first script (first-script.ts): no shared modules, no React.
import type { DocumentSite } from '@dealer/contracts/site';
import { mainImageTiming } from '@dealer/rules/images';
import { waitForMainImage } from './main-image';
import { afterNextFrame } from './scheduling';

/** What a server-rendered document asks the first script to load once the page is on screen. */
export type AppStart = {
  /** Where the site config is fetched, when the document does not carry it (site-config-source.ts). */
  siteConfig?: string;
  /** With `siteConfig`: what the page's analytics and the app's trigger read before the app fetches the config. */
  site?: DocumentSite;
  scripts: string[];
  /** The route remote's files: fetched ahead once the page has settled, or as the app starts (routeFilesAhead). */
  preloads: { href: string; as: 'script' | 'style' }[];
  /**
   * The files of the other remote modules in the markup (a car page's Enquire, Reserve and Save
   * buttons): fetched ahead once the page has settled. Not as the app starts, which loads them itself
   * (loadServerRenderedModules) once its libraries are in: preloaded beside those, a dozen more files
   * took HTTP/1.1's six connections ahead of React.
   */
  prefetches?: { href: string; as: 'script' | 'style' }[];
};

/** The app-start data the server wrote, or null (a page the browser renders lists its scripts in the head). */
function appStartData(): AppStart | null {
  const element = document.getElementById('app-start');
  return element?.textContent ? (JSON.parse(element.textContent) as AppStart) : null;
}

/**
 * The route remote's files (its entry and module), fetched ahead: `preload` when the app starts,
 * `prefetch` (the lowest priority) with the app's own files once the page has settled
 * (app-entry.ts), and then the other remote modules' in the markup too (`prefetches`). Not while
 * the page loads: they are of use only once the app starts, and on a phone each file costs the
 * page's main thread a series of tasks while it is still loading.
 */
export function routeFilesAhead(rel: 'preload' | 'prefetch') {
  const start = appStartData();
  const files = rel === 'prefetch' ? [...(start?.preloads ?? []), ...(start?.prefetches ?? [])] : (start?.preloads ?? []);
  for (const file of files) {
    const fetched = [...document.head.querySelectorAll(`link[rel="${rel}"]`)].some((link) => link.getAttribute('href') === file.href);
    if (fetched) continue;
    const link = document.createElement('link');
    link.rel = rel;
    link.setAttribute('as', file.as);
    link.href = file.href;
    document.head.append(link);
  }
}

function load({ scripts }: AppStart) {
  // The site config is not fetched here: the page's analytics and the app's trigger read the part of it
  // the document carries (`site`), and the app fetches the rest as it starts or once the page has settled.
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
  const start = appStartData();
  if (!start) return;
  afterNextFrame(() => {
    const image = document.querySelector<HTMLImageElement>(`#root img[elementtiming="${mainImageTiming}"]`);
    if (image) waitForMainImage(image, () => load(start));
    else load(start);
  });
}
