import { PassThrough, type Readable } from 'node:stream';
import { brotliCompressSync, constants, createBrotliCompress, createGzip, type BrotliCompress, type Gzip } from 'node:zlib';
import { pageBrotliParams, pageBrotliQuality, type PageEncoding } from './page-cache';

/**
 * Pages being made at once beyond which the next is compressed with less effort. One at a time is a
 * shopper's or Lighthouse's page; four at once on this 2-core machine already wait ~20 ms each on
 * the others, and brotli at quality 6 is a third of a page's CPU there.
 */
export const busyPages = 4;

/**
 * Brotli's quality for a page made while the server is busy: metro's search page is 15.4 KB instead
 * of 13.0, for under a third of the compressor's time (at once here: 0.31 ms at 2, 0.41 at 3, 1.04 at
 * 6; quality 2 is faster than 1 and 3 for a few more bytes than 3). Uncached search pages under load
 * (ten at once, alternated on this machine): zlib's threads 2.0–2.4 ms of CPU a page at quality 6 and
 * 0.9 at 3; 170–233 pages/s, p99 94–141 ms at 6, and 208–239, p99 80–99 at 3.
 */
const busyPageBrotliQuality = 2;

/** The pages being streamed now, counted from their stream's start to its close. */
export class PagesInFlight {
  private open = 0;

  constructor(readonly busyAt = busyPages) {}

  get count() {
    return this.open;
  }

  /** Whether `busyAt` pages or more are being made now. */
  get busy() {
    return this.open >= this.busyAt;
  }

  /** Counts the page `stream` until it closes. */
  enter(stream: Readable) {
    this.open++;
    stream.once('close', () => this.open--);
  }
}

/**
 * A page sent as it is made: its head at once, its body when the server render is done. Compressed
 * here (the compression plugin leaves an encoded body alone) so the head can be flushed out of the
 * compressor instead of waiting in its buffer for the rest. While `busyAt` others are being made
 * (`inFlight`), brotli spends less effort on it, and its head goes with the rest in one piece (one
 * turn of zlib's threads and one socket write instead of two): a few more bytes and a later head
 * rather than a longer wait for all. Uncached search pages under load (ten at once, alternated on
 * this machine, five pairs): 205–268 pages/s with the head sent first, 214–334 with it held.
 *
 * A busy page in brotli is compressed here, at once, when it ends (~0.3 ms for metro's 85 KB search
 * page at quality 2), not by zlib's thread pool: handing it over and being woken for its bytes cost
 * this thread more on a machine whose cores are all busy (a CPU profile under load: 0.64 ms a page
 * in zlib's `processChunk`, waiting to run again after waking a pool thread). Alternated here,
 * uncached search pages, three pairs: 540–685 pages/s against 484–639, p99 33–46 against 38–46 ms.
 */
export class PageStream {
  private readonly stream: PassThrough | Gzip | BrotliCompress;
  /** Brotli's quality for this page (null: not brotli). */
  readonly quality: number | null = null;
  /** Made while busy, the head written so far (else null): it goes with the rest, one turn of the compressor instead of two. */
  private heldHead: string | null;

  readonly encoding: PageEncoding | null;
  /** Made while busy, in brotli: compressed when it ends, at once (see `end`). */
  private readonly compressAtEnd: boolean;

  constructor(encoding: PageEncoding | null, inFlight?: PagesInFlight) {
    const busy = inFlight?.busy ?? false;
    this.heldHead = busy ? '' : null;
    this.encoding = encoding;
    this.compressAtEnd = busy && encoding === 'br';
    if (this.compressAtEnd) {
      // Compressed in one piece when it ends, on this thread (see `end`).
      this.quality = busyPageBrotliQuality;
      this.stream = new PassThrough();
    }
    // Every write is sent at once (the head, then the rest): flushed by the write itself, not by a
    // second turn of zlib's thread pool.
    else if (encoding === 'br') {
      this.quality = pageBrotliQuality;
      this.stream = createBrotliCompress({
        params: pageBrotliParams,
        flush: constants.BROTLI_OPERATION_FLUSH,
      });
    } else if (encoding === 'gzip') this.stream = createGzip({ flush: constants.Z_SYNC_FLUSH });
    else this.stream = new PassThrough();
    inFlight?.enter(this.stream);
    // A shopper who leaves mid-page closes the response, which destroys this stream: the render's
    // late write is then dropped, not an unhandled error.
    this.stream.on('error', () => undefined);
  }

  /** What the reply sends. */
  get body(): Readable {
    return this.stream;
  }

  /** Writes `html` and sends it now (while busy, with the rest). */
  flush(html: string) {
    if (this.stream.destroyed) return;
    if (this.heldHead !== null) this.heldHead += html;
    else this.stream.write(html);
  }

  /**
   * Writes the rest (text, or chunks of text and UTF-8 bytes) and ends the page. The chunks go to
   * the compressor as one buffer: each write is a turn of zlib's thread pool and a wake-up of this
   * thread, several a page otherwise. A busy page in brotli is compressed now, in one piece.
   */
  end(html: string | readonly (string | Uint8Array)[]) {
    if (this.stream.destroyed) return;
    const head = this.heldHead ?? '';
    const chunks = typeof html === 'string' ? [head + html] : head === '' ? html : [head, ...html];
    const page = chunks.length === 1 && typeof chunks[0] === 'string' ? chunks[0] : bytesOf(chunks);
    if (!this.compressAtEnd) return void this.stream.end(page);
    const bytes = typeof page === 'string' ? Buffer.from(page) : page;
    const params = {
      ...pageBrotliParams,
      [constants.BROTLI_PARAM_QUALITY]: busyPageBrotliQuality,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    };
    this.stream.end(brotliCompressSync(bytes, { params }));
  }
}

/** Chunks of text and UTF-8 bytes as one buffer. */
function bytesOf(chunks: readonly (string | Uint8Array)[]): Buffer {
  return Buffer.concat(chunks.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk)));
}
