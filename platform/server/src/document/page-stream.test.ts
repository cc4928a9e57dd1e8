import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PageStream, PagesInFlight } from './page-stream';

async function sent(page: PageStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of page.body) chunks.push(chunk as Buffer);
  return brotliDecompressSync(Buffer.concat(chunks)).toString('utf8');
}

describe('a page streamed to the browser', () => {
  it('arrives whole: its head, then its markup given as text and UTF-8 bytes', async () => {
    const page = new PageStream('br');
    page.flush('<!doctype html><head><title>Cars</title></head>');
    page.end(['<div id="root">', new TextEncoder().encode('<p>♡ Save</p>'), '</div>']);
    expect(await sent(page)).toBe('<!doctype html><head><title>Cars</title></head><div id="root"><p>♡ Save</p></div>');
  });

  it('is compressed with less effort while the server is making as many pages as it calls busy, and with full effort again once they are sent', async () => {
    const inFlight = new PagesInFlight(2);
    const first = new PageStream('br', inFlight);
    const second = new PageStream('br', inFlight);
    expect([first.quality, second.quality]).toEqual([6, 6]);
    expect(inFlight.count).toBe(2);

    const third = new PageStream('br', inFlight);
    expect(third.quality).toBeLessThan(6);
    third.end('<p>Sent while busy</p>');
    expect(await sent(third)).toBe('<p>Sent while busy</p>');

    first.end('<p>One</p>');
    second.end('<p>Two</p>');
    await Promise.all([sent(first), sent(second)]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(inFlight.count).toBe(0);
    expect(new PageStream('br', inFlight).quality).toBe(6);
  });

  it('stops counting a page whose shopper left before it was made', async () => {
    const inFlight = new PagesInFlight(1);
    const left = new PageStream('br', inFlight);
    expect(inFlight.busy).toBe(true);
    left.body.destroy();
    await new Promise((resolve) => setImmediate(resolve));
    expect(inFlight.count).toBe(0);
    left.end('<p>Too late</p>');
  });

  it('sends its head at once, or, made while the server is busy, with the rest in one piece', async () => {
    const inFlight = new PagesInFlight(1);
    const first = new PageStream('br', inFlight);
    const firstBytes = new Promise((resolve) => first.body.once('data', resolve));
    first.flush('<!doctype html><head><title>One</title></head>');
    await firstBytes;

    const busy = new PageStream('br', inFlight);
    busy.flush('<!doctype html><head><title>Two</title></head>');
    // Nothing sent yet: the head waits for the rest.
    expect([busy.body.readableLength, busy.body.readableEnded]).toEqual([0, false]);
    busy.end(['<main>', new TextEncoder().encode('<p>♡ Save</p>'), '</main>']);
    // One piece: the whole page compressed at once, not a compressor's chunks.
    const pieces: Buffer[] = [];
    for await (const piece of busy.body) pieces.push(piece as Buffer);
    expect(pieces).toHaveLength(1);
    expect(brotliDecompressSync(pieces[0]!).toString('utf8')).toBe(
      '<!doctype html><head><title>Two</title></head><main><p>♡ Save</p></main>',
    );
    first.end('<main>One</main>');
  });
});
