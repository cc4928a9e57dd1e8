import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteRequest, testRemoteVersion, type TestPlatform } from '../testing/test-platform';
import { closeAppPlatforms, platformOn } from '../testing/app-platform';

// A browser file the build compressed (scripts/precompress.mjs) goes out as those bytes, with the
// headers of the file itself; one without them (a remote another tool published) is compressed as
// it is sent, as before.

afterAll(closeAppPlatforms);

const script = `/* the shell's script */\n${'export const car = "a 2026 Mazda CX-30 in blue";\n'.repeat(60)}`;

describe('browser files compressed at build time', () => {
  let platform: TestPlatform;
  let brotli: Buffer;
  let gzip: Buffer;
  beforeAll(async () => {
    platform = await platformOn('sqlite');
    const shell = platform.ctx.config.shellClientDir;
    brotli = brotliCompressSync(script);
    gzip = gzipSync(script, { level: 9 });
    await writeFile(join(shell, 'app.0123456789.js'), script);
    await writeFile(join(shell, 'app.0123456789.js.br'), brotli);
    await writeFile(join(shell, 'app.0123456789.js.gz'), gzip);
    const assets = JSON.stringify({ js: ['main.test.js'], css: [], note: 'x'.repeat(2000) });
    await writeFile(join(shell, 'assets.json'), assets);
    await writeFile(join(shell, 'assets.json.br'), brotliCompressSync(assets));
    const remote = join(platform.ctx.config.remotesDir, 'mf-search', testRemoteVersion);
    await writeFile(join(remote, 'mf-manifest.json.br'), brotliCompressSync(JSON.stringify({ name: 'mf-search' })));
    await writeFile(join(remote, 'search-page.js'), script);
  });

  const get = (url: string, acceptEncoding?: string) =>
    siteRequest(platform.app, 'metro-motor-group', 'GET', url, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

  it('sends the brotli file to a browser that takes brotli, as a script cached for a year', async () => {
    const response = await get('/assets/app.0123456789.js', 'gzip, deflate, br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(response.headers.vary)).toMatch(/accept-encoding/i);
    expect(response.rawPayload.equals(brotli), 'the bytes the build wrote, not compressed again').toBe(true);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(script);
  });

  it('sends the gzip file to a browser that takes only gzip, and the file itself to one that takes neither', async () => {
    const gzipped = await get('/assets/app.0123456789.js', 'gzip');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.rawPayload.equals(gzip)).toBe(true);
    const plain = await get('/assets/app.0123456789.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('keeps the list of the shell’s files uncached when it goes out compressed', async () => {
    const response = await get('/assets/assets.json', 'br');
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('keeps a remote’s manifest short-lived when it goes out compressed', async () => {
    const response = await get(`/remotes/mf-search/${testRemoteVersion}/mf-manifest.json`, 'br');
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toBe('public, max-age=60');
    expect(response.headers['access-control-allow-origin']).toBe('*');
  });

  it('still compresses a remote’s file that has no compressed copy', async () => {
    const response = await get(`/remotes/mf-search/${testRemoteVersion}/search-page.js`, 'br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(script);
  });
});
