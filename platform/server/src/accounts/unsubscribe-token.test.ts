import { describe, expect, it } from 'vitest';
import { maxUnsubscribeTokenChars, unsubscribeToken, verifyUnsubscribeToken } from './unsubscribe-token';

const secret = 'server-secret-0123456789abcdef';

describe('an unsubscribe token', () => {
  it('names the site and the address (trimmed, lower case), and never runs out', () => {
    const token = unsubscribeToken(secret, 12, ' Jo.Bloggs+cars@Example.COM ');
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(verifyUnsubscribeToken(secret, token)).toEqual({ siteId: 12, email: 'jo.bloggs+cars@example.com' });
  });

  it('stays under its length limit for the longest address', () => {
    const longest = `${'a'.repeat(64)}@${'b'.repeat(185)}.com`;
    expect(longest.length).toBe(254);
    const token = unsubscribeToken(secret, 999_999, longest);
    expect(token.length).toBeLessThanOrEqual(maxUnsubscribeTokenChars);
    expect(verifyUnsubscribeToken(secret, token)?.email).toBe(longest);
  });

  it('is refused when changed, cut short, made with another secret or not a token', () => {
    const token = unsubscribeToken(secret, 12, 'jo@example.com');
    const [, mac] = token.split('.');
    const otherBody = Buffer.from('13:jo@example.com').toString('base64url');
    for (const bad of [
      `${otherBody}.${mac}`,
      token.slice(0, -1),
      `${token}x`,
      `${token}.x`,
      unsubscribeToken('another-secret-0123456789abcdef', 12, 'jo@example.com'),
      '',
      '.',
      'x'.repeat(maxUnsubscribeTokenChars + 1),
    ]) {
      expect(verifyUnsubscribeToken(secret, bad), bad.slice(0, 40)).toBeNull();
    }
  });
});
