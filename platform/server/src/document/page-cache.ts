import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * A page as it was sent: the same for every shopper (nothing in a document depends on who asks),
 * with its site's Content-Security-Policy (http/page-policy.ts).
 */
export type CachedPage = { status: number; html: string; policy: string };

/** The compressed forms a kept page is sent in, made the first time a browser asks for each. */
export type PageEncoding = 'br' | 'gzip';

/** What a hit sends: the page compressed for the browser (`encoding`), or as text. */
export type CachedBody = { status: number; policy: string; encoding: PageEncoding | null; body: string | Buffer };

type Entry = CachedPage & { stamp: string; storedAt: number; bytes: number; encoded: Partial<Record<PageEncoding, Buffer>> };

/**
 * Brotli's quality for a page: 6 costs what 5 does (2.7 ms for metro's search page here; 4 is
 * @fastify/compress's) and sends fewer bytes (13.0 KB against 13.1 at 5 and 14.1 at 4), which keeps
 * the document within a new connection's first round trip (ten 1,460-byte segments, with the
 * response's headers) on a slow phone line: at 13.1 KB it took one more.
 */
export const pageBrotliQuality = 6;

/**
 * Brotli's settings for a page, kept or streamed. A 64 KB window (brotli's default is 4 MB): a page
 * is 40–90 KB and compresses to the same bytes (metro's search page 12,981 against 12,998), while a
 * stream with the default window allocates megabytes for every page, which ten pages compressed at
 * once paid in page faults: uncached search pages for browsers (which all take brotli) went from
 * 126–135 to 190–195 pages/s here.
 */
export const pageBrotliParams = { [constants.BROTLI_PARAM_QUALITY]: pageBrotliQuality, [constants.BROTLI_PARAM_LGWIN]: 16 };

const encoders: Record<PageEncoding, (html: string) => Buffer> = {
  br: (html) => brotliCompressSync(html, { params: { ...pageBrotliParams, [constants.BROTLI_PARAM_SIZE_HINT]: html.length } }),
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

/** Query parameters an ad or a campaign adds to a link: the page at the address is the same without them. */
const trackingParam = /^(utm_[^=]*|gclid|fbclid|msclkid)$/i;
const mayTrack = /[?&](utm_|gclid|fbclid|msclkid)/i;

/**
 * The address a page is kept under: the site's origin and the URL asked for, less the tracking
 * parameters, so every shopper who clicked an ad gets the page the others were sent.
 */
export function pageCacheKey(origin: string, url: string): string {
  const at = url.indexOf('?');
  if (at < 0 || !mayTrack.test(url)) return origin + url;
  const kept = url
    .slice(at + 1)
    .split('&')
    .filter((part) => part !== '' && !trackingParam.test(part.split('=', 1)[0]!));
  return `${origin}${url.slice(0, at)}${kept.length ? `?${kept.join('&')}` : ''}`;
}

export type PageCacheLimits = {
  /** All pages together, with their compressed forms (text in UTF-16 code units, about bytes for these documents). */
  maxBytes: number;
  /** One page larger than this is never kept. */
  maxPageBytes: number;
  /** Longest a page is kept however little changed: time-based tags ('Just Arrived') and the search index catch up. */
  maxAgeMs: number;
  /** Addresses remembered as rendered once (a page is kept on its second render within `maxAgeMs`). */
  maxSeen: number;
};

export const defaultPageCacheLimits: PageCacheLimits = {
  maxBytes: 64 * 1024 * 1024,
  maxPageBytes: 1024 * 1024,
  maxAgeMs: 60_000,
  maxSeen: 10_000,
};

/**
 * Rendered pages per site address and URL, each valid for one content stamp of its site
 * (siteContentStamp: config, remote settings, latest car change) and for `maxAgeMs` at most. A
 * car, price or switch changed by any process changes the stamp, so the next request renders
 * afresh. Least recently used pages go first once `maxBytes` is reached: random query strings
 * cannot grow it.
 *
 * A page is kept the second time it is rendered within `maxAgeMs` (or when it was kept before and
 * went stale): a crawler's one-off addresses are rendered and forgotten, instead of pushing the
 * pages shoppers come back to out of the cache and filling the heap the garbage collector walks.
 */
export class PageCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  /** Digests of addresses rendered once and not kept, with when, oldest first. */
  private readonly seen = new Map<string, number>();

  private readonly limits: PageCacheLimits;

  constructor(limits: Partial<PageCacheLimits> = {}) {
    this.limits = { ...defaultPageCacheLimits, ...limits };
  }

  get(key: string, stamp: string, now = Date.now()): CachedPage | null {
    const entry = this.fresh(key, stamp, now);
    return entry ? { status: entry.status, html: entry.html, policy: entry.policy } : null;
  }

  /**
   * A kept page in `encoding` (compressed once, then kept beside it: a hit costs no compression),
   * or as text when the browser takes no encoding.
   */
  getBody(key: string, stamp: string, encoding: PageEncoding | null, now = Date.now()): CachedBody | null {
    const entry = this.fresh(key, stamp, now);
    if (!entry) return null;
    if (!encoding) return { status: entry.status, policy: entry.policy, encoding: null, body: entry.html };
    let body = entry.encoded[encoding];
    if (!body) {
      body = encoders[encoding](entry.html);
      entry.encoded[encoding] = body;
      entry.bytes += body.length;
      this.bytes += body.length;
      this.evictOver(key);
    }
    return { status: entry.status, policy: entry.policy, encoding, body };
  }

  /**
   * Keeps a page just rendered, if this is the second time its address was rendered lately (see the
   * class). Its text may be given as a function, made only for a page that is kept.
   */
  set(key: string, stamp: string, page: Omit<CachedPage, 'html'> & { html: string | (() => string) }, now = Date.now()) {
    const wasKept = this.entries.has(key);
    this.drop(key);
    if (!wasKept && !this.seenLately(key, now)) return;
    const html = typeof page.html === 'string' ? page.html : page.html();
    const bytes = html.length + key.length;
    if (bytes > this.limits.maxPageBytes) return;
    while (this.bytes + bytes > this.limits.maxBytes && this.entries.size) this.drop(this.entries.keys().next().value!);
    this.entries.set(key, { ...page, html, stamp, storedAt: now, bytes, encoded: {} });
    this.bytes += bytes;
  }

  /** The entry for `key` if it is still valid for `stamp`, now the most recently used; a stale one is dropped. */
  private fresh(key: string, stamp: string, now: number): Entry | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    this.entries.delete(key);
    if (entry.stamp !== stamp || now - entry.storedAt > this.limits.maxAgeMs) {
      this.bytes -= entry.bytes;
      // Asked for again: its next render is kept.
      this.remember(digest(key), now);
      return null;
    }
    // Most recently used last: eviction takes from the front.
    this.entries.set(key, entry);
    return entry;
  }

  /** Whether `key` was rendered within `maxAgeMs` before now; if not, it is remembered as rendered now. */
  private seenLately(key: string, now: number): boolean {
    const hash = digest(key);
    const at = this.seen.get(hash);
    if (at !== undefined && now - at <= this.limits.maxAgeMs && now >= at) {
      this.seen.delete(hash);
      return true;
    }
    this.remember(hash, now);
    return false;
  }

  private remember(hash: string, now: number) {
    this.seen.delete(hash);
    if (this.seen.size >= this.limits.maxSeen) this.seen.delete(this.seen.keys().next().value!);
    this.seen.set(hash, now);
  }

  /** Drops least recently used pages, other than `keep`, until all fit in `maxBytes`. */
  private evictOver(keep: string) {
    for (const key of this.entries.keys()) {
      if (this.bytes <= this.limits.maxBytes) return;
      if (key !== keep) this.drop(key);
    }
  }

  /** How much is kept (for the bench and tests), and how many addresses are remembered as rendered once. */
  size(): { pages: number; bytes: number; seen: number } {
    return { pages: this.entries.size, bytes: this.bytes, seen: this.seen.size };
  }

  private drop(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}

/** A short digest of an address: the remembered addresses take little room however long they are. */
const digest = (key: string) => createHash('sha1').update(key).digest('base64url');
