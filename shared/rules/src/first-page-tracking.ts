/** SPEC §9 tracked URL parameters: the campaign and click ids a lead is credited to. */
export const trackedQueryParams = ['gclid', 'fbclid', 'utm_source', 'utm_medium', 'utm_campaign'] as const;
export type TrackedQueryParam = (typeof trackedQueryParams)[number];

/** SPEC §9: visited pages kept, most recent. */
export const maxVisitedPages = 50;

/** SPEC §9: the first-page query expires after 30 days. */
export const firstPageQueryMaxAgeMs = 30 * 24 * 60 * 60 * 1000;

/** What the browser keeps per site between page views (e.g. in localStorage). */
export type PageTracking = {
  /** Tracked parameters of the page the visit started on; sent as linked_query_params. */
  firstPageQuery: Record<string, string>;
  /** When that first page was seen (ms since the epoch). */
  storedAt: number;
  /** Pages seen since then, oldest first, at most maxVisitedPages. */
  visitedPages: string[];
};

export type PageVisit = { url: string; now: number };

/**
 * The tracked parameters of a URL (absolute, or relative to the site). Only the SPEC §9 list
 * is kept: other query values (search filters, an email in a newsletter link) are not
 * campaign data and should not ride along on every lead.
 */
export function trackedParamsOf(url: string): Record<string, string> {
  let params: URLSearchParams;
  try {
    params = new URL(url, 'https://site.invalid').searchParams;
  } catch {
    return {};
  }
  const tracked: Record<string, string> = {};
  for (const name of trackedQueryParams) {
    const value = params.get(name)?.trim();
    if (value) tracked[name] = value;
  }
  return tracked;
}

/** Older than 30 days. A stamp in the future (clock changed) is not expired; an unreadable one is. */
export function isFirstPageQueryExpired(stored: Pick<PageTracking, 'storedAt'>, now: number): boolean {
  if (!Number.isFinite(stored.storedAt)) return true;
  return now - stored.storedAt > firstPageQueryMaxAgeMs;
}

const sameParams = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>) => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
};

/** Most recent pages only (SPEC §9 max 50). Input and output are oldest first. */
export function capVisitedPages(pages: readonly string[]): string[] {
  return pages.slice(-maxVisitedPages);
}

/**
 * SPEC §4 tracking after a page view, pure. Tracking starts over (first-page query = this
 * page's tracked parameters, stamp = now, visited pages = this page) when there is none yet,
 * when the stored first-page query is older than 30 days, or when this page carries tracked
 * parameters that differ from the stored ones (a new campaign click). The same parameters
 * again, as on a reload of the landing page, are not new. Otherwise the page is appended.
 */
export function trackPageVisit(stored: PageTracking | null, visit: PageVisit): PageTracking {
  const query = trackedParamsOf(visit.url);
  const newCampaign = stored !== null && Object.keys(query).length > 0 && !sameParams(query, stored.firstPageQuery);
  if (stored === null || isFirstPageQueryExpired(stored, visit.now) || newCampaign) {
    return { firstPageQuery: query, storedAt: visit.now, visitedPages: [visit.url] };
  }
  return { ...stored, visitedPages: capVisitedPages([...stored.visitedPages, visit.url]) };
}

/**
 * linked_query_params for a lead: the first page's tracked parameters (a copy). Given `now`,
 * an expired first-page query gives none.
 */
export function linkedQueryParams(stored: PageTracking | null, now?: number): Record<string, string> {
  if (!stored) return {};
  if (now !== undefined && isFirstPageQueryExpired(stored, now)) return {};
  return { ...stored.firstPageQuery };
}

/**
 * Reads stored tracking back (from JSON in localStorage, or a request body) and returns null
 * for anything malformed, so a tampered or older-format entry restarts tracking rather than
 * throwing. Untracked or non-string parameters and non-string pages are dropped.
 */
export function parsePageTracking(raw: unknown): PageTracking | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { firstPageQuery, storedAt, visitedPages } = raw as Record<string, unknown>;
  if (typeof storedAt !== 'number' || !Number.isFinite(storedAt)) return null;
  if (typeof firstPageQuery !== 'object' || firstPageQuery === null || Array.isArray(firstPageQuery)) return null;
  if (!Array.isArray(visitedPages)) return null;
  const query: Record<string, string> = {};
  const entries = firstPageQuery as Record<string, unknown>;
  for (const name of trackedQueryParams) {
    const value = entries[name];
    if (typeof value === 'string' && value.trim()) query[name] = value.trim();
  }
  return {
    firstPageQuery: query,
    storedAt,
    visitedPages: capVisitedPages(visitedPages.filter((page): page is string => typeof page === 'string')),
  };
}

/** Where the browser keeps the tracking: the shell writes it on each page, the leads remote reads it. */
export const pageTrackingStorageKey = 'dealer:page-tracking';
