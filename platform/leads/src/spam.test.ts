import { describe, expect, it } from 'vitest';
import { RateLimiter, retryAfterText, spamVerdict, withoutTrapFields } from './spam';

describe('spam defences', () => {
  const now = 1_750_000_000_000;
  it('holds a filled honeypot and a too-fast submit, and nothing else', () => {
    expect(spamVerdict({ website: 'x' }, now, 2000)).toMatchObject({ spam: true, reason: expect.stringContaining('website') });
    expect(spamVerdict({ company_url: ' http://a ' }, now, 2000)).toMatchObject({ spam: true });
    expect(spamVerdict({ website: '  ' }, now, 2000)).toEqual({ spam: false });
    expect(spamVerdict({ form_started_at: now - 1999 }, now, 2000)).toMatchObject({
      spam: true,
      reason: expect.stringContaining('1999 ms'),
    });
    expect(spamVerdict({ form_started_at: String(now - 500) }, now, 2000)).toMatchObject({ spam: true });
    expect(spamVerdict({ form_started_at: now - 2000 }, now, 2000)).toEqual({ spam: false });
    expect(spamVerdict({ form_started_at: now + 5000 }, now, 2000)).toEqual({ spam: false });
    expect(spamVerdict({ form_started_at: 'yesterday' }, now, 2000)).toEqual({ spam: false });
    expect(spamVerdict({}, now, 2000)).toEqual({ spam: false });
    expect(spamVerdict({ form_started_at: now - 10 }, now, 0)).toEqual({ spam: false });
  });

  it('takes the trap fields out of what is stored', () => {
    expect(withoutTrapFields({ name: 'A', website: '', company_url: 'x', form_started_at: 1 })).toEqual({ name: 'A' });
  });

  it('limits hits per key in a sliding window and says when the next one is allowed', () => {
    const limiter = new RateLimiter(3, 60_000);
    expect(limiter.take('a', 0)).toEqual({ ok: true });
    expect(limiter.take('a', 10_000)).toEqual({ ok: true });
    expect(limiter.take('a', 20_000)).toEqual({ ok: true });
    expect(limiter.take('a', 30_000)).toEqual({ ok: false, retryAfterMs: 30_000 });
    expect(limiter.take('b', 30_000)).toEqual({ ok: true });
    expect(limiter.take('a', 60_001)).toEqual({ ok: true });
    expect(limiter.take('a', 60_002)).toEqual({ ok: false, retryAfterMs: 9_998 });
    expect(new RateLimiter(0, 1000).take('x')).toEqual({ ok: true });
  });

  it('words the retry time for people', () => {
    expect(retryAfterText(1)).toBe('1 second');
    expect(retryAfterText(45_000)).toBe('45 seconds');
    expect(retryAfterText(61_000)).toBe('2 minutes');
    expect(retryAfterText(600_000)).toBe('10 minutes');
  });
});
