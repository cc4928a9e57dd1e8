import type { ReactNode } from 'react';
import { SmartLink } from '@dealer/ui/smart-link';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';

/** A dealer's link (a page of the site or a web address; `true`: none), following the site's link rules: its buttons, its menus. */
export function SiteLink({ to, className, children }: { to: string | true; className?: string; children: ReactNode }) {
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
