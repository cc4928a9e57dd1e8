import { describe, expect, it } from 'vitest';
import type { SiteContext } from './site-context';
import { SiteContexts } from './site-contexts';

const context = (origin: string) => ({ origin }) as unknown as SiteContext;

describe('the sites’ contexts kept between pages', () => {
  it('gives a context back only for the version it was made for', () => {
    const kept = new SiteContexts<SiteContext>(() => 0);
    const made = context('http://metro.localhost:3000');
    kept.set('1 http://metro.localhost:3000', 'stamp-1', made);
    expect(kept.get('1 http://metro.localhost:3000', 'stamp-1')).toBe(made);
    expect(kept.get('1 http://metro.localhost:3000', 'stamp-2')).toBeNull();
    // Forgotten once another version was asked for.
    expect(kept.get('1 http://metro.localhost:3000', 'stamp-1')).toBeNull();
    expect(kept.get('2 http://metro.localhost:3000', 'stamp-1')).toBeNull();
  });

  it('gives one back only while it is younger than the age asked for (a search token that has most of its life left)', () => {
    let now = 1_000;
    const kept = new SiteContexts<SiteContext>(() => now);
    const made = context('o');
    kept.set('1 o', 'v', made);
    now += 599_999;
    expect(kept.get('1 o', 'v', 600_000)).toBe(made);
    now += 1;
    expect(kept.get('1 o', 'v', 600_000)).toBeNull();
  });

  it('keeps at most its number of contexts, the least recently used going first; clear forgets them all', () => {
    const kept = new SiteContexts<SiteContext>(() => 0, 2);
    kept.set('a', 'v', context('a'));
    kept.set('b', 'v', context('b'));
    kept.get('a', 'v');
    kept.set('c', 'v', context('c'));
    expect(kept.size).toBe(2);
    expect(kept.get('b', 'v')).toBeNull();
    expect(kept.get('a', 'v')).not.toBeNull();
    kept.clear();
    expect(kept.size).toBe(0);
  });
});
