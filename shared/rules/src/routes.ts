import { carSlugPattern } from '@dealer/contracts/car-values';
import type { SiteConfig, SiteTemplate } from '@dealer/contracts/site';

export type RouteSite = Pick<
  SiteConfig,
  'template' | 'default_search_path' | 'detail_path' | 'finance_path' | 'garage_path' | 'search_categories' | 'features'
>;

export type LeadFormName = 'finance' | 'test-drive' | 'service' | 'trade-in' | 'contact' | 'careers';

export type RouteMatch =
  | { kind: 'home' }
  | { kind: 'search'; searchSlug: string }
  | { kind: 'vehicle'; slug: string }
  | { kind: 'checkout'; slug: string | null }
  | { kind: 'success'; category: string | null }
  | { kind: 'lead-form'; form: LeadFormName; page?: string }
  | { kind: 'garage'; tab: 'saved-cars' | null }
  | { kind: 'unsubscribe' }
  | { kind: 'redirect'; to: string }
  | { kind: 'content'; page: string }
  /** A blog or news post (`/blog/<slug>`, `/news/<slug>`): a 404 unless the site published a post by that slug. */
  | { kind: 'post'; section: 'blog' | 'news'; slug: string }
  /** The list of posts, one page of 12 (`/blog?page=2`): a page past the last is a 404. */
  | { kind: 'blog'; section: 'blog' | 'news'; page: number }
  /** One special offer (`/special-offers/<slug>`): a 404 once it has expired or if it never existed. */
  | { kind: 'offer'; slug: string }
  | { kind: 'not-found' };

/**
 * SPEC §2 default search paths by template. The SPEC lists none for campers; camper dealers
 * also sell general stock, so they get the general new, used and demo path.
 */
const templateSearchPaths: Record<SiteTemplate, string> = {
  'dealer-group': '/search/new-used-and-demo-cars',
  'used-cars': '/search/used-cars',
  trucks: '/search/new-used-and-demo-trucks',
  motorcycles: '/search/new-and-used-motorcycles',
  campers: '/search/new-used-and-demo-cars',
  'subscription-cars': '/search/subscription-cars',
  'rental-cars': '/search/rental-cars',
  'toyota-pre-owned': '/pre-owned',
};

export function templateDefaultSearchPath(template: SiteTemplate): string {
  return templateSearchPaths[template];
}

const defaultGaragePath = '/my-garage';
const defaultFinancePath = '/finance';
const searchPrefix = '/search/';

/**
 * One spelling per path: query and hash dropped, repeated slashes collapsed, trailing slashes
 * removed (SPEC §2 links both '/book-test-drive/' and '/book-test-drive'), leading slash added.
 */
function normalisePath(pathname: string): string {
  const path = `/${pathname.split(/[?#]/)[0] ?? ''}`.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  return path === '' ? '/' : path;
}

/**
 * The site's stock search page. A configured path lacking the /search/ prefix gets it (SPEC §2).
 * The Toyota template is exempt as a whole: its default '/pre-owned' and any path its sites
 * configure are top-level by design. An empty, '/' or bare '/search' value counts as unset.
 */
export function searchPathFor(site: Pick<SiteConfig, 'template' | 'default_search_path'>): string {
  const path = normalisePath(site.default_search_path.trim());
  if (path === '/' || path === '/search') return templateDefaultSearchPath(site.template);
  if (site.template === 'toyota-pre-owned' || path.startsWith(searchPrefix)) return path;
  return `/search${path}`;
}

export function garagePath(site: Pick<SiteConfig, 'garage_path'>): string {
  const path = normalisePath(site.garage_path.trim());
  return path === '/' ? defaultGaragePath : path;
}

/** SPEC §2: saved cars are a tab of the standard garage but a sub-page of a brand's own garage. */
export function garageSavedPath(site: Pick<SiteConfig, 'garage_path'>): string {
  const garage = garagePath(site);
  return garage === defaultGaragePath ? `${defaultGaragePath}?tab=saved-cars` : `${garage}/saved`;
}

export function vehiclePath(site: Pick<SiteConfig, 'detail_path'>, slug: string): string {
  return `${site.detail_path}/${slug}`;
}

export function checkoutPath(site: Pick<SiteConfig, 'detail_path'>, slug: string): string {
  return `${vehiclePath(site, slug)}/checkout`;
}

function financePath(site: Pick<SiteConfig, 'finance_path'>): string {
  const path = normalisePath(site.finance_path.trim());
  return path === '/' ? defaultFinancePath : path;
}

const leadForm = (form: LeadFormName): RouteMatch => ({ kind: 'lead-form', form });

/** Fixed SPEC §2 paths, normalised. */
const fixedRoutes: Record<string, RouteMatch> = {
  '/checkout': { kind: 'checkout', slug: null },
  '/checkout-journey': { kind: 'checkout', slug: null },
  '/finance': leadForm('finance'),
  '/finance-enquiry': leadForm('finance'),
  '/apply-for-finance': leadForm('finance'),
  '/book-test-drive': leadForm('test-drive'),
  '/service': leadForm('service'),
  '/pages/book-a-service': leadForm('service'),
  '/trade-in': leadForm('trade-in'),
  '/sell-your-car': leadForm('trade-in'),
  '/contact': leadForm('contact'),
  '/contact-us': leadForm('contact'),
  // The careers page is content: the open jobs and the careers form (issue 24).
  '/careers': { kind: 'content', page: 'careers' },
  '/current-positions': { kind: 'content', page: 'careers' },
  // The shell's own page: opting out of the site's offers and alert e-mails (issue 24).
  '/unsubscribe': { kind: 'unsubscribe' },
};

/**
 * SPEC §2 content pages. '/about-us' and '/parts-and-accessories' are included because link
 * rules strip '/pages/' from those pages, and a stripped link must still land somewhere.
 */
const contentPages = new Set([
  '/dealerships',
  '/vehicle-parts-and-accessories',
  '/parts-and-accessories',
  '/privacy-policy',
  '/terms-and-conditions',
  '/eofy',
  '/special-offers',
  '/find/rental-cars',
  '/fleet-service',
  '/about',
  '/about-us',
  '/teams',
  '/our-locations',
]);

/**
 * Where a dealer's page is on the site: SPEC §2's content pages and careers at their own address,
 * home at '/', any other page under '/pages/'.
 */
export function pagePath(slug: string): string {
  if (slug === 'home') return '/';
  const own = `/${slug}`;
  return contentPages.has(own) || own === '/careers' ? own : `/pages/${slug}`;
}

/** Parents whose single-slug children are content too: CMS pages. */
const contentParents = ['/pages'];

/** CMS and dealer page slugs follow the same character rule as car slugs (SPEC §5). */
const pageSlugPattern = carSlugPattern;

const detailPaths = ['/cars', '/motorcycles', '/campers'] as const;

/**
 * Vehicle detail and checkout under the site's own detail path. Its bare path (the embedded
 * header's 'Our Stock (/cars/)') goes to search. '/cars/...' on a motorcycle or camper site
 * redirects to the site's own path, so shared links and old bookmarks keep working while the
 * page itself has one address; '/motorcycles/...' on a car site is not a page.
 */
function matchVehicle(site: RouteSite, path: string): RouteMatch | null {
  const [, first, slug, action, ...extra] = path.split('/');
  const prefix = `/${first}`;
  if (!detailPaths.some((detail) => detail === prefix)) return null;
  if (prefix !== site.detail_path) {
    if (prefix !== '/cars') return null;
    const own = matchVehicle(site, `${site.detail_path}${path.slice(prefix.length)}`);
    return own?.kind === 'vehicle' || own?.kind === 'checkout'
      ? { kind: 'redirect', to: `${site.detail_path}${path.slice(prefix.length)}` }
      : own;
  }
  if (slug === undefined) return { kind: 'redirect', to: searchPathFor(site) };
  if (!carSlugPattern.test(slug) || extra.length > 0) return { kind: 'not-found' };
  if (action === undefined) return { kind: 'vehicle', slug };
  return action === 'checkout' ? { kind: 'checkout', slug } : { kind: 'not-found' };
}

function matchGarage(site: RouteSite, path: string, search: URLSearchParams): RouteMatch | null {
  const garage = garagePath(site);
  const tab = search.get('tab') === 'saved-cars' ? 'saved-cars' : null;
  if (path === garage) return { kind: 'garage', tab };
  if (garage === defaultGaragePath) return null;
  if (path === `${garage}/saved`) return { kind: 'garage', tab: 'saved-cars' };
  // A brand garage still answers the standard address, which shared components link to.
  if (path === defaultGaragePath) return { kind: 'redirect', to: tab ? `${garage}/saved` : garage };
  return null;
}

/**
 * Maps a pathname to the screen that serves it (SPEC §2). Site-specific paths are checked
 * before the fixed table so a site's configuration wins over a generic page of the same name.
 * Redirect targets are paths; the caller carries the query string over where it applies.
 */
export function resolveRoute(site: RouteSite, pathname: string, search: URLSearchParams = new URLSearchParams()): RouteMatch {
  const path = normalisePath(pathname);
  if (path === '/') return { kind: 'home' };

  if (site.features.pre_owned_redirect) {
    if (path === '/search/used-cars') return { kind: 'redirect', to: '/pre-owned' };
    // The redirect target must exist even when the template's own search path is elsewhere.
    if (path === '/pre-owned') return { kind: 'search', searchSlug: 'pre-owned' };
  }

  const searchPath = searchPathFor(site);
  const categoryPaths = site.search_categories.map((category) => normalisePath(category.path));
  if (path === searchPath || categoryPaths.includes(path) || (path.startsWith(searchPrefix) && path.length > searchPrefix.length)) {
    return { kind: 'search', searchSlug: path.startsWith(searchPrefix) ? path.slice(searchPrefix.length) : path.slice(1) };
  }

  const vehicle = matchVehicle(site, path);
  if (vehicle) return vehicle;

  if (path === financePath(site)) return leadForm('finance');
  if (path === '/finance-pre-approval') return { kind: 'redirect', to: financePath(site) };

  const garage = matchGarage(site, path, search);
  if (garage) return garage;

  if (path === '/success') return { kind: 'success', category: search.get('category') || null };

  // The site's electric stock: a search with its own filter (searchSlugFilters).
  if (path === '/electric-cars') return { kind: 'search', searchSlug: 'electric-cars' };
  if (path === '/blog' || path === '/news') return { kind: 'blog', section: path === '/blog' ? 'blog' : 'news', page: listPage(search) };

  const fixed = fixedRoutes[path];
  if (fixed) return fixed;
  if (contentPages.has(path)) return { kind: 'content', page: path.slice(1) };

  const [, parent, child, ...extra] = path.split('/');
  if (child === undefined || extra.length > 0 || !pageSlugPattern.test(child)) return { kind: 'not-found' };
  if (parent === 'contact-us') return { kind: 'lead-form', form: 'contact', page: child };
  if (contentParents.includes(`/${parent}`)) return { kind: 'content', page: path.slice(1) };
  if (parent === 'blog' || parent === 'news') return { kind: 'post', section: parent, slug: child };
  if (parent === 'special-offers') return { kind: 'offer', slug: child };
  return { kind: 'not-found' };
}

/** The page of a list from `?page=` (SPEC §5: a positive whole number; anything else is the first page). */
function listPage(search: URLSearchParams): number {
  const page = Number(search.get('page'));
  return Number.isInteger(page) && page > 1 ? page : 1;
}
