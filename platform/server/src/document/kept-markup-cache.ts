// The parts of pages the server renders once and repeats (result cards, the header, the footer;
// @dealer/ui/kept-markup): kept per scope, the site's config digest and its remotes' versions, so
// a changed config, a promoted remote or a car's new price is a new key and never an old part.
// Bounded by the bytes it holds, least recently used first out: a crawler walking every filter of
// every site costs at most this much memory.

type Entry = { html: string; notes: readonly string[] };

/** One scope's part of the cache, as the shell's render takes it (@dealer/ui/kept-markup KeptMarkupCache). */
export type KeptMarkupScope = { get(key: string): Entry | undefined; set(key: string, entry: Entry): void };

/** About what one entry costs beyond its markup (the key, the map's slot, the notes). */
const entryOverhead = 200;

export class KeptMarkupCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The cache of one scope (`site id`, config digest, remote versions), as the shell's render takes it. */
  scope(scope: string): KeptMarkupScope {
    return {
      get: (key: string) => this.get(`${scope}\n${key}`),
      set: (key: string, entry: Entry) => this.set(`${scope}\n${key}`, entry),
    };
  }

  get size() {
    return this.entries.size;
  }

  get heldBytes() {
    return this.bytes;
  }

  private get(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Used again: to the back of the line.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  private set(key: string, entry: Entry) {
    const cost = costOf(key, entry);
    if (cost > this.maxBytes / 8) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= costOf(key, old);
    }
    this.entries.set(key, entry);
    this.bytes += cost;
    for (const [oldest, held] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= costOf(oldest, held);
    }
  }
}

// Strings of JavaScript are two bytes a character at most.
const costOf = (key: string, entry: Entry) => (key.length + entry.html.length) * 2 + entryOverhead;
