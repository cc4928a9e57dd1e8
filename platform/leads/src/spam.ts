/**
 * Spam defences that never drop a shopper silently: a bot that fills the hidden honeypot field or
 * submits faster than a person can is *held* (stored, answered as usual, not delivered, listed
 * for the dealer and releasable); only the per-IP-and-site rate limit refuses, with a clear 429.
 */

import { leadFormStartedAtField, leadHoneypotFields } from '@dealer/contracts/lead-values';

/** Hidden fields a person never sees, so never fills. Any text in one marks the lead. */
export const honeypotFields = leadHoneypotFields;

/** When the form was rendered (ms since the epoch, the browser's clock), for the time trap. */
export const formStartedAtField = leadFormStartedAtField;

/** Fields that only serve the defences: taken out of the payload before it is stored or delivered. */
export const trapFields: readonly string[] = [...honeypotFields, formStartedAtField];

export type SpamVerdict = { spam: false } | { spam: true; reason: string };

/**
 * Honeypot first, then the time trap. A missing or unreadable `form_started_at` is not held
 * against the shopper (older forms and other clients do not send it), nor is a start time in the
 * future: that is the shopper's clock running ahead, not a bot.
 */
export function spamVerdict(lead: Record<string, unknown>, now: number, minFillMs: number): SpamVerdict {
  for (const field of honeypotFields) {
    const value = lead[field];
    if (value !== undefined && value !== null && String(value).trim() !== '')
      return { spam: true, reason: `honeypot field "${field}" was filled in` };
  }
  const startedRaw = lead[formStartedAtField];
  const started =
    typeof startedRaw === 'number' ? startedRaw : typeof startedRaw === 'string' && startedRaw.trim() !== '' ? Number(startedRaw) : NaN;
  if (Number.isFinite(started) && minFillMs > 0) {
    const elapsed = now - started;
    if (elapsed >= 0 && elapsed < minFillMs)
      return { spam: true, reason: `submitted ${elapsed} ms after the form was shown (under ${minFillMs} ms)` };
  }
  return { spam: false };
}

export function withoutTrapFields(lead: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...lead };
  for (const field of trapFields) delete copy[field];
  return copy;
}

/**
 * A sliding-window limit per key (IP and site): at most `max` hits within `windowMs`. In memory,
 * per process; behind several processes each keeps its own count. `max` 0 switches it off.
 */
export class RateLimiter {
  /** Per key, hit times in order; `head` is the first still inside the window. */
  private readonly hits = new Map<string, { times: number[]; head: number }>();
  private lastSweep = 0;

  constructor(
    readonly max: number,
    readonly windowMs: number,
    /** Keys tracked at most; a new key beyond it pushes out the longest-tracked one, so memory stays bounded however many addresses call. */
    readonly maxKeys = 50_000,
  ) {}

  /**
   * Counts `count` hits if all are allowed (a multi-search counts its queries); otherwise counts
   * none and says how long until enough hits have left the window.
   */
  take(key: string, now = Date.now(), count = 1): { ok: true } | { ok: false; retryAfterMs: number } {
    if (this.max <= 0) return { ok: true };
    this.sweep(now);
    const since = now - this.windowMs;
    let entry = this.hits.get(key);
    if (!entry) {
      if (this.hits.size >= this.maxKeys) this.hits.delete(this.hits.keys().next().value!);
      this.hits.set(key, (entry = { times: [], head: 0 }));
    }
    while (entry.head < entry.times.length && entry.times[entry.head]! <= since) entry.head += 1;
    if (entry.head > 64 && entry.head * 2 > entry.times.length) {
      entry.times = entry.times.slice(entry.head);
      entry.head = 0;
    }
    const held = entry.times.length - entry.head;
    if (held + count > this.max) {
      // A request of more than the whole window never fits: it waits for the window to empty.
      const freeing = held === 0 ? now : entry.times[entry.head + Math.min(held, held + count - this.max) - 1]!;
      return { ok: false, retryAfterMs: Math.max(1, freeing + this.windowMs - now) };
    }
    for (let i = 0; i < count; i += 1) entry.times.push(now);
    return { ok: true };
  }

  /** Forgets keys with nothing left in their window, at most once a window. */
  private sweep(now: number) {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    const since = now - this.windowMs;
    for (const [key, entry] of this.hits) if (!(entry.times[entry.times.length - 1]! > since)) this.hits.delete(key);
  }
}

/** "Please try again in 4 minutes." for a Retry-After of 211 s, for the 429 message. */
export function retryAfterText(retryAfterMs: number): string {
  const seconds = Math.ceil(retryAfterMs / 1000);
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
