import { PassThrough, type Readable } from 'node:stream';
import { constants, createBrotliCompress, createGzip, type BrotliCompress, type Gzip } from 'node:zlib';
import { pageBrotliParams, type PageEncoding } from './page-cache';

/**
 * A page sent as it is made: its head at once, its body when the server render is done. Compressed
 * here (the compression plugin leaves an encoded body alone) so the head can be flushed out of the
 * compressor instead of waiting in its buffer for the rest.
 */
export class PageStream {
  private readonly stream: PassThrough | Gzip | BrotliCompress;

  constructor(readonly encoding: PageEncoding | null) {
    // Every write is sent at once (the head, then the rest): flushed by the write itself, not by a
    // second turn of zlib's thread pool.
    if (encoding === 'br') this.stream = createBrotliCompress({ params: pageBrotliParams, flush: constants.BROTLI_OPERATION_FLUSH });
    else if (encoding === 'gzip') this.stream = createGzip({ flush: constants.Z_SYNC_FLUSH });
    else this.stream = new PassThrough();
    // A shopper who leaves mid-page closes the response, which destroys this stream: the render's
    // late write is then dropped, not an unhandled error.
    this.stream.on('error', () => undefined);
  }

  /** What the reply sends. */
  get body(): Readable {
    return this.stream;
  }

  /** Writes `html` and sends it now. */
  flush(html: string) {
    if (this.stream.destroyed) return;
    this.stream.write(html);
  }

  /**
   * Writes the rest (text, or chunks of text and UTF-8 bytes) and ends the page. The chunks go to
   * the compressor as one buffer: each write is a turn of zlib's thread pool and a wake-up of this
   * thread, several a page otherwise.
   */
  end(html: string | readonly (string | Uint8Array)[]) {
    if (this.stream.destroyed) return;
    if (typeof html === 'string') return void this.stream.end(html);
    this.stream.end(Buffer.concat(html.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk))));
  }
}
