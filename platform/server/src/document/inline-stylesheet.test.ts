import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inlinableStylesheet } from './inline-stylesheet';

const dir = mkdtempSync(join(tmpdir(), 'styles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'main.1.css'), '.dp-container{max-width:1200px}');
writeFileSync(join(dir, 'big.css'), `.a{}${' '.repeat(100)}`);
writeFileSync(join(dir, 'closing.css'), '.a{content:"</style><script>"}');

describe('a stylesheet inlined into a page', () => {
  it('is the file’s text when it is small and safe to put in a <style>', () => {
    expect(inlinableStylesheet(dir, 'main.1.css', 100)).toBe('.dp-container{max-width:1200px}');
  });

  it('stays a link when too large, missing, able to end the element, or named outside its folder', () => {
    expect(inlinableStylesheet(dir, 'big.css', 50)).toBeNull();
    expect(inlinableStylesheet(dir, 'gone.css', 100)).toBeNull();
    expect(inlinableStylesheet(dir, 'closing.css', 100)).toBeNull();
    expect(inlinableStylesheet(dir, '../main.1.css', 100)).toBeNull();
    expect(inlinableStylesheet(dir, 'main 1.css', 100)).toBeNull();
  });
});
