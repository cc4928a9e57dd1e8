/** A page as it was sent: the same for every shopper (nothing in a document depends on who asks). */
export type CachedPage = { status: number; html: string };

type Entry = CachedPage & { stamp: string; storedAt: number; bytes: number };

export type PageCacheLimits = {
  /** All pages together (UTF-16 code units, about bytes for these documents). */
  maxBytes: number;
  /** One page larger than this is never kept. */
  maxPageBytes: number;
  /** Longest a page is kept however little changed: time-based tags ('Just Arrived') and the search index catch up. */
  maxAgeMs: number;
};

export const defaultPageCacheLimits: PageCacheLimits = { maxBytes: 64 * 1024 * 1024, maxPageBytes: 1024 * 1024, maxAgeMs: 60_000 };

/**
 * Rendered pages per site address and URL, each valid for one content stamp of its site
 * (siteContentStamp: config, remote settings, latest car change) and for `maxAgeMs` at most. A
 * car, price or switch changed by any process changes the stamp, so the next request renders
 * afresh. Least recently used pages go first once `maxBytes` is reached: random query strings
 * cannot grow it.
 */
export class PageCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly limits: PageCacheLimits = defaultPageCacheLimits) {}

  get(key: string, stamp: string, now = Date.now()): CachedPage | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    this.entries.delete(key);
    if (entry.stamp !== stamp || now - entry.storedAt > this.limits.maxAgeMs) {
      this.bytes -= entry.bytes;
      return null;
    }
    // Most recently used last: eviction takes from the front.
    this.entries.set(key, entry);
    return { status: entry.status, html: entry.html };
  }

  set(key: string, stamp: string, page: CachedPage, now = Date.now()) {
    const bytes = page.html.length + key.length;
    this.drop(key);
    if (bytes > this.limits.maxPageBytes) return;
    while (this.bytes + bytes > this.limits.maxBytes && this.entries.size) this.drop(this.entries.keys().next().value!);
    this.entries.set(key, { ...page, stamp, storedAt: now, bytes });
    this.bytes += bytes;
  }

  /** How much is kept (for the bench and tests). */
  size(): { pages: number; bytes: number } {
    return { pages: this.entries.size, bytes: this.bytes };
  }

  private drop(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
