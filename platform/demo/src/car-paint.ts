/** Paint colours of the generated vehicle photos (car-photo.ts): named colours, hashed colours and shades. */

/* ------------------------------------------------------------------ colours */

const namedColours: Record<string, string> = {
  white: '#f4f5f6',
  'crystal-white-pearl': '#f1f0ea',
  'pearl-white': '#efeee8',
  'white-pearl': '#efeee8',
  'glacier-white': '#f3f5f6',
  'arctic-white': '#f6f7f8',
  'alpine-white': '#f2f3f1',
  'frozen-white': '#eef1f3',
  'snowflake-white': '#f1f1ec',
  'summit-white': '#f3f3f0',
  ivory: '#f2eedf',
  cream: '#eee4cc',
  black: '#15161a',
  'jet-black': '#0e0f12',
  'eclipse-black': '#131419',
  'phantom-black': '#121317',
  'ebony-black': '#16171a',
  ebony: '#16171a',
  obsidian: '#1a1b20',
  onyx: '#17181b',
  'midnight-black': '#111217',
  silver: '#b8bcc1',
  'sparkling-silver': '#c2c6cb',
  'sonic-silver': '#a9aeb4',
  'lunar-silver': '#b1b5b9',
  titanium: '#8e9297',
  platinum: '#cdd0d2',
  aluminium: '#b5b9bd',
  grey: '#7b8087',
  gray: '#7b8087',
  'machine-grey': '#6d7276',
  'magnetic-grey': '#5b5f63',
  'meteor-grey': '#646a70',
  'polymetal-grey': '#757a7f',
  'shadow-grey': '#55595e',
  'dark-grey': '#4c5056',
  'light-grey': '#a7abb0',
  graphite: '#4a4e54',
  gunmetal: '#4a5058',
  charcoal: '#393c41',
  slate: '#5a6470',
  blue: '#2356a5',
  'dark-blue': '#1e3256',
  'light-blue': '#7ea8d5',
  'sky-blue': '#77b3df',
  'deep-crystal-blue': '#1b2d4b',
  'ocean-blue': '#1f5a8c',
  'electric-blue': '#1d6ee0',
  'lapis-blue': '#23407a',
  navy: '#1c2a4e',
  cobalt: '#1f4fa8',
  red: '#b21f2a',
  'soul-red': '#8d0f18',
  'soul-red-crystal': '#8d0f18',
  'flame-red': '#cf1f29',
  'tornado-red': '#c41e29',
  'dark-red': '#6e1119',
  rosso: '#c81c25',
  crimson: '#a2162c',
  maroon: '#5c1a1f',
  burgundy: '#5a1526',
  wine: '#5e1a2a',
  green: '#2e6a3c',
  'dark-green': '#1d3c29',
  'british-racing-green': '#123c26',
  olive: '#6a6c39',
  khaki: '#897f56',
  lime: '#8cc43e',
  teal: '#1f7878',
  turquoise: '#2db1b1',
  yellow: '#f0c218',
  gold: '#bd9a4a',
  orange: '#e6721b',
  copper: '#b0623a',
  bronze: '#8b6a43',
  brown: '#5d3f2f',
  beige: '#d4c5a6',
  champagne: '#d6c6a4',
  tan: '#b7946a',
  sand: '#c8b38e',
  purple: '#5a3a79',
  violet: '#6a4a9c',
  pink: '#e398b3',
};

/** Finishes and other words that do not change the hue. */
const finishWords = new Set(['metallic', 'pearl', 'mica', 'crystal', 'effect', 'paint', 'colour', 'color', 'solid', 'matte', 'gloss']);

/** FNV-1a, 32 bit: a stable hash for colours and id prefixes. */
export function stableHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function hslToHex(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

/**
 * Paint colour of a colour name or slug ('jet-black', 'Crystal White Pearl', '#ff0000').
 * Exact names first, then the longest run of words that is a known name ('magnetic-grey-metallic'
 * → magnetic-grey), then a stable colour hashed from the name.
 */
export function paintHex(colour: string): string {
  const raw = colour.trim().toLowerCase();
  if (/^#[0-9a-f]{6}$/.test(raw)) return raw;
  const slug = raw.replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  const exact = namedColours[slug];
  if (exact) return exact;
  const words = slug.split('-').filter((w) => w && !finishWords.has(w));
  for (let size = words.length; size >= 1; size--) {
    for (let start = words.length - size; start >= 0; start--) {
      const hit = namedColours[words.slice(start, start + size).join('-')];
      if (hit) return hit;
    }
  }
  const h = stableHash(slug || 'other');
  return hslToHex(h % 360, 0.35 + ((h >>> 9) % 30) / 100, 0.32 + ((h >>> 17) % 26) / 100);
}

function parseHex(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** Mix a colour with another: amount 0 keeps `hex`, 1 gives `other`. */
function mix(hex: string, other: string, amount: number): string {
  const a = parseHex(hex);
  const b = parseHex(other);
  const c = a.map((v, i) => Math.round(v + ((b[i] ?? 0) - v) * amount));
  return `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

export const lighten = (hex: string, amount: number) => mix(hex, '#ffffff', amount);
export const darken = (hex: string, amount: number) => mix(hex, '#000000', amount);

export function luminance(hex: string): number {
  const [r, g, b] = parseHex(hex);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

/** Colour slugs the drawing knows by name (anything else gets a hashed colour). */
export const namedColourSlugs: readonly string[] = Object.keys(namedColours);
