import { describe, expect, it } from 'vitest';
import { KeptMarkupCache } from './kept-markup-cache';

const part = (html: string) => ({ html, notes: [] });

describe('the parts the server keeps for pages', () => {
  it('keeps each scope’s parts apart: another config or remote version never gets an old part', () => {
    const cache = new KeptMarkupCache(1024 * 1024);
    cache.scope('1 config-a mf-search@1.9.0').set('site-header', part('<a>old</a>'));
    expect(cache.scope('1 config-a mf-search@1.9.0').get('site-header')?.html).toBe('<a>old</a>');
    expect(cache.scope('1 config-b mf-search@1.9.0').get('site-header')).toBeUndefined();
    expect(cache.scope('1 config-a mf-search@1.10.0').get('site-header')).toBeUndefined();
    expect(cache.scope('2 config-a mf-search@1.9.0').get('site-header')).toBeUndefined();
  });

  it('holds no more than its bytes, dropping the least recently used parts first', () => {
    const cache = new KeptMarkupCache(64 * 1024);
    const site = cache.scope('1 config-a');
    for (let i = 0; i < 100; i += 1) {
      site.set(`card ${i}`, part('x'.repeat(2000)));
      // Card 0 is on every page: used again each time.
      expect(site.get('card 0')).toBeDefined();
    }
    expect(cache.heldBytes).toBeLessThanOrEqual(64 * 1024);
    expect(cache.size).toBeLessThan(100);
    expect(site.get('card 0')).toBeDefined();
    expect(site.get('card 1')).toBeUndefined();
    expect(site.get('card 99')).toBeDefined();
  });

  it('does not keep a part bigger than an eighth of what it may hold', () => {
    const cache = new KeptMarkupCache(64 * 1024);
    cache.scope('1').set('huge', part('x'.repeat(5000)));
    expect(cache.size).toBe(0);
  });

  it('replaces a part kept again under the same key, counting its bytes once', () => {
    const cache = new KeptMarkupCache(64 * 1024);
    const site = cache.scope('1');
    site.set('site-footer', part('a'.repeat(1000)));
    const held = cache.heldBytes;
    site.set('site-footer', part('b'.repeat(1000)));
    expect(cache.heldBytes).toBe(held);
    expect(site.get('site-footer')?.html).toBe('b'.repeat(1000));
  });
});
