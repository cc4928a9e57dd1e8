import { pageTrackingStorageKey as pageTrackingKey, parsePageTracking, trackPageVisit } from '@dealer/rules/first-page-tracking';

/** SPEC §4/§9: visited pages (max 50) and the first page's campaign query, kept for the leads. */
export function recordPageVisit(url: string) {
  try {
    const stored = parsePageTracking(JSON.parse(localStorage.getItem(pageTrackingKey) ?? 'null'));
    localStorage.setItem(pageTrackingKey, JSON.stringify(trackPageVisit(stored, { url, now: Date.now() })));
  } catch {
    // Storage may be refused (private mode); leads then carry only the current page.
  }
}
