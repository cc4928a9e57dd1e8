// The browser files a build writes (the shell's, the console's, each remote version's) compressed
// once at build time, beside each file as `<file>.br` and `<file>.gz`, for the platform to send as
// they are (@fastify/static `preCompressed`). Compressed on every request instead, a shopper's first
// visit cost the server ~20 ms of CPU for React DOM alone (brotli at @fastify/compress's quality 4),
// and the files were larger than brotli's best (quality 11) makes them. A folder built before this
// (a remote another tool published) has no such files: the platform compresses it as it is sent.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { existsSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What a browser downloads as text; pictures and fonts are compressed already. */
const textFile = /\.(?:js|mjs|css|json|html|svg|txt|md)$/;
/** Below this a response goes out as it is (@fastify/compress's threshold in app.ts). */
const precompressFromBytes = 1024;
const encodings = [
  [
    '.br',
    (bytes) =>
      brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
  ],
  ['.gz', (bytes) => gzipSync(bytes, { level: 9 })],
];

/**
 * Writes `.br` and `.gz` beside every text file of at least `precompressFromBytes` under `dir`
 * (folders named in `skip` left out), where they are missing or older than the file; removes those
 * whose file is gone, so a stale one is never sent for a file of the same name. Returns the number
 * of files (re)compressed.
 */
export function precompress(dir, { skip = [] } = {}) {
  if (!existsSync(dir)) return 0;
  let written = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skip.includes(entry.name)) written += precompress(path, { skip });
      continue;
    }
    const encoded = encodings.find(([suffix]) => entry.name.endsWith(suffix));
    if (encoded) {
      const source = path.slice(0, -encoded[0].length);
      if (!existsSync(source)) unlinkSync(path);
      continue;
    }
    if (!textFile.test(entry.name)) continue;
    const stat = statSync(path);
    if (stat.size < precompressFromBytes) continue;
    let bytes = null;
    for (const [suffix, compress] of encodings) {
      const target = path + suffix;
      if (existsSync(target) && statSync(target).mtimeMs >= stat.mtimeMs) continue;
      bytes ??= readFileSync(path);
      writeFileSync(target, compress(bytes));
      written++;
    }
  }
  return written;
}
