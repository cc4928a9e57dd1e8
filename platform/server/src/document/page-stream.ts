import { PassThrough, type Readable } from 'node:stream';
import { createBrotliCompress, createGzip, type BrotliCompress, type Gzip } from 'node:zlib';
import { pageBrotliParams, type PageEncoding } from './page-cache';

/**
 * A page sent as it is made: its head at once, its body when the server render is done. Compressed
 * here (the compression plugin leaves an encoded body alone) so the head can be flushed out of the
 * compressor instead of waiting in its buffer for the rest.
 */
export class PageStream {
  private readonly stream: PassThrough | Gzip | BrotliCompress;

  constructor(readonly encoding: PageEncoding | null) {
    if (encoding === 'br') this.stream = createBrotliCompress({ params: pageBrotliParams });
    else if (encoding === 'gzip') this.stream = createGzip();
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
    if (!(this.stream instanceof PassThrough)) this.stream.flush();
  }

  /** Writes the rest (text, or chunks of text and UTF-8 bytes) and ends the page. */
  end(html: string | readonly (string | Uint8Array)[]) {
    if (this.stream.destroyed) return;
    if (typeof html === 'string') return void this.stream.end(html);
    for (const chunk of html) this.stream.write(chunk);
    this.stream.end();
  }
}
