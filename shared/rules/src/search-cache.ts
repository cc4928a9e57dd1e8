/**
 * SPEC §4 search result cache: keyed by query; when full, the oldest entry is evicted.
 * Reading an entry does not refresh its age: "oldest" means first stored.
 */
export class SearchResultCache<T> {
  private entries = new Map<string, T>();

  constructor(readonly capacity: number) {
    if (capacity < 1) throw new Error('A search cache needs room for at least one result');
  }

  get size() {
    return this.entries.size;
  }

  get(key: string): T | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: T) {
    if (this.entries.has(key)) this.entries.delete(key);
    else if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
  }
}
