// How the platform's server process is started: `npm start`, `npm run serve` and the benches alike.

/**
 * Node's flags for the server. `--max-semi-space-size=32` (MB, V8's young generation): under load a page's
 * objects outlived two of the default young generation's scavenges (one every ~30 ms at ~270 uncached
 * pages/s here) and were moved to the old generation for the mark-compacts to collect. With 32 MB the
 * same load scavenged 210–251 times instead of 394–486, spending 0.9–1.1 s on it instead of 1.3–1.6 s,
 * and served 280–310 uncached search pages/s instead of 265–281 (alternated on this machine).
 */
export const serverNodeArgs = ['--enable-source-maps', '--max-semi-space-size=32'];

/**
 * The server's environment beyond the caller's. glibc's allocator keeps an arena per thread that drew
 * a photo; two bound what large renders leave behind (README, IMAGE_*).
 */
export const serverEnv = { MALLOC_ARENA_MAX: '2' };
