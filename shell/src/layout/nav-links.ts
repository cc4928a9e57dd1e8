import type { NavLink, PublicSiteConfig } from '@dealer/contracts/site';
import { resolveRoute } from '@dealer/rules/routes';
import { routeOwner } from '@dealer/rules/route-modules';
import { isModuleEnabled } from '../federation/remote-runtime';

/** Fills the dynamic dropdowns (Our Stock, Brands) from the site's stock summary. */
function expand(link: NavLink, site: PublicSiteConfig, searchPath: string): NavLink {
  if (link.dynamic === 'stock') {
    const children = Object.keys(site.stock.car_types)
      .sort()
      .map((type) => ({ label: `${type[0]!.toUpperCase()}${type.slice(1)} stock`, to: `${searchPath}?car_type=${type}` }));
    return { ...link, children: [{ label: 'All stock', to: searchPath }, ...children] };
  }
  if (link.dynamic === 'brands') {
    return { ...link, children: site.stock.makes.map((make) => ({ label: make, to: `${searchPath}?make=${encodeURIComponent(make)}` })) };
  }
  return link;
}

/** A link to a page of a switched-off remote is left out of the navigation. */
function reachable(link: NavLink, site: PublicSiteConfig): boolean {
  if (link.to === true || !link.to.startsWith('/')) return true;
  const url = new URL(link.to, 'http://site.invalid');
  const owned = routeOwner(resolveRoute(site, url.pathname, url.searchParams));
  return !owned || isModuleEnabled(owned.module);
}

export function navigationLinks(links: NavLink[], site: PublicSiteConfig, searchPath: string): NavLink[] {
  return links
    .map((link) => expand(link, site, searchPath))
    .filter((link) => reachable(link, site))
    .map((link) => (link.children ? { ...link, children: link.children.filter((child) => reachable(child, site)) } : link));
}
