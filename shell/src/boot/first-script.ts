// How the shell starts, in order. Two bundles: this file, the document's first script (bundled
// alone by hostConfig's `firstPaint`: no shared modules, no React), and the app (app-entry.ts).
//
// A server-rendered page (#root[data-ssr]; the head lists only this script, `app-start` names the rest):
//   1. first-script.ts: nothing to paint (paintFirstFrame returns); keepInteractionsBeforeHydration
//      (before-hydration.ts) starts noting what the shopper ticks, types, presses or sends.
//   2. app-start.ts, startAppAfterFirstPaint: after the next frame, waitForMainImage (main-image.ts)
//      on the page's main image, then adds the app's scripts.
//   3. app-entry.ts: the page's analytics and the app's trigger (app-trigger.ts) start from the
//      document's part of the site config (readDocumentSite). When the app starts, readSiteConfig
//      (site-config-source.ts) fetches the whole config (`/api/site?v=…`) and the libraries (React
//      DOM, the router, react-redux) are imported together, then a turn (nextTask, scheduling.ts).
//   4. start-app.tsx, startApp: the remote runtime, the store, the server's state (`app-state`),
//      hydrateRoot in a transition.
//   5. before-hydration.ts hands each noted interaction to React once its part is hydrated.
//
// A page the browser renders (no data-ssr; the head lists this script, then the app's scripts;
// the site config is inline):
//   1. first-script.ts: paintFirstFrame (first-paint.ts) draws the header and the car's hero on a
//      car page; on any other page nothing.
//   2. app-entry.ts: readSiteConfig reads the inline config; when the first frame shows the hero,
//      waitForMainImage (main-image.ts) on it; then the libraries and a turn, as above.
//   3. start-app.tsx, startApp: the remote runtime, the store, createRoot in a transition; the
//      route's placeholder (federation/route-placeholder.tsx) repeats the hero until mf-vehicle loads.
import { paintFirstFrame } from './first-paint';
import { startAppAfterFirstPaint } from './app-start';
import { keepInteractionsBeforeHydration } from './before-hydration';
import { runSiteMenu } from './site-menu';
import { showChatBubbleLater } from './chat-bubble';

paintFirstFrame();
runSiteMenu();
const root = document.getElementById('root');
if (root?.hasAttribute('data-ssr')) keepInteractionsBeforeHydration(root);
startAppAfterFirstPaint();
showChatBubbleLater();
