/**
 * Bytes of uploads each key (a site and a client address) has stored within a window (a day from
 * its first upload), held in memory like the request limits: a bound on what one address can
 * make the server keep, at most `maxKeys` keys tracked.
 */
export class UploadQuota {
  private readonly used = new Map<string, { since: number; bytes: number }>();

  constructor(
    readonly maxBytes: number,
    readonly windowMs = 86_400_000,
    readonly maxKeys = 50_000,
  ) {}

  private current(key: string, now: number) {
    const entry = this.used.get(key);
    return entry && now - entry.since < this.windowMs ? entry : null;
  }

  /** Bytes the key may still store, and when its window ends (ms; `now` when it has none). */
  remaining(key: string, now = Date.now()): { bytes: number; resetsAt: number } {
    const entry = this.current(key, now);
    return entry
      ? { bytes: Math.max(0, this.maxBytes - entry.bytes), resetsAt: entry.since + this.windowMs }
      : { bytes: this.maxBytes, resetsAt: now };
  }

  add(key: string, bytes: number, now = Date.now()) {
    if (bytes <= 0) return;
    const entry = this.current(key, now);
    if (entry) {
      entry.bytes += bytes;
      return;
    }
    this.used.delete(key);
    // Beyond the bound, the longest-tracked key goes first (Map keeps insertion order).
    if (this.used.size >= this.maxKeys) this.used.delete(this.used.keys().next().value!);
    this.used.set(key, { since: now, bytes });
  }
}
