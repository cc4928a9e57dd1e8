/** Site logo: a monogram tile in the site colour plus the site name as a wordmark (@dealer/rules/wordmark). */
import { wordmark } from '@dealer/rules/wordmark';

const fontStack = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c);
}

/** The tile: a rounded square in the site colour with the monogram, 64 px. */
function tile(initials: string, fill: string, ink: string): string {
  return (
    `<rect x="4" y="4" width="56" height="56" rx="12" fill="${fill}"/>` +
    `<text x="32" y="33" text-anchor="middle" dominant-baseline="central" font-family="${fontStack}" font-size="${[...initials].length > 1 ? 22 : 28}" font-weight="700" fill="${ink}">${escapeXml(initials)}</text>`
  );
}

/**
 * Wordmark SVG, 64 px tall; the width follows the name, estimated at 0.62 em per character
 * (generous for bold system sans fonts, so the name is not clipped). No external fonts.
 */
export function logoSvg(siteName: string, colour: string): string {
  const { name, initials, fill, ink } = wordmark(siteName, colour);
  const fontSize = 28;
  const textWidth = Math.ceil([...name].length * fontSize * 0.62);
  const width = 64 + 14 + textWidth + 8;
  const label = escapeXml(name);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="64" viewBox="0 0 ${width} 64" role="img" aria-label="${label}">` +
    `<title>${label}</title>` +
    tile(initials, fill, ink) +
    `<text x="78" y="33" dominant-baseline="central" font-family="${fontStack}" font-size="${fontSize}" font-weight="700" letter-spacing="-0.3" fill="#1f2328">${label}</text>` +
    `</svg>`
  );
}

/** The tile alone, 64 × 64: drawn into the site's icon (a PNG, image-routes.ts). */
export function iconSvg(siteName: string, colour: string): string {
  const { initials, fill, ink } = wordmark(siteName, colour);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">${tile(initials, fill, ink)}</svg>`;
}
