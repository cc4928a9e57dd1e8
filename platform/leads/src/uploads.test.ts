import { describe, expect, it } from 'vitest';
import { assertOutsideStaticRoots, cleanFileName, sniffFileType } from './uploads';

const bytes = (...values: (number | string)[]) =>
  Buffer.concat(values.map((value) => (typeof value === 'string' ? Buffer.from(value, 'latin1') : Buffer.from([value]))));

describe('file sniffing by magic bytes', () => {
  it.each([
    ['JPEG', bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 'JFIF'), 'image/jpeg', 'jpg'],
    ['PNG', bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 'IHDR'), 'image/png', 'png'],
    ['WebP', bytes('RIFF', 0x24, 0, 0, 0, 'WEBPVP8 '), 'image/webp', 'webp'],
    ['HEIC', bytes(0, 0, 0, 0x18, 'ftypheic', 0, 0, 0, 0, 'mif1heic'), 'image/heic', 'heic'],
    ['HEIF (mif1)', bytes(0, 0, 0, 0x18, 'ftypmif1', 0, 0, 0, 0), 'image/heic', 'heic'],
    ['PDF', bytes('%PDF-1.7\n%âãÏÓ'), 'application/pdf', 'pdf'],
  ])('accepts %s', (_name, head, mime, ext) => {
    expect(sniffFileType(head)).toEqual({ ok: true, type: expect.objectContaining({ mime, ext }) });
  });

  it.each([
    ['SVG', bytes('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), 'svg'],
    [
      'SVG with an XML declaration and BOM',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes('  <?xml version="1.0"?>\n<!-- x -->\n<svg>')]),
      'svg',
    ],
    ['ELF', bytes(0x7f, 'ELF', 2, 1, 1), 'executable'],
    ['Windows PE', bytes('MZ', 0x90, 0), 'executable'],
    ['Mach-O', bytes(0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1), 'executable'],
    ['a shell script', bytes('#!/bin/sh\nrm -rf /'), 'executable'],
    ['HTML', bytes('<!doctype html><script>alert(1)</script>'), 'unknown'],
    ['AVIF (not HEIC)', bytes(0, 0, 0, 0x1c, 'ftypavif'), 'unknown'],
    ['an empty file', Buffer.alloc(0), 'empty'],
  ])('refuses %s', (_name, head, kind) => {
    expect(sniffFileType(head)).toMatchObject({ ok: false, kind });
  });

  it("keeps only a clean base name of the shopper's file for the dealer", () => {
    expect(cleanFileName('C:\\Users\\me\\My Car.jpg')).toBe('My Car.jpg');
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('a\u0000b\nc.png')).toBe('abc.png');
    expect(cleanFileName('')).toBe('file');
    expect(cleanFileName('x'.repeat(300))).toHaveLength(120);
  });

  it('refuses an uploads folder inside (or around) a static folder', () => {
    expect(() => assertOutsideStaticRoots('/srv/data/uploads', ['/srv/app/client', '/srv/app/remotes'])).not.toThrow();
    expect(() => assertOutsideStaticRoots('/srv/app/client/uploads', ['/srv/app/client'])).toThrow(/must not be inside/);
    expect(() => assertOutsideStaticRoots('/srv/app', ['/srv/app/client'])).toThrow(/must not be inside/);
  });
});
