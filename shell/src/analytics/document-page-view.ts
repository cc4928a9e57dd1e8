// A server-rendered page's analytics, started without React (boot/app-entry.ts): the sink, the
// visited-pages record and the page view, sent once the page is on screen whether or not the
// shopper ever touches it (the app itself starts on the first interaction, boot/app-trigger.ts).
import type { PlatformEvents } from '@dealer/contracts/events';
import type { DocumentSite } from '@dealer/contracts/site';
import { dispatchPlatformEvent } from '@dealer/events/bus';
import { recordPageVisit } from '../page-tracking';
import { startAnalyticsSink } from './analytics-sink';

/** What the server wrote about the page (`<script id="page-view">`): its type, and the car on a car page. */
export type DocumentPageView = Omit<PlatformEvents['analytics:page-view'], 'url'> & {
  viewContent?: PlatformEvents['ads:view-content'];
};

/** The address whose page view the document sent: the app's first page view of it is the same one. */
let sentFor: string | null = null;

/**
 * Whether the document already counted the page at `url`: true once, for the app's first page
 * view of it (a later visit to the same address is the app's to count).
 */
export function documentCounted(url: string): boolean {
  const counted = sentFor === url;
  sentFor = null;
  return counted;
}

/** Starts the site's analytics for a server-rendered page and counts its view once; answers how to let the sink go. */
export function startDocumentAnalytics(site: DocumentSite, doc: Document = document): () => void {
  const stop = startAnalyticsSink(site);
  // A document without it (a server of before) leaves the page view to the app, as it was.
  const written = doc.getElementById('page-view')?.textContent;
  if (!written) return stop;
  const view = JSON.parse(written) as DocumentPageView;
  const url = location.href;
  sentFor = url;
  recordPageVisit(url);
  const { viewContent, ...pageView } = view;
  dispatchPlatformEvent('analytics:page-view', { ...pageView, url });
  if (viewContent) dispatchPlatformEvent('ads:view-content', viewContent);
  return stop;
}
