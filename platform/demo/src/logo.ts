/** Site logo: a monogram tile in the site colour plus the site name as a wordmark. */

const fontStack = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c);
}

/** A colour safe to put in an attribute: #rgb, #rrggbb, #rrggbbaa or a plain CSS name; else a default blue. */
export function safeColour(colour: string): string {
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

function initials(name: string): string {
  const words = name
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const letters = words.length > 1 ? (words[0]?.[0] ?? '') + (words[1]?.[0] ?? '') : (words[0] ?? '?').slice(0, 2);
  return letters.toUpperCase() || '?';
}

/**
 * Wordmark SVG, 64 px tall; the width follows the name, estimated at 0.62 em per character
 * (generous for bold system sans fonts, so the name is not clipped). No external fonts.
 */
export function logoSvg(siteName: string, colour: string): string {
  const name = siteName.trim().replace(/\s+/g, ' ').slice(0, 80) || 'Dealer';
  const fill = safeColour(colour);
  const fontSize = 28;
  const textWidth = Math.ceil([...name].length * fontSize * 0.62);
  const width = 64 + 14 + textWidth + 8;
  const letters = initials(name);
  const mono = escapeXml(letters);
  const label = escapeXml(name);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="64" viewBox="0 0 ${width} 64" role="img" aria-label="${label}">` +
    `<title>${label}</title>` +
    `<rect x="4" y="4" width="56" height="56" rx="12" fill="${fill}"/>` +
    `<text x="32" y="33" text-anchor="middle" dominant-baseline="central" font-family="${fontStack}" font-size="${[...letters].length > 1 ? 22 : 28}" font-weight="700" fill="${inkOn(fill)}">${mono}</text>` +
    `<text x="78" y="33" dominant-baseline="central" font-family="${fontStack}" font-size="${fontSize}" font-weight="700" letter-spacing="-0.3" fill="#1f2328">${label}</text>` +
    `</svg>`
  );
}
