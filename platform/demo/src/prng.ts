/**
 * Seeded randomness for demo data. Math.random cannot be replayed, and e2e tests and
 * screenshots need the same stock on every run, so everything random in the seed goes
 * through one of these generators.
 */

export type Weighted<T> = readonly [value: T, weight: number];

export type Rng = {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max], both ends included. */
  int(min: number, max: number): number;
  /** Float in [min, max). */
  float(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  weighted<T>(entries: readonly Weighted<T>[]): T;
  /** A new shuffled copy; the input is left alone because catalogue arrays are shared. */
  shuffle<T>(items: readonly T[]): T[];
  /** `length` characters drawn from `alphabet`. */
  chars(length: number, alphabet: string): string;
  digits(length: number): string;
};

/**
 * FNV-1a, to turn a label such as a site slug into a seed. Seeding per site keeps one site's
 * stock unchanged when another site's plan is edited.
 */
export function seedFrom(label: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    hash ^= label.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32: tiny, fast, and good enough for data that only has to look plausible. */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));

  const pick = <T>(items: readonly T[]): T => {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(next() * items.length)] as T;
  };

  const weighted = <T>(entries: readonly Weighted<T>[]): T => {
    let total = 0;
    for (const [, weight] of entries) total += weight;
    if (!(total > 0)) throw new Error('weighted pick needs a positive total weight');
    let roll = next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    // Rounding can leave a sliver of roll; the last entry owns it.
    return (entries[entries.length - 1] as Weighted<T>)[0];
  };

  const shuffle = <T>(items: readonly T[]): T[] => {
    const copy = items.slice();
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy;
  };

  const chars = (length: number, alphabet: string): string => {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet.charAt(Math.floor(next() * alphabet.length));
    return out;
  };

  return {
    next,
    int,
    float: (min, max) => min + next() * (max - min),
    chance: (probability) => next() < probability,
    pick,
    weighted,
    shuffle,
    chars,
    digits: (length) => chars(length, '0123456789'),
  };
}
