import { describe, expect, it } from 'vitest';
import { SearchResultCache } from './search-cache';

describe('search result cache (SPEC §4)', () => {
  it('answers a repeated query from the cache', () => {
    const cache = new SearchResultCache<number>(3);
    cache.set('make=Toyota', 154);
    expect(cache.get('make=Toyota')).toBe(154);
    expect(cache.get('make=Kia')).toBeUndefined();
  });

  it('evicts the oldest query when full', () => {
    const cache = new SearchResultCache<string>(2);
    cache.set('a', 'first');
    cache.set('b', 'second');
    cache.get('a');
    cache.set('c', 'third');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBe('second');
    expect(cache.get('c')).toBe('third');
    expect(cache.size).toBe(2);
  });

  it('storing a query again makes it the newest', () => {
    const cache = new SearchResultCache<string>(2);
    cache.set('a', '1');
    cache.set('b', '2');
    cache.set('a', '3');
    cache.set('c', '4');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('3');
  });

  it('refuses a cache with no room', () => {
    expect(() => new SearchResultCache(0)).toThrow();
  });
});
