import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { classifyLink } from '@dealer/rules/links';

/**
 * A search landing page's intro, as the dealer wrote it (or the site's template filled it in). The
 * only HTML this remote puts into the page: the platform sanitised it to a short allowlist (p, h2–h4,
 * strong, em, u, s, a, lists, blockquote, br) before storing it, and this adds nothing to it. A click
 * on a link to a page of the site goes through the router, as the site's other links do.
 */
export function SearchIntro({ html, site }: { html: string; site: PublicSiteConfig }) {
  const navigate = useNavigate();
  const followInside = (event: MouseEvent<HTMLDivElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = (event.target as Element).closest('a');
    if (!anchor || !event.currentTarget.contains(anchor) || anchor.hasAttribute('download')) return;
    if (anchor.target && anchor.target !== '_self') return;
    const href = anchor.getAttribute('href');
    if (!href) return;
    const link = classifyLink(href, {
      usesPagesPath: site.features.uses_pages_path === true,
      blogToNews: site.features.blog_to_news === true,
      currentOrigin: window.location.origin,
    });
    if (link.kind !== 'internal') return;
    event.preventDefault();
    navigate(link.to);
  };
  // A click on the text itself does nothing: only its links (keyboard-reachable anchors) are followed.
  return <div className="search-page__intro" onClick={followInside} dangerouslySetInnerHTML={{ __html: html }} />;
}
