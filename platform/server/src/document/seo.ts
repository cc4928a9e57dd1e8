import type { SiteConfig, SiteLocale } from '@dealer/contracts/site';
import { imageQuality, imageUrl } from '@dealer/rules/images';

/**
 * The address search engines and shared links should use for a site: its own domain over
 * https when it has one, else the address it was asked on (a demo or preview host).
 */
export function canonicalOrigin(site: Pick<SiteConfig, 'domain_name'>, requestOrigin: string): string {
  const domain = site.domain_name?.trim().toLowerCase().replace(/\.$/, '');
  return domain ? `https://${domain}` : requestOrigin;
}

/** One spelling of a path: repeated slashes collapsed, trailing slashes removed ('/search/suv/' → '/search/suv'). */
export const trimPath = (path: string): string => path.replace(/\/{2,}/g, '/').replace(/\/+$/, '') || '/';

/** A path (or an already absolute address) made absolute on an origin. */
export function absoluteUrl(origin: string, path: string): string {
  return new URL(path, `${origin}/`).href;
}

/**
 * The share image of a vehicle: its primary photo through the image endpoint at 1200 wide and
 * the general quality (SPEC §9: 80). The endpoint draws photos at 4:3, so 1200 × 900.
 */
export const shareImageSize = { width: 1200, height: 900 } as const;

export function shareImageUrl(origin: string, photoPath: string): string | null {
  if (!photoPath.trim()) return null;
  return absoluteUrl(origin, imageUrl(photoPath, shareImageSize.width, imageQuality.general));
}

/** Open Graph writes locales with an underscore. */
export const ogLocale = (locale: SiteLocale): string => locale.replace('-', '_');

const xmlEntities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Whether XML 1.0 can carry a code point at all (its Char production): tab, newline, return and the rest of Unicode bar surrogates, FFFE and FFFF. */
const isXmlChar = (code: number) =>
  code === 0x9 ||
  code === 0xa ||
  code === 0xd ||
  (code >= 0x20 && code <= 0xd7ff) ||
  (code >= 0xe000 && code <= 0xfffd) ||
  (code >= 0x10000 && code <= 0x10ffff);

/** Text for XML content or attributes; characters XML 1.0 cannot carry at all are dropped. */
export function escapeXml(text: string): string {
  let clean = '';
  for (const ch of text) if (isXmlChar(ch.codePointAt(0)!)) clean += ch;
  return clean.replace(/[&<>"']/g, (ch) => xmlEntities[ch]!);
}

export type SitemapEntry = { loc: string; lastmod?: string | null };

/** The sitemaps.org protocol's limit per file. */
export const sitemapUrlLimit = 50_000;

/** A sitemaps.org urlset. Each address must already be absolute; lastmod is a W3C datetime. */
export function renderSitemap(entries: readonly SitemapEntry[]): string {
  const urls = entries.map((entry) => {
    const lastmod = entry.lastmod ? `<lastmod>${escapeXml(entry.lastmod)}</lastmod>` : '';
    return `<url><loc>${escapeXml(entry.loc)}</loc>${lastmod}</url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** An ISO datetime for a sitemap's lastmod, or null when the value is no date. */
export function sitemapDate(value: string | number | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  const date = new Date(typeof value === 'number' ? value * 1000 : value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** robots.txt: everything may be crawled except the given paths; the sitemap is named. */
export function renderRobots(disallow: readonly string[], sitemapUrl: string): string {
  const lines = ['User-agent: *', 'Allow: /', ...[...new Set(disallow)].map((path) => `Disallow: ${path}`), '', `Sitemap: ${sitemapUrl}`];
  return `${lines.join('\n')}\n`;
}
