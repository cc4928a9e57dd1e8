import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A built stylesheet's text, to inline into a page as `<style data-href>`, or null when it should
 * stay a link: a file name that could leave `dir`, a missing file, one over `maxChars` (cached
 * across pages as a link, it costs less than in every page), or text that could end the element.
 */
export function inlinableStylesheet(dir: string, file: string, maxChars: number): string | null {
  if (!/^[\w./-]+$/.test(file) || file.includes('..')) return null;
  const path = join(dir, file);
  if (!existsSync(path)) return null;
  const css = readFileSync(path, 'utf8');
  return css.length <= maxChars && !/<\/style/i.test(css) ? css : null;
}
