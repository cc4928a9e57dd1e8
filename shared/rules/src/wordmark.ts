/**
 * The wordmark the platform draws for a site that has not uploaded a logo: a monogram tile in the
 * site's colour beside the site's name. The header shows it as text (shell `SiteBrand`), the image
 * endpoint as SVG (for feeds, structured data and the console), the tab's icon as the tile alone.
 */

/** Where the drawn wordmark is served; a site's `logo.url` is this until a logo is uploaded. */
export const drawnLogoPath = (slug: string) => `/img/logo/${slug}.svg`;

/** Where the drawn wordmark's tile is served as the site's icon (a PNG: a tab draws it without a document). */
export const drawnIconPath = (slug: string) => `/img/icon/${slug}.png`;

/** Whether a site shows the drawn wordmark rather than an uploaded logo. */
export const isDrawnLogo = (site: { slug: string; logo: { url: string } }) => site.logo.url === drawnLogoPath(site.slug);

/** A colour safe to put in an attribute or a style: #rgb, #rrggbb, #rrggbbaa or a plain CSS name; else a default blue. */
function safeColour(colour: string): string {
  const c = colour.trim().toLowerCase();
  if (/^#(?:[0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/.test(c)) return c;
  if (/^[a-z]{3,20}$/.test(c)) return c;
  return '#1f4e8c';
}

/** Text colour readable on a background (hex backgrounds only; names get white). */
function inkOn(colour: string): string {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})/.exec(colour);
  if (!m?.[1]) return '#ffffff';
  const hex = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
  const n = Number.parseInt(hex, 16);
  const lum = (0.2126 * ((n >> 16) & 255) + 0.7152 * ((n >> 8) & 255) + 0.0722 * (n & 255)) / 255;
  return lum > 0.6 ? '#1f2328' : '#ffffff';
}

/** The monogram: the first letters of the name's first two words, or its first two letters. */
function initials(name: string): string {
  const words = name
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const letters = words.length > 1 ? (words[0]?.[0] ?? '') + (words[1]?.[0] ?? '') : (words[0] ?? '?').slice(0, 2);
  return letters.toUpperCase() || '?';
}

export type Wordmark = { name: string; initials: string; fill: string; ink: string };

/** What the drawn wordmark shows for a site's name and colour. */
export function wordmark(siteName: string, colour: string): Wordmark {
  const name = siteName.trim().replace(/\s+/g, ' ').slice(0, 80) || 'Dealer';
  const fill = safeColour(colour);
  return { name, initials: initials(name), fill, ink: inkOn(fill) };
}
