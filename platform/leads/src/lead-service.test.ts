import { describe, expect, it } from 'vitest';
import { requestHash, tokenMatches, updateTokenOf } from './lead-service';

describe('update tokens and request hashes', () => {
  it('derives a token per lead and salt, checked in constant time', () => {
    const token = updateTokenOf('secret-0123456789abcdef', 42, 'salt');
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(updateTokenOf('secret-0123456789abcdef', 43, 'salt')).not.toBe(token);
    expect(updateTokenOf('another-secret-0123456789', 42, 'salt')).not.toBe(token);
    expect(tokenMatches(token, token)).toBe(true);
    expect(tokenMatches(`${token}x`, token)).toBe(false);
    expect(tokenMatches('', token)).toBe(false);
  });

  it('hashes the same body the same whatever its key order, and files by content', () => {
    expect(requestHash({ a: 1, b: { c: [1, 2], d: 'x' } })).toBe(requestHash({ b: { d: 'x', c: [1, 2] }, a: 1 }));
    expect(requestHash({ a: 1 })).not.toBe(requestHash({ a: 2 }));
    expect(requestHash({ a: 1 }, [{ sha256: 'f1' }])).not.toBe(requestHash({ a: 1 }, [{ sha256: 'f2' }]));
  });
});
