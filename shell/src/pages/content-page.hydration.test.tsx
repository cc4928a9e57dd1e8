// @vitest-environment jsdom
import { act } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResolvedPage } from '@dealer/contracts/content';
import { testSite } from '@dealer/contracts/testing/test-site';
import { createPlatformStore } from '@dealer/state/store';
import { AppRoot } from '../app-root';
import { routeDataFromDocument } from '../content/route-data';
import { aboutPage, blogPage, homePage, offerPage, postPage } from '../content/testing/resolved-pages';
import { renderApp } from '../render-app.server';
import { loadRemoteModule } from '../federation/remote-runtime';

// A remote's code never arrives here: what matters is whether the page asks for it.
vi.mock('../federation/remote-runtime', async (original) => ({
  ...(await original<typeof import('../federation/remote-runtime')>()),
  loadRemoteModule: vi.fn(() => new Promise(() => undefined)),
}));

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// Its search title is more than its name, as most dealers' are.
const site = testSite({
  seo: { title: 'New and used Toyotas in Parramatta | Metro Toyota Parramatta', description: 'New and used Toyotas in Parramatta.' },
});
let root: Root | null = null;

beforeEach(() => {
  vi.mocked(loadRemoteModule).mockClear();
});

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** The page as the server sends it (markup and `#route-data`), then hydrated as the browser does; what React complained of. */
async function hydrate(path: string, content: ResolvedPage | null, sent: ResolvedPage | null = content) {
  window.history.replaceState(null, '', path);
  const { html } = await renderApp({ site, url: `${window.location.origin}${path}`, hero: null, routeData: { content } });
  document.body.innerHTML = `<div id="root" data-ssr>${html}</div><script id="route-data" type="application/json">${JSON.stringify({ content: sent })}</script>`;
  const container = document.getElementById('root')!;
  const serverHeading = container.querySelector('main h1');
  const complaints: unknown[] = [];
  vi.spyOn(console, 'error').mockImplementation((...args) => complaints.push(args));
  await act(async () => {
    root = hydrateRoot(
      container,
      <AppRoot
        site={site}
        store={createPlatformStore(site)}
        routeData={routeDataFromDocument()}
        router={(children) => <BrowserRouter>{children}</BrowserRouter>}
      />,
      { onRecoverableError: (error) => complaints.push(error) },
    );
  });
  // The content chunk arrives (a dynamic import here) and React hydrates the markup it kept.
  await act(async () => {
    await import('./content-page');
    await import('../content/page-blocks');
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
  return { container, html, complaints, serverHeading };
}

/** `GET /api/pages?path=` answering from `pages` (404 for any other address); the addresses asked. */
function stubPagesApi(pages: Record<string, ResolvedPage>) {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const address = new URL(url, window.location.origin);
      // The page's other calls (its event log) are answered and not counted.
      if (address.pathname !== '/api/pages') return new Response(null, { status: 204 });
      const path = address.searchParams.get('path')!;
      asked.push(path);
      const page = pages[path];
      return page
        ? new Response(JSON.stringify(page), { status: 200, headers: { 'Content-Type': 'application/json' } })
        : new Response(JSON.stringify({ message: 'There is no page at this address.' }), { status: 404 });
    }),
  );
  return asked;
}

/** Clicks as a shopper does; whether the browser would have followed the link itself (no one prevented it). */
async function click(element: Element | null) {
  expect(element).not.toBeNull();
  let followedByBrowser = true;
  await act(async () => {
    followedByBrowser = element!.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
  });
  return followedByBrowser;
}

/** Lets fetches answer and React render what they brought. */
async function settle() {
  for (let i = 0; i < 5; i++) await act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
}

describe('a dealer’s page hydrated in the browser from the server’s markup', () => {
  it.each([
    ['/about', aboutPage],
    ['/blog/new-hilux-arrives', postPage],
    ['/special-offers/eofy-sale', offerPage],
    ['/blog?page=2', blogPage(2, 3)],
    ['/', homePage],
    ['/', null],
    ['/about', null],
    ['/dealerships', null],
  ] as const)('%s keeps the server’s markup with no hydration mismatch', async (path, content) => {
    const asked = stubPagesApi({});
    const { container, complaints, serverHeading } = await hydrate(path, content);
    expect(complaints).toEqual([]);
    // Hydrated, not replaced: React adopted the server's elements.
    expect(container.querySelector('main h1')).toBe(serverHeading);
    // Nothing asked again: the page came with the document.
    expect(asked).toEqual([]);
    if (content)
      expect(container.querySelector('h1')?.textContent).toBe(content.kind === 'home' ? 'Metro Toyota: drive away today' : content.title);
  });

  it('would notice a mismatch: a document whose page differs from the one the server rendered', async () => {
    stubPagesApi({});
    const { complaints } = await hydrate('/about', aboutPage, { ...aboutPage, title: 'Another title' });
    expect(complaints.length).toBeGreaterThan(0);
  });
});

describe('the home page’s title', () => {
  it('stays the site’s search title the server wrote, not only its name, once the page is live', async () => {
    stubPagesApi({});
    document.title = site.seo.title;
    await hydrate('/', homePage);
    expect(site.seo.title).not.toBe(site.name);
    expect(document.title).toBe(site.seo.title);
  });
});

describe('the lead form block’s remote code', () => {
  it('loads only on a page that has the block: not on the home page', async () => {
    stubPagesApi({});
    await hydrate('/', homePage);
    expect(loadRemoteModule).not.toHaveBeenCalled();
    act(() => root?.unmount());
    root = null;

    await hydrate('/about', aboutPage);
    // (Twice: StrictMode runs each effect twice in development.)
    expect(new Set(vi.mocked(loadRemoteModule).mock.calls.map(([module]) => module))).toEqual(new Set(['mf-leads/LeadFormPage']));
  });
});

describe('moving from page to page in the browser', () => {
  it('follows a link in the dealer’s text through the router, fetches that page once, and keeps it for coming back', async () => {
    const asked = stubPagesApi({ '/about': aboutPage });
    document.title = 'HiLux 2026: the new range arrives | Metro Toyota Parramatta';
    const { container } = await hydrate('/blog/new-hilux-arrives', {
      ...postPage,
      blocks: [{ type: 'rich_text', id: 'body', html: '<p>Read <a href="/about">about us</a>.</p>' }],
    });

    // The server's title (the post's SEO title) stands until the shopper moves on.
    expect(document.title).toBe('HiLux 2026: the new range arrives | Metro Toyota Parramatta');

    expect(await click(container.querySelector('.rich-text a[href="/about"]'))).toBe(false);
    // A light loading state while the page is on its way, then the page.
    await settle();
    expect(window.location.pathname).toBe('/about');
    expect(container.querySelector('h1')?.textContent).toBe('About Metro Toyota');
    expect(document.title).toBe('About Metro Toyota | Metro Toyota Parramatta');
    expect(asked).toEqual(['/about']);

    await act(async () => window.history.back());
    await settle();
    expect(container.querySelector('h1')?.textContent).toBe('The new HiLux arrives');
    expect(document.title).toBe('HiLux 2026: the new range arrives | Metro Toyota Parramatta');
    await act(async () => window.history.forward());
    await settle();
    expect(container.querySelector('h1')?.textContent).toBe('About Metro Toyota');
    expect(asked).toEqual(['/about']);
  });

  it('shows "Page not found" for an address the site answers 404, and asks with the query (news pages)', async () => {
    const asked = stubPagesApi({ '/blog?page=3': blogPage(3, 3) });
    const { container } = await hydrate('/blog?page=2', blogPage(2, 3));

    await click(container.querySelector('a[rel="next"]'));
    await settle();
    expect(container.querySelector('.content-blog a[href="/blog/post-on-page-3"]')).not.toBeNull();
    await act(async () => window.history.back());
    await settle();
    expect(container.querySelector('.content-blog a[href="/blog/post-on-page-2"]')).not.toBeNull();

    await click(container.querySelector('a[rel="prev"]'));
    await settle();
    // `/blog` is another address than `/blog?page=2`: asked, and this site answers 404 for it.
    expect(asked).toEqual(['/blog?page=3', '/blog']);
    expect(container.querySelector('h1')?.textContent).toBe('Page not found');
  });

  it('offers to try again when the page could not be fetched', async () => {
    const { container } = await hydrate('/', null);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('down', { status: 503 })),
    );
    await act(async () => {
      window.history.pushState(null, '', '/about');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await settle();
    expect(container.querySelector('h1')?.textContent).toBe('This page did not load');

    stubPagesApi({ '/about': aboutPage });
    await click([...container.querySelectorAll('button')].find((button) => button.textContent === 'Try again') ?? null);
    await settle();
    expect(container.querySelector('h1')?.textContent).toBe('About Metro Toyota');
  });
});
