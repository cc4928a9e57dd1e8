type Kept<T> = { version: string; context: T; madeAt: number };

/**
 * Sites' contexts (tenancy/site-context.ts) as last resolved (the public config with its remotes and search key), so a page
 * of a site where nothing changed reuses them: no config read and parse, no remote lookups, no key
 * signed, and the same public config object, whose version digest is kept per object
 * (document/site-config-url.ts). One per site and address it is served at (`key`), valid for one
 * `version` (what the context is made of: see resolveSite); at most `maxEntries`, the least
 * recently used going first, so random Host headers cannot grow it.
 *
 * A kept context is shared by every request that gets it: callers read it and never change it.
 */
export class SiteContexts<T> {
  private readonly kept = new Map<string, Kept<T>>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 256,
  ) {}

  /** The context kept for `key` while it is still `version` and younger than `maxAgeMs`; null otherwise. */
  get(key: string, version: string, maxAgeMs = Infinity): T | null {
    const entry = this.kept.get(key);
    if (!entry) return null;
    this.kept.delete(key);
    const age = this.now() - entry.madeAt;
    if (entry.version !== version || age < 0 || age >= maxAgeMs) return null;
    // Most recently used last: eviction takes from the front.
    this.kept.set(key, entry);
    return entry.context;
  }

  set(key: string, version: string, context: T) {
    this.kept.delete(key);
    if (this.kept.size >= this.maxEntries) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(key, { version, context, madeAt: this.now() });
  }

  clear() {
    this.kept.clear();
  }

  get size(): number {
    return this.kept.size;
  }
}
