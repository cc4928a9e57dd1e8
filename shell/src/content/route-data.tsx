import { createContext, useContext, useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import type { ResolvedPage } from '@dealer/contracts/content';
import { useAppSelector } from '@dealer/state/hooks';
import { platformFetch } from '@dealer/state/platform-fetch';
import { selectSite } from '@dealer/state/site-slice';

/** What the site has at an address: its page, or null when it has none there (a 404). */
export type PageAnswer = ResolvedPage | null;

/**
 * The pages the app has been given or has fetched, by address (path and query: `/blog?page=2` is
 * another list than `/blog`). The first address's answer comes with the document; the rest are
 * fetched as the shopper moves around the site.
 */
export type RouteData = {
  answers: Map<string, PageAnswer>;
  pending: Map<string, Promise<void>>;
  /** The title the server wrote for the first address (the page's SEO title, which its data does not carry). */
  documentTitle: { path: string; title: string } | null;
};

/** Answers kept for going back and forth; a handful of pages is all a visit goes back to. */
const keptAnswers = 20;

function remember(data: RouteData, path: string, answer: PageAnswer) {
  data.answers.delete(path);
  data.answers.set(path, answer);
  for (const oldest of data.answers.keys()) {
    if (data.answers.size <= keptAnswers) break;
    data.answers.delete(oldest);
  }
}

/** Route data holding the first page's answer: the server's render, and the browser's first location. */
export function routeDataFor(path: string, content: PageAnswer, title: string | null = null): RouteData {
  const data: RouteData = { answers: new Map(), pending: new Map(), documentTitle: title ? { path, title } : null };
  remember(data, path, content);
  return data;
}

/**
 * The route data of the document the browser was sent: its `#route-data` answer for the address the
 * page opened at. A page the server has none for is sent without one, and the server rendered it as
 * such, so a missing answer is "no page" here too: the first render matches the server's markup.
 */
export function routeDataFromDocument(doc: Document = document, at: Location = location): RouteData {
  const text = doc.getElementById('route-data')?.textContent;
  const content = text ? ((JSON.parse(text) as { content?: PageAnswer }).content ?? null) : null;
  return routeDataFor(`${at.pathname}${at.search}`, content, doc.title);
}

let documentData: RouteData | null = null;

/** The browser's route data, read from the document once: later locations are fetched. */
export function documentRouteData(): RouteData {
  documentData ??= routeDataFromDocument();
  return documentData;
}

export const RouteDataContext = createContext<RouteData | null>(null);

function useRouteData(): RouteData {
  const data = useContext(RouteDataContext);
  if (!data) throw new Error('The dealer’s pages need the RouteDataContext (AppRoot provides it)');
  return data;
}

/** `GET /api/pages?path=`: the page at that address, or null on a 404. */
async function fetchPage(path: string): Promise<PageAnswer> {
  const response = await platformFetch(`/api/pages?path=${encodeURIComponent(path)}`, {
    credentials: 'same-origin',
    headers: { Accept: 'application/json' },
  });
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`The page at ${path} could not be loaded (${response.status}).`);
  return (await response.json()) as ResolvedPage;
}

/** One request per address at a time, however many components ask. */
function loadPage(data: RouteData, path: string): Promise<void> {
  let pending = data.pending.get(path);
  if (!pending) {
    pending = fetchPage(path)
      .then((answer) => remember(data, path, answer))
      .finally(() => data.pending.delete(path));
    data.pending.set(path, pending);
  }
  return pending;
}

export type PageState = { status: 'ready'; page: PageAnswer } | { status: 'loading' } | { status: 'failed'; retry: () => void };

/**
 * The page at `path` (path and query): at once when it is known (always on the server and at the
 * browser's first location), otherwise fetched after the render.
 */
export function useRoutePage(path: string): PageState {
  const data = useRouteData();
  const [failedPath, setFailedPath] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  // Bumped when an answer arrives, so the page renders with it.
  const [, setAnswered] = useState(0);
  const known = data.answers.has(path);

  useEffect(() => {
    if (known) return;
    let live = true;
    loadPage(data, path).then(
      () => live && setAnswered((n) => n + 1),
      () => live && setFailedPath(path),
    );
    return () => {
      live = false;
    };
  }, [data, path, known, attempt]);

  if (known) return { status: 'ready', page: data.answers.get(path) ?? null };
  if (failedPath === path) {
    return {
      status: 'failed',
      retry: () => {
        setFailedPath(null);
        setAttempt((n) => n + 1);
      },
    };
  }
  return { status: 'loading' };
}

/**
 * Keeps the document title in step with the dealer's page as the shopper moves around. The first
 * page has the title the server wrote, its SEO title (which the page's data does not carry), also
 * when the shopper comes back to it.
 */
export function useContentTitle(title: string, documentTitle?: string) {
  const data = useRouteData();
  const site = useAppSelector(selectSite);
  const location = useLocation();
  const path = `${location.pathname}${location.search}`;
  const serverTitle = data.documentTitle?.path === path ? data.documentTitle.title : null;
  useEffect(() => {
    document.title = serverTitle ?? documentTitle ?? (title ? `${title} | ${site.name}` : site.name);
  }, [serverTitle, documentTitle, title, site.name]);
}
