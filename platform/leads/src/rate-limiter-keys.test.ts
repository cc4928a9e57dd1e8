import { describe, expect, it } from 'vitest';
import { RateLimiter } from './spam';

describe('the rate limiter under many addresses', () => {
  it('tracks at most maxKeys keys: a new key pushes out the longest-tracked one', () => {
    const limiter = new RateLimiter(1, 60_000, 3);
    const now = 1_000_000;
    for (const key of ['a', 'b', 'c']) expect(limiter.take(key, now).ok).toBe(true);
    expect(limiter.take('a', now).ok).toBe(false);
    // A fourth address: 'a' (tracked longest) is forgotten, the others keep their count.
    expect(limiter.take('d', now).ok).toBe(true);
    expect(limiter.take('b', now).ok).toBe(false);
    expect(limiter.take('a', now).ok).toBe(true);
  });
});
