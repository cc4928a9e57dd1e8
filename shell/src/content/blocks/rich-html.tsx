import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { classifyLink } from '@dealer/rules/links';
import { pressedAnchor } from '@dealer/ui/routed-links';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';

/**
 * Formatted text the dealer wrote (rich text, FAQ answers, job descriptions, an offer's terms). The
 * only place the shell sets HTML (an ESLint rule keeps it so): the server sanitised it to a short
 * allowlist before storing it (platform/server/src/content/sanitize-html.ts), and this adds nothing
 * to it. A click on a link to a page of the site goes through the router, as the site's other links do.
 */
export function RichHtml({ html, className }: { html: string; className?: string }) {
  const navigate = useNavigate();
  const site = useAppSelector(selectSite);
  const followInside = (event: MouseEvent<HTMLDivElement>) => {
    const anchor = pressedAnchor(event.nativeEvent);
    if (!anchor || !event.currentTarget.contains(anchor)) return;
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
  return (
    // A click on the text itself does nothing: only its links (keyboard-reachable anchors) are followed.
    <div className={className ? `rich-text ${className}` : 'rich-text'} onClick={followInside} dangerouslySetInnerHTML={{ __html: html }} />
  );
}
