import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** A page as it was sent: the same for every shopper (nothing in a document depends on who asks). */
export type CachedPage = { status: number; html: string };

/** The compressed forms a kept page is sent in, made the first time a browser asks for each. */
export type PageEncoding = 'br' | 'gzip';

/** What a hit sends: the page compressed for the browser (`encoding`), or as text. */
export type CachedBody = { status: number; encoding: PageEncoding | null; body: string | Buffer };

type Entry = CachedPage & { stamp: string; storedAt: number; bytes: number; encoded: Partial<Record<PageEncoding, Buffer>> };

const encoders: Record<PageEncoding, (html: string) => Buffer> = {
  // The quality @fastify/compress uses for responses it compresses itself.
  br: (html) =>
    brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: html.length } }),
  gzip: (html) => gzipSync(html),
};

/**
 * The encoding to send a page in for an Accept-Encoding header: brotli, then gzip, when the
 * browser takes it (a `q=0` refuses it); none otherwise.
 */
export function pageEncodingFor(acceptEncoding: string | string[] | undefined): PageEncoding | null {
  const header = (Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : (acceptEncoding ?? '')).slice(0, 512).toLowerCase();
  const accepted = new Set<string>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim());
    const q = params.find((param) => param.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

export type PageCacheLimits = {
  /** All pages together, with their compressed forms (text in UTF-16 code units, about bytes for these documents). */
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
    const entry = this.fresh(key, stamp, now);
    return entry ? { status: entry.status, html: entry.html } : null;
  }

  /**
   * A kept page in `encoding` (compressed once, then kept beside it: a hit costs no compression),
   * or as text when the browser takes no encoding.
   */
  getBody(key: string, stamp: string, encoding: PageEncoding | null, now = Date.now()): CachedBody | null {
    const entry = this.fresh(key, stamp, now);
    if (!entry) return null;
    if (!encoding) return { status: entry.status, encoding: null, body: entry.html };
    let body = entry.encoded[encoding];
    if (!body) {
      body = encoders[encoding](entry.html);
      entry.encoded[encoding] = body;
      entry.bytes += body.length;
      this.bytes += body.length;
      this.evictOver(key);
    }
    return { status: entry.status, encoding, body };
  }

  set(key: string, stamp: string, page: CachedPage, now = Date.now()) {
    const bytes = page.html.length + key.length;
    this.drop(key);
    if (bytes > this.limits.maxPageBytes) return;
    while (this.bytes + bytes > this.limits.maxBytes && this.entries.size) this.drop(this.entries.keys().next().value!);
    this.entries.set(key, { ...page, stamp, storedAt: now, bytes, encoded: {} });
    this.bytes += bytes;
  }

  /** The entry for `key` if it is still valid for `stamp`, now the most recently used; a stale one is dropped. */
  private fresh(key: string, stamp: string, now: number): Entry | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    this.entries.delete(key);
    if (entry.stamp !== stamp || now - entry.storedAt > this.limits.maxAgeMs) {
      this.bytes -= entry.bytes;
      return null;
    }
    // Most recently used last: eviction takes from the front.
    this.entries.set(key, entry);
    return entry;
  }

  /** Drops least recently used pages, other than `keep`, until all fit in `maxBytes`. */
  private evictOver(keep: string) {
    for (const key of this.entries.keys()) {
      if (this.bytes <= this.limits.maxBytes) return;
      if (key !== keep) this.drop(key);
    }
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
