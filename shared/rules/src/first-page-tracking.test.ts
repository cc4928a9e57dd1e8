import { describe, expect, it } from 'vitest';
import {
  capVisitedPages,
  firstPageQueryMaxAgeMs,
  isFirstPageQueryExpired,
  linkedQueryParams,
  maxVisitedPages,
  parsePageTracking,
  trackedParamsOf,
  trackedQueryParams,
  trackPageVisit,
  type PageTracking,
} from './first-page-tracking';

const day = 24 * 60 * 60 * 1000;
const t0 = Date.UTC(2025, 2, 1);
const campaign = '/cars/2021-toyota-hilux-sr5?utm_source=google&utm_medium=cpc&utm_campaign=eofy&gclid=Cj0KCQ';
const campaignQuery = { gclid: 'Cj0KCQ', utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'eofy' };

describe('SPEC §9 constants', () => {
  it('tracks gclid, fbclid, utm_source, utm_medium and utm_campaign', () => {
    expect(trackedQueryParams).toEqual(['gclid', 'fbclid', 'utm_source', 'utm_medium', 'utm_campaign']);
  });
  it('keeps 50 visited pages and a 30-day first-page query', () => {
    expect(maxVisitedPages).toBe(50);
    expect(firstPageQueryMaxAgeMs).toBe(30 * day);
  });
});

describe('trackedParamsOf', () => {
  it.each<[string, Record<string, string>]>([
    [campaign, campaignQuery],
    ['https://www.servco.co.nz/finance?fbclid=IwAR0abc&utm_source=facebook', { fbclid: 'IwAR0abc', utm_source: 'facebook' }],
    ['/search/used-cars?make=Toyota&page=2', {}],
    ['/contact?utm_source=&utm_medium=%20', {}],
    ['/?utm_campaign=spring%20sale', { utm_campaign: 'spring sale' }],
    ['/?email=sam%40example.com&utm_source=newsletter', { utm_source: 'newsletter' }],
    ['/', {}],
    ['http://[bad', {}],
  ])('%s → %j', (url, expected) => {
    expect(trackedParamsOf(url)).toEqual(expected);
  });
});

describe('trackPageVisit', () => {
  const stored = (overrides: Partial<PageTracking> = {}): PageTracking => ({
    firstPageQuery: campaignQuery,
    storedAt: t0,
    visitedPages: [campaign],
    ...overrides,
  });

  it.each<[string, PageTracking | null, { url: string; now: number }, PageTracking]>([
    ['starts tracking on the first page', null, { url: campaign, now: t0 }, stored()],
    [
      'starts with an empty query when the first page has none',
      null,
      { url: '/', now: t0 },
      { firstPageQuery: {}, storedAt: t0, visitedPages: ['/'] },
    ],
    [
      'appends later pages and keeps the first query',
      stored(),
      { url: '/search/used-cars', now: t0 + day },
      stored({ visitedPages: [campaign, '/search/used-cars'] }),
    ],
    [
      'the same campaign again (a reload) is not new',
      stored(),
      { url: campaign, now: t0 + day },
      stored({ visitedPages: [campaign, campaign] }),
    ],
    [
      'exactly 30 days old is not yet older than 30 days',
      stored(),
      { url: '/finance', now: t0 + 30 * day },
      stored({ visitedPages: [campaign, '/finance'] }),
    ],
    [
      'resets when older than 30 days',
      stored(),
      { url: '/finance', now: t0 + 30 * day + 1 },
      { firstPageQuery: {}, storedAt: t0 + 30 * day + 1, visitedPages: ['/finance'] },
    ],
    [
      'resets when a new campaign query appears',
      stored(),
      { url: '/?utm_source=facebook&fbclid=IwAR0abc', now: t0 + day },
      {
        firstPageQuery: { fbclid: 'IwAR0abc', utm_source: 'facebook' },
        storedAt: t0 + day,
        visitedPages: ['/?utm_source=facebook&fbclid=IwAR0abc'],
      },
    ],
    [
      'a campaign query arriving after an organic start is new',
      stored({ firstPageQuery: {}, visitedPages: ['/'] }),
      { url: '/?gclid=abc', now: t0 + day },
      { firstPageQuery: { gclid: 'abc' }, storedAt: t0 + day, visitedPages: ['/?gclid=abc'] },
    ],
    [
      'untracked query parameters do not reset',
      stored(),
      { url: '/search/used-cars?make=Kia', now: t0 + day },
      stored({ visitedPages: [campaign, '/search/used-cars?make=Kia'] }),
    ],
    [
      'a stamp in the future (clock changed) does not reset',
      stored({ storedAt: t0 + 5 * day }),
      { url: '/about', now: t0 },
      stored({ storedAt: t0 + 5 * day, visitedPages: [campaign, '/about'] }),
    ],
  ])('%s', (_name, before, visit, expected) => {
    expect(trackPageVisit(before, visit)).toEqual(expected);
  });

  it('keeps the 50 most recent pages', () => {
    let s: PageTracking | null = null;
    for (let page = 1; page <= 60; page++) s = trackPageVisit(s, { url: `/page-${page}`, now: t0 + page });
    expect(s!.visitedPages).toHaveLength(50);
    expect(s!.visitedPages[0]).toBe('/page-11');
    expect(s!.visitedPages.at(-1)).toBe('/page-60');
    expect(s!.storedAt).toBe(t0 + 1);
  });

  it('does not change the stored state passed in', () => {
    const before = stored();
    trackPageVisit(before, { url: '/about', now: t0 + day });
    expect(before).toEqual(stored());
  });
});

describe('linkedQueryParams', () => {
  const s: PageTracking = { firstPageQuery: campaignQuery, storedAt: t0, visitedPages: [] };
  it.each<[PageTracking | null, number | undefined, Record<string, string>]>([
    [null, undefined, {}],
    [s, undefined, campaignQuery],
    [s, t0 + 29 * day, campaignQuery],
    [s, t0 + 31 * day, {}],
  ])('%j at %j → %j', (stored, now, expected) => {
    expect(linkedQueryParams(stored, now)).toEqual(expected);
  });

  it('returns a copy', () => {
    const copy = linkedQueryParams(s);
    copy.gclid = 'changed';
    expect(s.firstPageQuery.gclid).toBe('Cj0KCQ');
  });

  it.each([
    [{ storedAt: t0 }, t0 + 30 * day, false],
    [{ storedAt: t0 }, t0 + 30 * day + 1, true],
    [{ storedAt: Number.NaN }, t0, true],
  ])('isFirstPageQueryExpired(%j, %d) → %s', (stored, now, expected) => {
    expect(isFirstPageQueryExpired(stored, now)).toBe(expected);
  });
});

describe('parsePageTracking', () => {
  it.each<[string, unknown, PageTracking | null]>([
    [
      'a good entry',
      { firstPageQuery: { gclid: 'a' }, storedAt: t0, visitedPages: ['/'] },
      { firstPageQuery: { gclid: 'a' }, storedAt: t0, visitedPages: ['/'] },
    ],
    [
      'drops untracked and non-string parameters',
      { firstPageQuery: { gclid: 1, utm_source: 'x', foo: 'y' }, storedAt: t0, visitedPages: [] },
      { firstPageQuery: { utm_source: 'x' }, storedAt: t0, visitedPages: [] },
    ],
    [
      'drops non-string pages and caps the list',
      { firstPageQuery: {}, storedAt: t0, visitedPages: ['/', 3, null] },
      { firstPageQuery: {}, storedAt: t0, visitedPages: ['/'] },
    ],
    ['null', null, null],
    ['a string', 'oops', null],
    ['no stamp', { firstPageQuery: {}, visitedPages: [] }, null],
    ['a text stamp', { firstPageQuery: {}, storedAt: '2025-03-01', visitedPages: [] }, null],
    ['an array query', { firstPageQuery: [], storedAt: t0, visitedPages: [] }, null],
    ['no pages', { firstPageQuery: {}, storedAt: t0 }, null],
  ])('%s', (_name, raw, expected) => {
    expect(parsePageTracking(raw)).toEqual(expected);
  });

  it('caps a long stored list to the 50 most recent', () => {
    const pages = Array.from({ length: 70 }, (_, i) => `/p${i}`);
    expect(capVisitedPages(pages)).toEqual(pages.slice(20));
    expect(parsePageTracking({ firstPageQuery: {}, storedAt: t0, visitedPages: pages })?.visitedPages).toEqual(pages.slice(20));
  });
});
