/**
 * The build writes a browser file's compressed copies beside it (`<file>.br`, `<file>.gz`:
 * scripts/precompress.mjs) and @fastify/static sends the one the browser accepts (`preCompressed`),
 * or the file itself for @fastify/compress to compress when there is none. Its `setHeaders` is given
 * the path of what it sends: the file a browser asked for is that path without the encoding's suffix.
 */
export function sentFile(path: string) {
  return path.replace(/\.(?:br|gz)$/, '');
}
