import type { ReactNode } from 'react';
import { SmartLink } from '@dealer/ui/smart-link';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';

/** A dealer's button link (a page of the site or a web address), following the site's link rules as its menus do. */
export function SiteLink({ to, className, children }: { to: string; className?: string; children: ReactNode }) {
  const site = useAppSelector(selectSite);
  return (
    <SmartLink
      to={to}
      className={className}
      blogToNews={site.features.blog_to_news === true}
      usesPagesPath={site.features.uses_pages_path === true}
    >
      {children}
    </SmartLink>
  );
}
