import type { ReactNode } from 'react';
import { classifyLink } from '@dealer/rules/links';

type SmartLinkProps = {
  to: string | true;
  children: ReactNode;
  className?: string;
  usesPagesPath?: boolean;
  /** The site's /blog lives at /news (`features.blog_to_news`). */
  blogToNews?: boolean;
  onClick?: () => void;
};

/**
 * A link that follows SPEC §2 link behaviour: router links inside the site (anchors the shell's
 * useRoutedLinks follows through the router), plain anchors for
 * tel:, mailto: and maps, new tab for other hosts, nothing for a target of `true`.
 * `data-prefetch` tells the shell whether hovering may warm the route's remote.
 */
export function SmartLink({ to, children, className, usesPagesPath = false, blogToNews = false, onClick }: SmartLinkProps) {
  const link = classifyLink(to, { usesPagesPath, blogToNews });
  switch (link.kind) {
    case 'none':
      return null;
    case 'internal':
      // Followed through the router by the shell's one listener (routed-links.ts), not a Link of its own.
      return (
        <a href={link.to} className={className} onClick={onClick} data-prefetch={link.prefetch ? 'intent' : 'off'}>
          {children}
        </a>
      );
    case 'plain':
      return (
        <a href={link.href} className={className} onClick={onClick}>
          {children}
        </a>
      );
    case 'external':
      return (
        <a href={link.href} className={className} target="_blank" rel="noopener noreferrer" onClick={onClick}>
          {children}
        </a>
      );
  }
}
