/**
 * The shop's type scale (styles.css): the sizes and weights its stylesheets may set. Each size and
 * weight a page lays out is a font Chromium sets up in its first layout, on Linux a round trip to
 * the browser process each (issue 25), so a stylesheet keeps to these.
 */
export const typeScaleSizes = ['0.875rem', '1rem', '1.25rem', '1.5rem', '2rem'] as const;
export const typeScaleWeights = ['400', '700'] as const;

const sizes = new Set<string>(typeScaleSizes);
const weights = new Set<string>(typeScaleWeights);

/** A size on the scale: one of its steps, `inherit`, or a `clamp()` that starts on one (a phone's size). */
const sizeOnScale = (value: string) =>
  value === 'inherit' || sizes.has(value) || sizes.has(/^clamp\(\s*([^,\s]+)\s*,/.exec(value)?.[1] ?? '');

/** The `font-size` and `font-weight` declarations of `css` that are off the scale, as written ("font-size: 0.9rem"). */
export function offTypeScale(css: string): string[] {
  const off: string[] = [];
  const withoutComments = css.replace(/\/\*[\s\S]*?\*\//g, '');
  for (const [, property, value] of withoutComments.matchAll(/\b(font-size|font-weight)\s*:\s*([^;}]+)/g)) {
    const written = value!.trim();
    const onScale = property === 'font-size' ? sizeOnScale(written) : written === 'inherit' || weights.has(written);
    if (!onScale) off.push(`${property}: ${written}`);
  }
  return off;
}
