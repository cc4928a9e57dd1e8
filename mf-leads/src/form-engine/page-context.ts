import { linkedQueryParams, pageTrackingStorageKey as pageTrackingKey, parsePageTracking } from '@dealer/rules/first-page-tracking';

function readTracking() {
  try {
    return parsePageTracking(JSON.parse(localStorage.getItem(pageTrackingKey) ?? 'null'));
  } catch {
    return null;
  }
}

/** What the lead carries about the visit (SPEC §3); the server sets its own copy authoritatively. */
export function pageContext() {
  const tracking = readTracking();
  return {
    url: location.href,
    visited_pages: tracking?.visitedPages ?? [location.href],
    linked_query_params: tracking ? linkedQueryParams(tracking, Date.now()) : {},
  };
}
