import { useLayoutEffect } from 'react';
import { useNavigate } from 'react-router-dom';

/**
 * What marks an anchor as a link to a page of this site: its `data-prefetch` (SmartLink's internal
 * links, the result and content cards) and a path of this site.
 */
export const routedAnchorSelector = 'a[data-prefetch][href^="/"]';

/**
 * The path a click takes through the router instead of loading a new document, or null: a plain
 * press (main button, no modifier key) on a site-internal anchor that opens in this tab and
 * downloads nothing, and that nothing before it handled.
 */
export function routedPath(event: MouseEvent): string | null {
  const href = pressedAnchor(event, routedAnchorSelector)?.getAttribute('href');
  if (!href || href.startsWith('//')) return null;
  return href;
}

/**
 * The anchor matching `selector` that a click pressed to follow in this tab, or null: a plain press
 * (main button, no modifier key) that nothing before handled, on an anchor that opens in this tab
 * and downloads nothing. Anything else is the browser's to follow.
 */
export function pressedAnchor(event: MouseEvent, selector = 'a'): HTMLAnchorElement | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const target = event.target;
  if (!(target instanceof Element)) return null;
  const anchor = target.closest<HTMLAnchorElement>(selector);
  if (!anchor || anchor.hasAttribute('download')) return null;
  if (anchor.target && anchor.target !== '_self') return null;
  return anchor;
}

/**
 * Follows the site's internal anchors through the router with one listener on the document, instead
 * of a router Link per link (its hooks, resolved path and click handler, on the server and again in
 * hydration): a page's header, footer and cards are plain anchors. A link to the page already shown
 * replaces it in the history, as Link does. Installed once, by the shell's App, as it hydrates; until
 * then, and under a shell without it, such a link loads its page as any anchor does.
 */
export function useRoutedLinks() {
  const navigate = useNavigate();
  useLayoutEffect(() => {
    const follow = (event: MouseEvent) => {
      const path = routedPath(event);
      if (path === null) return;
      event.preventDefault();
      const shown = `${window.location.pathname}${window.location.search}${window.location.hash}`;
      void navigate(path, { replace: path === shown });
    };
    document.addEventListener('click', follow);
    return () => document.removeEventListener('click', follow);
  }, [navigate]);
}
