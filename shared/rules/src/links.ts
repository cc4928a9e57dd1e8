export type LinkContext = {
  /** The site serves CMS pages under /pages/; when false every /pages/ prefix is stripped. */
  usesPagesPath: boolean;
  /** The manufacturer site whose blog lives at /news (SPEC §2). */
  blogToNews?: boolean;
  /** Origin of the site being rendered, so absolute links back to it still use the router. */
  currentOrigin?: string;
};

export type LinkKind =
  | { kind: 'none' }
  | { kind: 'internal'; to: string; prefetch: boolean }
  | { kind: 'plain'; href: string }
  | { kind: 'external'; href: string };

/** Pages that live at the root even on sites that use /pages/ for everything else (SPEC §2). */
const rootPages =
  /^\/pages(?=\/(?:privacy-policy|terms-and-conditions|about|about-us|parts-and-accessories|vehicle-parts-and-accessories)(?:\/|$))/;

/**
 * SPEC §2: booking, special offers, finance, assured, models, checkout and buy-online pages
 * load heavy third-party widgets or live prices, so hovering must not fetch them early.
 * 'book' only counts at a word start so '/facebook' keeps prefetch.
 */
const noPrefetch = [/\bbook/, /special-offers/, /finance/, /assured/, /models/, /checkout/, /buy-online/];

const absoluteUrl = /^(?:https?:)?\/\//i;
/** A URL scheme such as 'tel:' (letters, then letters, digits, '+', '-' or '.', then a colon). */
const scheme = /^([a-z][a-z0-9+.-]*):/i;
/** Schemes that can run code or smuggle content; such a link is dropped rather than rendered. */
const unsafeSchemes = new Set(['javascript', 'data', 'vbscript']);

function isMapsUrl(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  return (
    /^maps\.google\.[a-z.]+$/.test(host) ||
    (/^(?:www\.)?google\.[a-z.]+$/.test(host) && url.pathname.startsWith('/maps')) ||
    host === 'maps.app.goo.gl' ||
    (host === 'goo.gl' && url.pathname.startsWith('/maps')) ||
    host === 'maps.apple.com'
  );
}

function internal(target: string, ctx: LinkContext): LinkKind {
  const suffixAt = target.search(/[?#]/);
  let path = suffixAt === -1 ? target : target.slice(0, suffixAt);
  const suffix = suffixAt === -1 ? '' : target.slice(suffixAt);
  if (!path.startsWith('/')) path = `/${path}`;

  path = ctx.usesPagesPath ? path.replace(rootPages, '') : path.replace(/^\/pages(?=\/|$)/, '') || '/';
  if (ctx.blogToNews) path = path.replace(/^\/blog(?=\/|$)/, '/news');

  return { kind: 'internal', to: path + suffix, prefetch: !noPrefetch.some((rule) => rule.test(path.toLowerCase())) };
}

/**
 * How a navigation or CMS link renders (SPEC §2). Device-handled links (tel:, mailto:, maps)
 * are plain anchors in the same tab; links to another host open in a new tab; everything on
 * this site goes through the router. A target of true, an empty target or a script URL
 * renders nothing. A bare '#anchor' stays a plain anchor because it scrolls rather than routes.
 */
export function classifyLink(target: string | true, ctx: LinkContext): LinkKind {
  if (target === true) return { kind: 'none' };
  const href = target.trim();
  if (href === '') return { kind: 'none' };
  if (href.startsWith('#')) return { kind: 'plain', href };

  if (absoluteUrl.test(href)) {
    let url: URL;
    try {
      url = new URL(href, ctx.currentOrigin ?? 'https://invalid.localhost');
    } catch {
      return { kind: 'none' };
    }
    if (isMapsUrl(url)) return { kind: 'plain', href };
    const ownHost = ctx.currentOrigin ? hostOf(ctx.currentOrigin) : null;
    if (ownHost !== null && url.host.toLowerCase() === ownHost) {
      return internal(url.pathname + url.search + url.hash, ctx);
    }
    return { kind: 'external', href };
  }

  const schemeName = scheme.exec(href)?.[1]?.toLowerCase();
  if (schemeName !== undefined) {
    return unsafeSchemes.has(schemeName) ? { kind: 'none' } : { kind: 'plain', href };
  }
  return internal(href, ctx);
}

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * SPEC §2 chat widget visibility. Careers pages always hide it (applicants are not buyers);
 * some sites also hide it on vehicle detail, location and checkout-journey pages where it
 * covers the page's own call to action.
 */
export function isChatHidden(pathname: string, opts: { hideOnCarsLocationsCheckout: boolean }): boolean {
  const segments = (pathname.toLowerCase().split(/[?#]/)[0] ?? '').split('/').filter(Boolean);
  if (segments.some((segment) => segment === 'careers' || segment === 'current-positions')) return true;
  const first = segments[0];
  return (
    opts.hideOnCarsLocationsCheckout && first !== undefined && ['cars', 'locations', 'our-locations', 'checkout-journey'].includes(first)
  );
}
