import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompress } from './precompress.mjs';

const script = `export const cars = [${'"a 2026 Mazda CX-30", '.repeat(200)}];\n`;
let dir;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function folder(files) {
  dir = mkdtempSync(join(tmpdir(), 'precompress-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe('browser files compressed at build time', () => {
  it('writes brotli and gzip copies of each text file that decompress to the file', () => {
    folder({ 'main.0123.js': script, 'main.0123.css': `.card{color:red}\n`.repeat(100), 'mf-manifest.json': JSON.stringify({ script }) });
    expect(precompress(dir)).toBe(6);
    for (const name of ['main.0123.js', 'main.0123.css', 'mf-manifest.json']) {
      const file = readFileSync(join(dir, name));
      expect(brotliDecompressSync(readFileSync(join(dir, `${name}.br`))).equals(file), name).toBe(true);
      expect(gunzipSync(readFileSync(join(dir, `${name}.gz`))).equals(file), name).toBe(true);
      expect(statSync(join(dir, `${name}.br`)).size).toBeLessThan(file.length / 4);
    }
  });

  it('leaves small files, pictures and the folders it is told to skip as they are', () => {
    folder({ 'tiny.js': 'export {};', 'photo.png': script, 'server/remote.cjs.js': script });
    expect(precompress(dir, { skip: ['server'] })).toBe(0);
    expect(existsSync(join(dir, 'tiny.js.br'))).toBe(false);
    expect(existsSync(join(dir, 'photo.png.br'))).toBe(false);
    expect(existsSync(join(dir, 'server', 'remote.cjs.js.br'))).toBe(false);
  });

  it('compresses again only a file written after its copies, and drops copies whose file is gone', () => {
    folder({ 'assets.json': JSON.stringify({ js: [script] }), 'old.js': script });
    precompress(dir);
    expect(precompress(dir), 'nothing changed').toBe(0);
    const changed = JSON.stringify({ js: [script, 'new.js'] });
    writeFileSync(join(dir, 'assets.json'), changed);
    const later = new Date(Date.now() + 5000);
    utimesSync(join(dir, 'assets.json'), later, later);
    rmSync(join(dir, 'old.js'));
    expect(precompress(dir)).toBe(2);
    expect(brotliDecompressSync(readFileSync(join(dir, 'assets.json.br'))).toString()).toBe(changed);
    expect(existsSync(join(dir, 'old.js.br'))).toBe(false);
    expect(existsSync(join(dir, 'old.js.gz'))).toBe(false);
  });
});
