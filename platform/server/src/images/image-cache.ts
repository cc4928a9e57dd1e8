import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';

type Log = Pick<FastifyBaseLogger, 'warn'>;

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

async function writeAtomic(file: string, bytes: Buffer): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, bytes);
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/**
 * Rendered photos on disk under `dir`, at most `maxBytes` in all: past that the least recently
 * used files are deleted. Sizes are kept in memory in use order; at start they are read back from
 * the folder, oldest written first. Files are written atomically (temp file + rename), so a reader
 * never sees half a picture. Keys are relative paths with `/`.
 */
export class ImageCache {
  /** Key → bytes on disk, least recently used first. */
  private readonly sizes = new Map<string, number>();
  private total = 0;

  constructor(
    readonly dir: string,
    readonly maxBytes: number,
    private readonly log: Log,
  ) {}

  /** Bytes the cache holds on disk. */
  get bytes(): number {
    return this.total;
  }

  /** The cached bytes, or null when there are none (or they cannot be read). */
  async read(key: string): Promise<Buffer | null> {
    try {
      const bytes = await readFile(join(this.dir, key));
      this.remember(key, bytes.length);
      return bytes;
    } catch (error) {
      if (!isMissing(error)) this.log.warn({ err: error, key }, 'image cache read failed');
      this.forget(key);
      return null;
    }
  }

  /** Keeps the bytes, then deletes the least recently used files beyond the cap. A failed write is logged, not thrown: the picture is served all the same. */
  async write(key: string, bytes: Buffer): Promise<void> {
    try {
      await writeAtomic(join(this.dir, key), bytes);
    } catch (error) {
      this.log.warn({ err: error, key }, 'image cache write failed');
      return;
    }
    this.remember(key, bytes.length);
    await this.evict();
  }

  /** Counts what an earlier run left in the folder, oldest first, and trims it to the cap. */
  async load(): Promise<void> {
    let entries;
    try {
      entries = await readdir(this.dir, { recursive: true, withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    const files: { key: string; size: number; written: number }[] = [];
    for (const entry of entries) {
      // Temp files belong to a write in progress (or one that died with its process).
      if (!entry.isFile() || entry.name.endsWith('.tmp')) continue;
      const path = join(entry.parentPath, entry.name);
      const info = await stat(path).catch(() => null);
      if (info) files.push({ key: relative(this.dir, path).split(sep).join('/'), size: info.size, written: info.mtimeMs });
    }
    files.sort((a, b) => a.written - b.written);
    for (const file of files) this.remember(file.key, file.size);
    await this.evict();
  }

  private remember(key: string, size: number) {
    this.forget(key);
    this.sizes.set(key, size);
    this.total += size;
  }

  private forget(key: string) {
    const size = this.sizes.get(key);
    if (size === undefined) return;
    this.sizes.delete(key);
    this.total -= size;
  }

  private async evict() {
    const victims: string[] = [];
    for (const [key, size] of this.sizes) {
      if (this.total <= this.maxBytes) break;
      victims.push(key);
      this.sizes.delete(key);
      this.total -= size;
    }
    await Promise.all(
      victims.map((key) =>
        unlink(join(this.dir, key)).catch((error: unknown) => {
          if (!isMissing(error)) this.log.warn({ err: error, key }, 'image cache eviction failed');
        }),
      ),
    );
  }
}

/** The cache over `dir` with what an earlier run left there counted (and trimmed to `maxBytes`). */
export async function openImageCache(dir: string, maxBytes: number, log: Log): Promise<ImageCache> {
  const cache = new ImageCache(dir, maxBytes, log);
  await cache.load();
  return cache;
}
