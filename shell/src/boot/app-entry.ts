// The app bundle's entry (rspack.config.mjs). Its styles are initial CSS (a stylesheet link in
// the document head), so the first frame, which first-script.ts draws before this script runs, is
// styled; the design system's stylesheet is shared eagerly for that (see hostConfig).
import '@dealer/ui/styles.css';
import '../shell.css';
import '../federation/route-placeholder.css';
import { waitForMainImage } from './main-image';
import { afterLoadWhenIdle, nextTask } from './scheduling';
import { readDocumentSite, readSiteConfig } from './site-config-source';
import { startAppOnFirstUse } from './app-trigger';
import { routeFilesAhead } from './app-start';
import { deferredTagDelayMs } from '@dealer/rules/analytics';
import { startDocumentAnalytics } from '../analytics/document-page-view';

// The libraries are fetched together and each runs its modules in a task of its own as it arrives,
// then the app's own modules run: run at once, they were one long task on a phone.
// The site config: inline on a page the browser renders; on a server-rendered page fetched as the app
// starts, or once the page has settled (its analytics and trigger read the document's part of it).
let siteConfig: ReturnType<typeof readSiteConfig> | undefined;
const config = () => {
  if (siteConfig) return siteConfig;
  const reading = readSiteConfig();
  siteConfig = reading;
  // Handled where the app starts, not an unhandled rejection before that; a fetch that failed
  // (fetched ahead while the phone was offline, say) is tried again by the next one to ask.
  reading.catch(() => {
    if (siteConfig === reading) siteConfig = undefined;
  });
  return reading;
};
const fetchAhead = () => void import(/* webpackChunkName: "app-prefetch" */ './app-prefetch');
let started = false;
const start = () => {
  started = true;
  // Every file the start needs is asked for at once, beside the libraries, when the page has not
  // fetched them ahead yet (a shopper who uses it within 3 s of its load): the route remote's, and
  // the app's own (fetched, not run; the app runs each as its turn comes, from the browser's cache).
  routeFilesAhead('preload');
  fetchAhead();
  const site = config();
  void Promise.all([import('react-dom/client'), import('react-router-dom'), import('react-redux')])
    .then(nextTask)
    .then(() => Promise.all([site, import('./start-app')]))
    .then(([site, { startApp }]) => startApp(site))
    // The server's page stays as it is: readable, its links and forms work without the app.
    .catch((error: unknown) => console.error('The app could not start', error));
};

const root = document.getElementById('root');
if (root?.hasAttribute('data-ssr')) {
  // A server-rendered page is usable as sent: the app starts when the shopper first touches, types
  // or scrolls (app-trigger.ts), or at once when the page needs it; its analytics start without
  // React in a task of their own (their storage and beacon were half of this script's longest task),
  // and always before the app, whose first page view is the document's (documentCounted). Both read
  // the document's part of the site config: a page only read never fetches the whole of it (55 KB of
  // JSON on a group's site, parsed on the main thread as the page loaded).
  const known = readDocumentSite();
  void (known ? Promise.resolve(known) : config())
    .then((site) => {
      let analytics = false;
      const startAnalytics = () => {
        if (analytics) return;
        analytics = true;
        startDocumentAnalytics(site);
      };
      startAppOnFirstUse(site, () => {
        startAnalytics();
        start();
      });
      setTimeout(startAnalytics, 0);
    })
    .catch((error: unknown) => console.error('The app could not start', error));
} else {
  // A car page's first frame (drawn by the browser's first script) shows its hero: the app's chunks
  // start once it is on screen. Fetched in parallel, they took bandwidth from the image, and running
  // them held the frame that shows it back. On a slow line that reorders the bytes more than it delays them.
  const hero = document.querySelector<HTMLImageElement>('#root .route-placeholder img');
  if (hero) waitForMainImage(hero, start);
  else start();
}

// What the app's start and a first tap need (the libraries, the app, the route remote's files) is
// fetched ahead without running it (app-prefetch.ts), so a later first tap waits on running it
// only: once the page has settled, at an idle moment 3 s after its load, as the deferred
// third-party tags (SPEC §4, §9). Fetched at once after the load, its dozen files were a hundred
// more tasks on the page's main thread while the phone was still drawing it (bench:pages, issue
// 25); a shopper who uses the page sooner starts the app, which fetches them itself.
// An app already started (a shopper who used the page sooner) asked for all of it then: nothing is
// fetched again. Fetched again, its links were a dozen tasks on the main thread while the app hydrated.
afterLoadWhenIdle(
  () => {
    if (started) return;
    routeFilesAhead('prefetch');
    fetchAhead();
    void config();
  },
  { delay: deferredTagDelayMs },
);
