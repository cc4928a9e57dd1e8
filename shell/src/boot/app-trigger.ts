// Part of the app's entry (app-entry.ts), before React: when a server-rendered page starts its app.
import type { DocumentSite } from '@dealer/contracts/site';
import { favouritesStorageKey } from '@dealer/rules/favourites';
import { storedConsent } from '../analytics/consent';

/**
 * What a shopper does first with a page: touch or press it, type, move through it by keyboard,
 * scroll it. Any of them starts the app; what they pressed or typed meanwhile is kept and handed
 * to React once it has hydrated that part (before-hydration.ts).
 */
export const appStartEvents = ['pointerdown', 'touchstart', 'keydown', 'focusin', 'input', 'change', 'submit', 'scroll', 'wheel'] as const;

/** React's mark on a Suspense boundary the server left to the browser (it threw or was over its time there). */
const leftToBrowser = (comment: Comment) => comment.data === '$!' || comment.data === '$?';

/**
 * Why a server-rendered page needs its app at once, before the shopper does anything, or null:
 * what it shows depends on this browser (the consent question not yet answered, the cars saved on
 * this site, which its Save buttons show), or part of it is drawn by the browser only (a remote
 * module the server did not render, an enquiry form block).
 */
export function appNeededAtLoad(
  site: Pick<DocumentSite, 'slug' | 'consent_banner'>,
  doc: Document = document,
  storage: Pick<Storage, 'getItem'> | null = localStorage,
) {
  if (site.consent_banner === true && storedConsent() === 'unasked') return 'consent';
  try {
    const saved = storage?.getItem(favouritesStorageKey(site.slug));
    if (saved && saved !== '[]') return 'saved cars';
  } catch {
    // Storage refused: nothing was saved in it either.
  }
  const root = doc.getElementById('root');
  if (!root) return 'no page';
  if (root.querySelector('.route-placeholder, .content-lead-form, .dp-loader')) return 'drawn in the browser';
  const comments = doc.createTreeWalker(root, NodeFilter.SHOW_COMMENT);
  for (let node = comments.nextNode(); node; node = comments.nextNode()) if (leftToBrowser(node as Comment)) return 'drawn in the browser';
  // The shopper already acted before this script ran (scrolled, or is in a field).
  if (doc.defaultView && doc.defaultView.scrollY > 0) return 'scrolled';
  const active = doc.activeElement;
  if (active && active !== doc.body && root.contains(active)) return 'focused';
  return null;
}

/**
 * Runs `start` once: at once when the page needs its app now (appNeededAtLoad), otherwise on the
 * shopper's first interaction. A page nobody touches runs no React at all: it is markup, its links
 * are links, and its analytics were sent without the app (analytics/document-page-view.ts).
 */
export function startAppOnFirstUse(site: Pick<DocumentSite, 'slug' | 'consent_banner'>, start: () => void, doc: Document = document) {
  const win = doc.defaultView ?? window;
  let started = false;
  const go = () => {
    if (started) return;
    started = true;
    for (const name of appStartEvents) win.removeEventListener(name, go, { capture: true });
    start();
  };
  for (const name of appStartEvents) win.addEventListener(name, go, { capture: true, passive: true });
  let storage: Storage | null;
  try {
    storage = win.localStorage;
  } catch {
    storage = null; // refused (private mode, a sandboxed frame): nothing is saved in it
  }
  if (appNeededAtLoad(site, doc, storage)) go();
}
