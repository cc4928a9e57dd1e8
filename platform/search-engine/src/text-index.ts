import { intersect, ListArena, PostingTable, sizeOf, union, type DocSet } from './bitset';
import { valueAt } from './filter-evaluator';
import type { MatchingStrategy } from './search-index';

/*
 * Full-text search over the searchable attributes, in Meilisearch's manner: words are runs of
 * letters and digits, compared without case or accents; the matching strategy says which query
 * words may be missing (`last`: from the end, `frequency`: the commonest first, `all`: none); the
 * last one may be the start of a longer word; words of 5+ characters allow one typo, 9+ two (none
 * in a word with a digit, such as a stock number); a quoted "phrase" matches exactly and always.
 */

// ---------------------------------------------------------------------------------------------
// Words

const asciiWordChar = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) asciiWordChar[c] = 1;
}
const unicodeWordChar = /[\p{L}\p{N}\p{M}]/u;
const isWordChar = (text: string, i: number) => {
  const c = text.charCodeAt(i);
  return c < 128 ? asciiWordChar[c] === 1 : unicodeWordChar.test(text[i]!);
};

/** A word as the index keeps it: lower case, accents removed. */
export function normaliseWord(word: string): string {
  for (let i = 0; i < word.length; i++) {
    if (word.charCodeAt(i) >= 128) return word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  }
  return word.toLowerCase();
}

export type Token = { term: string; start: number; end: number };

/**
 * Walks the words of a text, normalised, with where each sits in it; one loop for indexing,
 * highlighting and reading queries. A visit answering false stops the walk.
 */
function scanWords(text: string, visit: (term: string, start: number, end: number) => boolean | void) {
  let i = 0;
  while (i < text.length) {
    if (!isWordChar(text, i)) {
      i++;
      continue;
    }
    const start = i;
    while (i < text.length && isWordChar(text, i)) i++;
    const term = normaliseWord(text.slice(start, i));
    if (term && visit(term, start, i) === false) return;
  }
}

/** The words of a text with where each sits in it (for highlighting). */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  scanWords(text, (term, start, end) => {
    tokens.push({ term, start, end });
  });
  return tokens;
}

const hasDigit = (term: string) => /\d/.test(term);

// ---------------------------------------------------------------------------------------------
// Query

export type QueryWord = {
  text: string;
  /** The last word, unless the query ends with a space: also matches longer words it starts. */
  prefix: boolean;
  /** From a quoted phrase: that exact word, no typo, no prefix. */
  quoted: boolean;
  /** Words of one quoted phrase share a number and must stand side by side; -1 outside quotes. */
  phrase: number;
  /** At most this many typos (two query words joined allow one). */
  typoCap?: number;
  /** Longer than any word Meilisearch keeps: it matches nothing, in no form. */
  tooLong?: boolean;
};

/** Meilisearch reads at most 10 query terms (a quoted phrase is one). */
export const maxQueryWords = 10;
/**
 * Meilisearch reads no more than a query's first 1,000 tokens, its words and the separators
 * between them: some 500 words, which only a long quoted phrase reaches.
 */
const maxQueryWordsRead = 500;
/** Meilisearch's longest word (`MAX_WORD_LENGTH`, in UTF-8 bytes): it never indexes a longer one, nor looks one up. */
const maxWordBytes = 250;

/** Whether a word is longer than Meilisearch's longest (UTF-8 never takes fewer bytes than UTF-16 units, so long text is not measured). */
const isTooLongWord = (text: string) => text.length > maxWordBytes || Buffer.byteLength(text) > maxWordBytes;

/**
 * The query's words, as Meilisearch reads them: plain words, and quoted phrases (a phrase
 * without its closing quote is plain words). Reading stops at the first term past the tenth (or
 * past the 500th word): the rest of a long query is never looked at.
 */
export function parseQuery(q: string | null | undefined): QueryWord[] {
  const text = q ?? '';
  const words: QueryWord[] = [];
  let terms = 0;
  let phrase = 0;
  let i = 0;
  const more = () => terms <= maxQueryWords && words.length < maxQueryWordsRead;
  const push = (term: string, quoted: boolean) => {
    words.push({ text: term, prefix: false, quoted, phrase: quoted ? phrase : -1, ...(isTooLongWord(term) ? { tooLong: true } : {}) });
    return more();
  };
  while (i < text.length && more()) {
    const open = text.indexOf('"', i);
    const close = open < 0 ? -1 : text.indexOf('"', open + 1);
    const plainEnd = open < 0 || close < 0 ? text.length : open;
    scanWords(text.slice(i, plainEnd), (term) => {
      terms++;
      return push(term, false);
    });
    if (plainEnd === text.length || !more()) break;
    let opened = false;
    scanWords(text.slice(open + 1, close), (term) => {
      if (!opened) terms++;
      opened = true;
      return push(term, true);
    });
    phrase++;
    i = close + 1;
  }
  const last = words[words.length - 1];
  if (last && !last.quoted && isWordChar(text, text.length - 1)) last.prefix = true;
  let counted = 0;
  const kept = words.findIndex((word, w) => {
    if (word.phrase < 0 || w === 0 || words[w - 1]!.phrase !== word.phrase) counted++;
    return counted > maxQueryWords;
  });
  return kept < 0 ? words : words.slice(0, kept);
}

export function typoBudget(word: QueryWord): number {
  if (word.quoted || word.tooLong || hasDigit(word.text)) return 0;
  const length = [...word.text].length;
  return Math.min(length >= 9 ? 2 : length >= 5 ? 1 : 0, word.typoCap ?? 2);
}

/**
 * Optimal-string-alignment distance (a swap of neighbours is one typo), or max + 1 once it
 * exceeds max. With `prefix`, the distance to the closest start of `term`.
 */
export function typoDistance(word: string, term: string, max: number, prefix: boolean): number {
  const n = word.length;
  const m = prefix ? Math.min(term.length, n + max) : term.length;
  if (!prefix && Math.abs(n - m) > max) return max + 1;
  if (prefix && term.length < n - max) return max + 1;
  let before = new Int32Array(m + 1);
  let previous = new Int32Array(m + 1);
  let current = new Int32Array(m + 1);
  for (let j = 0; j <= m; j++) previous[j] = j;
  for (let i = 1; i <= n; i++) {
    current[0] = i;
    let rowMin = i;
    const wc = word.charCodeAt(i - 1);
    for (let j = 1; j <= m; j++) {
      const tc = term.charCodeAt(j - 1);
      let cost = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (wc === tc ? 0 : 1));
      if (i > 1 && j > 1 && wc === term.charCodeAt(j - 2) && word.charCodeAt(i - 2) === tc) cost = Math.min(cost, before[j - 2]! + 1);
      current[j] = cost;
      if (cost < rowMin) rowMin = cost;
    }
    if (rowMin > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  if (!prefix) return Math.min(previous[m]!, max + 1);
  let best = max + 1;
  for (let j = Math.max(0, n - max); j <= m; j++) best = Math.min(best, previous[j]!);
  return best;
}

/** How a word of the index matches one query word. */
export type Match = { typos: number; exact: boolean };
const infoOf = (typos: number, exact: boolean) => typos | (exact ? 4 : 0);

export type Derivation = { readonly terms: Int32Array; readonly info: Uint8Array };
const noDerivation: Derivation = { terms: new Int32Array(0), info: new Uint8Array(0) };

// ---------------------------------------------------------------------------------------------
// Index

const maxOccurrences = 16;
const arrayGap = 8;
/** Attribute numbers must fit 14 bits: places are packed with a flag into one int32. */
const maxAttributes = 0x3fff;

/**
 * Ranking of one matching document, best (lowest) first on each but exactness: Meilisearch's
 * words (how many groups of query words the matching strategy dropped), typo, proximity,
 * attribute, exactness.
 */
export type TextRank = { dropped: number; typos: number; proximity: number; attribute: number; position: number; exactness: number };

export type MatcherOptions = {
  strategy: MatchingStrategy;
  /** Only these attribute numbers are searched (`attributesToSearchOn`); null: every searchable one. */
  fields: Uint8Array | null;
};

/** One ranking rule's verdict on a document, as Meilisearch scores it: `rank` out of `max`, `max` best. */
export type Rank = { rank: number; max: number };

/** Meilisearch's ranking rules for one document, for `_rankingScore` and its details. */
export type TextScore = {
  words: Rank;
  typo: Rank & { typos: number; maxTypos: number };
  proximity: Rank;
  attribute: Rank;
  position: Rank;
  /** 3: an attribute is exactly the query, 2: one starts with it, 1: neither. */
  exactAttribute: 1 | 2 | 3;
  exactWords: { exact: number; words: number };
};

export class TextIndex {
  private terms: string[] = [];
  private readonly termIds = new Map<string, number>();
  private readonly postings: PostingTable;
  /** Term ids without digits by length: the ones a typo may reach. */
  private byLength: number[][] = [];
  /** Term ids in term order (for prefixes), and recent ones not merged in yet. */
  private sorted: number[] = [];
  private pending: number[] = [];
  private freeTerms: number[] = [];
  private deaths = 0;
  /** Per document: pairs (term id, attribute << 16 | position). */
  private readonly tokens = new ListArena();
  /** Bumped whenever a term id appears or is reused: derivations cached before are stale. */
  private version = 0;
  private readonly derivations = new Map<string, { version: number; derivation: Derivation }>();
  /** The queries of one multi-search share their q: one matcher serves them all. */
  private lastMatcher: { key: string; version: number; changes: number; matcher: TextMatcher } | null = null;
  /** Bumped on every document added or removed: a matcher's splits and word frequencies are of the documents it saw. */
  private changes = 0;
  private stamp = 0;
  private memoStamps = new Int32Array(0);
  private memoHeads = new Int32Array(0);
  /** Per term id: 1 if the word has a digit (no typo reaches it). */
  private digitTerms = new Uint8Array(1024);
  private readonly wildcard: boolean;
  /** With every attribute searchable: attribute numbers in the order attributes first appear, as Meilisearch's field ids. */
  private readonly wildcardFields = new Map<string, number>();

  constructor(
    readonly attributes: readonly string[],
    private readonly universe: { words: number },
  ) {
    this.postings = new PostingTable(universe);
    this.wildcard = attributes.includes('*');
  }

  /** The number an attribute's words carry, or undefined if it is not searched. */
  fieldNumber(attribute: string): number | undefined {
    if (this.wildcard) return this.wildcardFields.get(attribute);
    const at = this.attributes.indexOf(attribute);
    return at < 0 ? undefined : at;
  }

  /** How many attribute numbers are in use (the attribute rule's range). */
  get fieldCount(): number {
    return this.wildcard ? this.wildcardFields.size : this.attributes.length;
  }

  private wildcardField(attribute: string): number {
    let field = this.wildcardFields.get(attribute);
    if (field === undefined) {
      field = this.wildcardFields.size;
      this.wildcardFields.set(attribute, field);
    }
    return field;
  }

  ensureDocs(capacity: number) {
    this.tokens.ensureDocs(capacity);
  }

  get termCount(): number {
    return this.termIds.size;
  }

  private termId(term: string): number {
    const known = this.termIds.get(term);
    if (known !== undefined) return known;
    const id = this.freeTerms.pop() ?? this.terms.length;
    this.terms[id] = term;
    this.termIds.set(term, id);
    if (id >= this.digitTerms.length) {
      const grown = new Uint8Array(Math.max(id + 1, this.digitTerms.length * 2));
      grown.set(this.digitTerms);
      this.digitTerms = grown;
    }
    const digit = hasDigit(term);
    this.digitTerms[id] = digit ? 1 : 0;
    if (!digit) (this.byLength[term.length] ??= []).push(id);
    this.pending.push(id);
    this.version++;
    return id;
  }

  add(doc: number, source: Record<string, unknown>) {
    const packed: number[] = [];
    const wildcard = this.wildcard;
    const fields = wildcard ? Object.keys(source) : this.attributes;
    for (let k = 0; k < fields.length; k++) {
      const a = wildcard ? this.wildcardField(fields[k]!) : k;
      if (a >= maxAttributes) continue;
      let position = 0;
      const walk = (value: unknown) => {
        if (typeof value === 'string' || typeof value === 'number') {
          scanWords(String(value), (term) => {
            packed.push(this.termId(term), (a << 16) | Math.min(position++, 0xffff));
          });
        } else if (Array.isArray(value)) {
          for (const item of value) {
            walk(item);
            position += arrayGap;
          }
        } else if (value !== null && typeof value === 'object') {
          for (const item of Object.values(value)) {
            walk(item);
            position += arrayGap;
          }
        }
      };
      walk(wildcard ? source[fields[k]!] : valueAt(source, fields[k]!));
    }
    const seen = new Set<number>();
    for (let k = 0; k < packed.length; k += 2) {
      const term = packed[k]!;
      if (seen.has(term)) continue;
      seen.add(term);
      this.postings.add(term, doc);
    }
    this.tokens.set(doc, packed);
    this.changes++;
  }

  remove(doc: number) {
    if (doc >= this.tokens.lengths.length) return;
    const start = this.tokens.offsets[doc]!;
    const end = start + this.tokens.lengths[doc]!;
    const data = this.tokens.data;
    const seen = new Set<number>();
    for (let k = start; k < end; k += 2) {
      const term = data[k]!;
      if (seen.has(term)) continue;
      seen.add(term);
      this.postings.delete(term, doc);
      if (this.postings.count(term) === 0) this.deaths++;
    }
    this.tokens.clear(doc);
    this.changes++;
    if (this.deaths > 4096 && this.deaths * 4 > this.termIds.size) this.dropDeadTerms();
  }

  /** Forget words no document holds any more, so their ids can be reused. */
  private dropDeadTerms() {
    const dead = (id: number) => this.postings.count(id) === 0;
    for (const [term, id] of this.termIds) {
      if (!dead(id)) continue;
      this.termIds.delete(term);
      this.postings.reset(id);
      this.freeTerms.push(id);
    }
    const alive = (id: number) => this.termIds.get(this.terms[id]!) === id;
    this.byLength = this.byLength.map((ids) => ids?.filter(alive));
    this.sorted = this.sorted.filter(alive);
    this.pending = this.pending.filter(alive);
    this.deaths = 0;
    this.version++;
  }

  private sortedTerms(): number[] {
    if (this.pending.length > 256) {
      const terms = this.terms;
      const byTerm = (a: number, b: number) => (terms[a]! < terms[b]! ? -1 : terms[a]! > terms[b]! ? 1 : 0);
      const incoming = this.pending.sort(byTerm);
      const merged: number[] = new Array(this.sorted.length + incoming.length);
      let i = 0;
      let j = 0;
      let k = 0;
      while (i < this.sorted.length && j < incoming.length) merged[k++] = byTerm(this.sorted[i]!, incoming[j]!) <= 0 ? this.sorted[i++]! : incoming[j++]!;
      while (i < this.sorted.length) merged[k++] = this.sorted[i++]!;
      while (j < incoming.length) merged[k++] = incoming[j++]!;
      this.sorted = merged;
      this.pending = [];
    }
    return this.sorted;
  }

  /** The index's words one query word matches, each with its typos and whether it is the word itself. */
  derive(word: QueryWord): Derivation {
    if (word.tooLong) return noDerivation;
    const key = `${word.quoted ? 'q' : word.prefix ? 'p' : 'w'}${word.typoCap ?? ''}:${word.text}`;
    const cached = this.derivations.get(key);
    if (cached && cached.version === this.version) return cached.derivation;
    const found = new Map<number, number>();
    // Words no document holds any more stay in: a later document may bring them back, and the
    // cache only notices new words.
    const offer = (id: number, typos: number, exact: boolean) => {
      const info = infoOf(typos, exact);
      const before = found.get(id);
      if (before === undefined || typos < (before & 3) || (typos === (before & 3) && exact && !(before & 4))) found.set(id, info);
    };
    const text = word.text;
    const exactId = this.termIds.get(text);
    if (exactId !== undefined) offer(exactId, 0, true);
    if (word.prefix) {
      const sorted = this.sortedTerms();
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.terms[sorted[mid]!]! < text) lo = mid + 1;
        else hi = mid;
      }
      for (let k = lo; k < sorted.length && this.terms[sorted[k]!]!.startsWith(text); k++) offer(sorted[k]!, 0, false);
      for (const id of this.pending) if (this.terms[id]!.startsWith(text)) offer(id, 0, false);
    }
    const budget = typoBudget(word);
    if (budget > 0) {
      const low = Math.max(1, text.length - budget);
      const high = word.prefix ? this.byLength.length - 1 : text.length + budget;
      for (let length = low; length <= high && length < this.byLength.length; length++) {
        for (const id of this.byLength[length] ?? []) {
          if (found.has(id) && (found.get(id)! & 3) === 0) continue;
          const typos = typoDistance(text, this.terms[id]!, budget, word.prefix);
          if (typos <= budget) offer(id, typos, false);
        }
      }
    }
    const terms = Int32Array.from(found.keys());
    const info = Uint8Array.from(found.values());
    const derivation = { terms, info };
    if (this.derivations.size > 2000) this.derivations.clear();
    this.derivations.set(key, { version: this.version, derivation });
    return derivation;
  }

  termText(id: number): string {
    return this.terms[id]!;
  }

  /**
   * A per-query matcher: tells whether a document holds the query words its matching strategy
   * requires and how well, reading the document's words once. Besides its own forms, a query word
   * is found as two words side by side ("cx5" in "CX-5") and two query words as one ("land
   * cruiser" in "LandCruiser"), as Meilisearch's split words and n-grams do.
   */
  matcher(words: QueryWord[], options: MatcherOptions = { strategy: 'last', fields: null }): TextMatcher {
    const key = `${options.strategy}|${options.fields?.join(',') ?? '*'}|${JSON.stringify(words)}`;
    const last = this.lastMatcher;
    if (last?.key === key && last.version === this.version && last.changes === this.changes) return last.matcher;
    const slots: MatchSlot[] = words.map((word) => ({ word, budget: typoBudget(word) }));
    const covers: Cover[] = [];
    words.forEach((word, w) => {
      if (word.quoted || word.tooLong) return;
      const split = this.bestSplit(word.text);
      if (split) {
        const exact = (text: string): QueryWord => ({ text, prefix: false, quoted: true, phrase: -1 });
        slots.push({ word: exact(split[0]), budget: 0 }, { word: exact(split[1]), budget: 0 });
        covers.push({ kind: 'split', slot: slots.length - 2, right: slots.length - 1, words: [w] });
      }
      const next = words[w + 1];
      if (next && !next.quoted && !isTooLongWord(word.text + next.text)) {
        const joined: QueryWord = { text: word.text + next.text, prefix: next.prefix, quoted: false, phrase: -1, typoCap: 1 };
        slots.push({ word: joined, budget: typoBudget(joined) });
        covers.push({ kind: 'joined', slot: slots.length - 1, right: -1, words: [w, w + 1] });
      }
    });
    const matcher = new TextMatcher(this, words, slots, covers, options, ++this.stamp);
    this.lastMatcher = { key, version: this.version, changes: this.changes, matcher };
    return matcher;
  }

  /**
   * Per term id, how the current matcher matches it (a stamp says which matcher filled the entry).
   * Shared by all matchers so none allocates a table as large as the dictionary.
   */
  memo(term: number): { stamps: Int32Array; heads: Int32Array } {
    if (term >= this.memoStamps.length) {
      const size = Math.max(1024, Math.ceil(this.terms.length * 1.5), term + 1);
      const stamps = new Int32Array(size);
      stamps.set(this.memoStamps);
      const heads = new Int32Array(size);
      heads.set(this.memoHeads);
      this.memoStamps = stamps;
      this.memoHeads = heads;
    }
    return { stamps: this.memoStamps, heads: this.memoHeads };
  }

  termHasDigit(term: number): boolean {
    return this.digitTerms[term] === 1;
  }

  /** Where a query word splits into two words of the index, the split whose rarer half is commonest. */
  private bestSplit(text: string): [string, string] | null {
    let best: [string, string] | null = null;
    let bestCount = 0;
    for (let k = 1; k < text.length; k++) {
      const left = this.termIds.get(text.slice(0, k));
      const right = this.termIds.get(text.slice(k));
      if (left === undefined || right === undefined) continue;
      const count = Math.min(this.postings.count(left), this.postings.count(right));
      if (count > bestCount) {
        bestCount = count;
        best = [text.slice(0, k), text.slice(k)];
      }
    }
    return best;
  }

  /** How many 32-bit words a document set of this index spans. */
  get setWords(): number {
    return this.universe.words;
  }

  /** Documents holding any of a derivation's words. */
  holding(derivation: Derivation): DocSet {
    return union(
      Array.from(derivation.terms, (id) => this.postings.view(id)),
      this.universe.words,
    );
  }

  /** The id of a word of the index. */
  lookup(term: string): number | undefined {
    return this.termIds.get(term);
  }

  /** @internal */
  tokensOf(doc: number): { data: Int32Array; start: number; end: number } {
    if (doc >= this.tokens.lengths.length) return { data: this.tokens.data, start: 0, end: 0 };
    const start = this.tokens.offsets[doc]!;
    return { data: this.tokens.data, start, end: start + this.tokens.lengths[doc]! };
  }


  bytes(): number {
    let strings = 0;
    for (const term of this.termIds.keys()) strings += 24 + term.length * 2;
    return strings + this.termIds.size * 40 + this.postings.bytes() + this.tokens.bytes() + (this.sorted.length + this.terms.length) * 8 + this.memoStamps.byteLength * 2;
  }
}

/** A form the matcher looks for: a query word, half of a split word, or two query words joined. */
export type MatchSlot = { word: QueryWord; budget: number };
/** Another way to find query words: a split word's two halves side by side, or one joined word. */
export type Cover = { kind: 'split' | 'joined'; slot: number; right: number; words: number[] };

/** Meilisearch's position rule: how far a word sits from where the query has it, in buckets. */
function positionCost(distance: number): number {
  if (distance <= 1) return distance;
  if (distance <= 4) return 2;
  if (distance <= 7) return 3;
  if (distance <= 11) return 4;
  if (distance <= 16) return 5;
  if (distance <= 24) return 6;
  if (distance <= 64) return 7;
  if (distance <= 256) return 8;
  if (distance <= 1024) return 9;
  return 10;
}

/** Words further apart than this are "not close" to Meilisearch's proximity rule. */
const farApart = 8;

/**
 * Matches documents against one query. A word of the index is compared with the query's forms the
 * first time a document shows it (exact, prefix, typos), and remembered: with one site's cars as
 * candidates only their words are ever compared, however large the dictionary.
 *
 * Query words form terms as Meilisearch counts them: a lone word, or a quoted phrase. The matching
 * strategy drops terms in groups (`last`: from the end, `frequency`: the commonest first; a phrase
 * never); a document matches if it holds every term not dropped, and ranks by how few groups went.
 */
export class TextMatcher {
  private readonly entrySlot: number[] = [];
  private readonly entryInfo: number[] = [];
  private readonly entryNext: number[] = [];
  private readonly wordCount: number;
  /** The words of each quoted phrase of two or more words. */
  readonly phrases: number[][] = [];
  /** Per query word, the covers that can stand in for it. */
  private readonly coversOf: Cover[][];
  private readonly fields: Uint8Array | null;
  // Terms: per word its term; per term its words, whether it is a phrase, and the removal group it goes in.
  private readonly termOf: Int32Array;
  private readonly termWords: number[][] = [];
  private readonly termIsPhrase: boolean[] = [];
  private readonly removedAt: Int32Array;
  /** How many removal groups the strategy has; a term never dropped has this as its group. */
  private readonly groupCount: number;
  private readonly phraseWordCount: number;
  private maxTyposOf: Int32Array | null = null;
  // Scratch per document, per slot.
  private readonly found: Uint8Array;
  private readonly typos: Uint8Array;
  private readonly bestAttribute: Int32Array;
  private readonly bestPosition: Int32Array;
  private readonly exactSlot: Uint8Array;
  private readonly occurrences: Int32Array;
  private readonly occurrenceCount: Uint8Array;
  // Scratch per document, per query word: how it was found, and whether its term is kept.
  private readonly wordTypos: Int32Array;
  private readonly wordAttribute: Int32Array;
  private readonly wordPosition: Int32Array;
  private readonly wordExact: Uint8Array;
  private readonly wordSlot: Int32Array;
  private readonly wordJoined: Int32Array;
  private readonly wordKept: Uint8Array;
  // The document ranked last, for its score.
  private lastDoc = -1;
  private lastDropped = 0;

  constructor(
    private readonly index: TextIndex,
    readonly words: QueryWord[],
    readonly slots: MatchSlot[],
    readonly covers: Cover[],
    options: MatcherOptions,
    private readonly stamp: number,
  ) {
    this.wordCount = words.length;
    this.fields = options.fields;
    const byPhrase = new Map<number, number[]>();
    words.forEach((word, w) => {
      if (word.phrase >= 0) byPhrase.set(word.phrase, [...(byPhrase.get(word.phrase) ?? []), w]);
    });
    for (const members of byPhrase.values()) if (members.length > 1) this.phrases.push(members);
    this.coversOf = words.map((_, w) => covers.filter((cover) => cover.words.includes(w)));
    const W = Math.max(1, words.length);
    this.termOf = new Int32Array(W);
    words.forEach((word, w) => {
      const joinsPrevious = word.phrase >= 0 && w > 0 && words[w - 1]!.phrase === word.phrase;
      if (joinsPrevious) this.termWords[this.termWords.length - 1]!.push(w);
      else {
        this.termWords.push([w]);
        this.termIsPhrase.push(word.quoted);
      }
      this.termOf[w] = this.termWords.length - 1;
    });
    this.phraseWordCount = words.filter((word) => word.quoted).length;
    const groups = this.removalGroups(options.strategy);
    this.groupCount = groups.length;
    this.removedAt = new Int32Array(this.termWords.length).fill(groups.length);
    groups.forEach((terms, g) => terms.forEach((term) => (this.removedAt[term] = g)));
    const S = Math.max(1, slots.length);
    this.found = new Uint8Array(S);
    this.typos = new Uint8Array(S);
    this.bestAttribute = new Int32Array(S);
    this.bestPosition = new Int32Array(S);
    this.exactSlot = new Uint8Array(S);
    this.occurrences = new Int32Array(S * maxOccurrences);
    this.occurrenceCount = new Uint8Array(S);
    this.wordTypos = new Int32Array(W);
    this.wordAttribute = new Int32Array(W);
    this.wordPosition = new Int32Array(W);
    this.wordExact = new Uint8Array(W);
    this.wordSlot = new Int32Array(W);
    this.wordJoined = new Int32Array(W);
    this.wordKept = new Uint8Array(W);
  }

  /**
   * The terms the strategy may drop, in the order it drops them, grouped (Meilisearch's
   * `removal_order_for_terms_matching_strategy`): phrases are never dropped, and without a phrase
   * the last group stays, so a document always holds at least one term.
   */
  private removalGroups(strategy: MatchingStrategy): number[][] {
    const droppable = this.termWords.map((_, term) => term).filter((term) => !this.termIsPhrase[term]);
    const hasPhrase = droppable.length < this.termWords.length;
    let groups: number[][];
    if (strategy === 'all') return [];
    if (strategy === 'last') groups = droppable.reverse().map((term) => [term]);
    else {
      // A word in no document counts as the commonest: it goes first.
      const frequency = droppable.map((term) => {
        const held = sizeOf(this.wordHolders(this.termWords[term]![0]!, this.index.setWords));
        return { term, frequency: held === 0 ? Infinity : held };
      });
      frequency.sort((a, b) => b.frequency - a.frequency || a.term - b.term);
      groups = [];
      frequency.forEach(({ term, frequency: count }, k) => {
        if (k > 0 && frequency[k - 1]!.frequency === count) groups[groups.length - 1]!.push(term);
        else groups.push([term]);
      });
    }
    if (!hasPhrase) groups.pop();
    return groups;
  }

  /** 1 + the first entry of the slots a term matches (0: none), computed on first sight. */
  private entriesOf(term: number): number {
    const { stamps, heads } = this.index.memo(term);
    if (stamps[term] === this.stamp) return heads[term]!;
    const text = this.index.termText(term);
    const digit = this.index.termHasDigit(term);
    let head = 0;
    for (let s = 0; s < this.slots.length; s++) {
      const { word, budget } = this.slots[s]!;
      if (word.tooLong) continue;
      let info = -1;
      if (text === word.text) info = infoOf(0, true);
      else if (word.prefix && text.startsWith(word.text)) info = infoOf(0, false);
      else if (budget > 0 && !digit) {
        const typos = typoDistance(word.text, text, budget, word.prefix);
        if (typos <= budget) info = infoOf(typos, false);
      }
      if (info < 0) continue;
      this.entrySlot.push(s);
      this.entryInfo.push(info);
      this.entryNext.push(head - 1);
      head = this.entrySlot.length;
    }
    stamps[term] = this.stamp;
    heads[term] = head;
    return head;
  }

  /** Documents holding query word w in one of its forms (postings). */
  private wordHolders(w: number, nWords: number): DocSet {
    const holding = (slot: number) => this.index.holding(this.index.derive(this.slots[slot]!.word));
    const forms = [holding(w)];
    for (const cover of this.coversOf[w]!) forms.push(cover.kind === 'split' ? intersect(holding(cover.slot), holding(cover.right)) : holding(cover.slot));
    return union(forms, nWords);
  }

  /** Documents holding every query word no strategy drops, within `candidates` (postings, for many candidates). */
  candidates(candidates: DocSet, nWords: number): DocSet {
    let current = candidates;
    for (let w = 0; w < this.wordCount && sizeOf(current) > 0; w++) {
      if (this.removedAt[this.termOf[w]!]! < this.groupCount) continue;
      current = intersect(current, this.wordHolders(w, nWords));
    }
    return current;
  }

  /** The query words a slot stands for (a split or joined form stands for the words it covers). */
  wordsOfSlot(slot: number): number[] {
    if (slot < this.wordCount) return [slot];
    return this.covers.find((cover) => cover.slot === slot || cover.right === slot)?.words ?? [];
  }

  /**
   * How a word (normalised) matches the query, for highlighting: empty when it matches nothing. A
   * word no searched attribute holds matches a query word it is or starts, as Meilisearch
   * highlights it verbatim.
   */
  matchesOf(term: string): { word: QueryWord; match: Match; slot: number }[] {
    const id = this.index.lookup(term);
    const out: { word: QueryWord; match: Match; slot: number }[] = [];
    if (id === undefined) {
      this.slots.forEach(({ word }, slot) => {
        if (word.tooLong) return;
        if (term === word.text) out.push({ word, match: { typos: 0, exact: true }, slot });
        else if (word.prefix && term.startsWith(word.text)) out.push({ word, match: { typos: 0, exact: false }, slot });
      });
      return out;
    }
    for (let e = this.entriesOf(id) - 1; e >= 0; e = this.entryNext[e]!) {
      const info = this.entryInfo[e]!;
      const slot = this.entrySlot[e]!;
      out.push({ word: this.slots[slot]!.word, match: { typos: info & 3, exact: (info & 4) !== 0 }, slot });
    }
    return out;
  }

  /** Ranks a document into `rank`; false if it lacks a term its strategy keeps. */
  rank(doc: number, rank: TextRank): boolean {
    const W = this.wordCount;
    const { data, start, end } = this.index.tokensOf(doc);
    const fields = this.fields;
    this.found.fill(0);
    this.exactSlot.fill(0);
    this.occurrenceCount.fill(0);
    for (let k = start; k < end; k += 2) {
      let e = this.entriesOf(data[k]!) - 1;
      if (e < 0) continue;
      const place = data[k + 1]!;
      const attribute = place >>> 16;
      if (fields !== null && fields[attribute] !== 1) continue;
      const position = place & 0xffff;
      for (; e >= 0; e = this.entryNext[e]!) {
        const s = this.entrySlot[e]!;
        const info = this.entryInfo[e]!;
        const typos = info & 3;
        const exact = (info & 4) !== 0;
        if (!this.found[s]) {
          this.found[s] = 1;
          this.typos[s] = typos;
          this.bestAttribute[s] = attribute;
          this.bestPosition[s] = position;
        } else {
          if (typos < this.typos[s]!) this.typos[s] = typos;
          if (attribute < this.bestAttribute[s]! || (attribute === this.bestAttribute[s] && position < this.bestPosition[s]!)) {
            this.bestAttribute[s] = attribute;
            this.bestPosition[s] = position;
          }
        }
        if (exact) this.exactSlot[s] = 1;
        const count = this.occurrenceCount[s]!;
        if (count < maxOccurrences) {
          this.occurrences[s * maxOccurrences + count] = (place << 1) | (exact ? 1 : 0);
          this.occurrenceCount[s] = count + 1;
        }
      }
    }
    // A missing term drops its removal group and every group before it (Meilisearch's words rule).
    let dropped = 0;
    for (let term = 0; term < this.termWords.length; term++) {
      if (this.termHeld(term)) continue;
      const group = this.removedAt[term]!;
      if (group >= this.groupCount) return false;
      if (group + 1 > dropped) dropped = group + 1;
    }

    let typos = 0;
    let attribute = 0;
    let position = 0;
    let exactWords = 0;
    for (let w = 0; w < W; w++) {
      const kept = this.removedAt[this.termOf[w]!]! >= dropped;
      this.wordKept[w] = kept ? 1 : 0;
      if (!kept) continue;
      typos += this.wordTypos[w]!;
      attribute += this.wordAttribute[w]!;
      position += Math.min(this.wordPosition[w]!, 1023);
      exactWords += this.wordExact[w]!;
    }
    let proximity = 0;
    for (let w = 0; w + 1 < W; w++) {
      if (!this.wordKept[w] || !this.wordKept[w + 1]) continue;
      if (this.wordJoined[w]! >= 0 && this.wordJoined[w] === this.wordJoined[w + 1]) continue;
      proximity += this.pairDistance(this.wordSlot[w]!, this.wordSlot[w + 1]!);
    }
    rank.dropped = dropped;
    rank.typos = typos;
    rank.proximity = proximity;
    rank.attribute = attribute;
    rank.position = position;
    rank.exactness = (dropped === 0 && this.exactAttribute(data, start, end) === 3 ? 1024 : 0) + exactWords;
    this.lastDoc = doc;
    this.lastDropped = dropped;
    return true;
  }

  private termHeld(term: number): boolean {
    const words = this.termWords[term]!;
    if (words.length === 1) return this.coverWord(words[0]!);
    for (let i = 0; i < words.length; i++) if (!this.coverWord(words[i]!)) return false;
    return this.phraseHolds(words);
  }

  /**
   * The last ranked document's place on each of Meilisearch's ranking rules, over the terms its
   * strategy kept (`ScoreDetails`): what `_rankingScore` is made of.
   */
  score(): TextScore {
    const dropped = this.lastDropped;
    const wordsMax = 1 + Math.max(0, this.phraseWordCount - 1) + this.groupCount;
    const maxTyposOf = this.maxTypos();
    const fieldWeight = Math.max(0, this.index.fieldCount - 1);
    let terms = 0;
    let typos = 0;
    let maxTypos = 0;
    let exact = 0;
    let attribute = 0;
    let position = 0;
    for (let term = 0; term < this.termWords.length; term++) {
      if (this.removedAt[term]! < dropped) continue;
      const words = this.termWords[term]!;
      const first = words[0]!;
      terms++;
      for (const w of words) typos += this.wordTypos[w]!;
      maxTypos += maxTyposOf[first]!;
      if (words.every((w) => this.exactSlot[w] === 1)) exact++;
      attribute += this.wordAttribute[first]!;
      position += this.positionCostOf(first);
    }
    let pairs = 0;
    let distance = 0;
    for (let w = 0; w + 1 < this.wordCount; w++) {
      if (!this.wordKept[w] || !this.wordKept[w + 1] || this.termOf[w] === this.termOf[w + 1]) continue;
      pairs++;
      if (this.wordJoined[w]! >= 0 && this.wordJoined[w] === this.wordJoined[w + 1]) continue;
      distance += this.pairDistance(this.wordSlot[w]!, this.wordSlot[w + 1]!) - 1;
    }
    const { data, start, end } = this.index.tokensOf(this.lastDoc);
    const proximityMax = 1 + (farApart - 1) * pairs;
    const attributeMax = 1 + fieldWeight * terms;
    const positionMax = 1 + 10 * terms;
    return {
      words: { rank: wordsMax - dropped, max: wordsMax },
      typo: { rank: Math.max(1, maxTypos + 1 - typos), max: maxTypos + 1, typos, maxTypos },
      proximity: { rank: proximityMax - distance, max: proximityMax },
      attribute: { rank: attributeMax - attribute, max: attributeMax },
      position: { rank: positionMax - position, max: positionMax },
      exactAttribute: dropped === 0 ? this.exactAttribute(data, start, end) : 1,
      exactWords: { exact, words: terms },
    };
  }

  /** How far query word w sits from its place in the query, at its nearest occurrence in its best attribute. */
  private positionCostOf(w: number): number {
    if (this.wordSlot[w] !== w) return positionCost(Math.abs(this.wordPosition[w]! - w));
    let best = Infinity;
    for (let i = 0; i < this.occurrenceCount[w]!; i++) {
      const place = this.occurrences[w * maxOccurrences + i]! >>> 1;
      if (place >>> 16 !== this.wordAttribute[w]) continue;
      best = Math.min(best, positionCost(Math.abs((place & 0xffff) - w)));
    }
    return best === Infinity ? positionCost(Math.abs(this.wordPosition[w]! - w)) : best;
  }

  /**
   * Per query word, the most typos a match may cost (Meilisearch's `max_typo_cost`): what the
   * index offers within its budget; a word too short for typos may still be split in two (one).
   */
  private maxTypos(): Int32Array {
    if (this.maxTyposOf) return this.maxTyposOf;
    const most = new Int32Array(Math.max(1, this.wordCount));
    this.words.forEach((word, w) => {
      if (word.quoted || word.tooLong) return;
      if (typoBudget(word) === 0) {
        most[w] = 1;
        return;
      }
      for (const info of this.index.derive(word).info) most[w] = Math.max(most[w]!, info & 3);
    });
    this.maxTyposOf = most;
    return most;
  }

  /** Finds the best way the document holds query word w; false if none. */
  private coverWord(w: number): boolean {
    let found = false;
    const take = (typos: number, attribute: number, position: number, exact: boolean, slot: number, joined: number) => {
      if (
        found &&
        (typos > this.wordTypos[w]! ||
          (typos === this.wordTypos[w] && (attribute > this.wordAttribute[w]! || (attribute === this.wordAttribute[w] && position >= this.wordPosition[w]!))))
      ) {
        return;
      }
      found = true;
      this.wordTypos[w] = typos;
      this.wordAttribute[w] = attribute;
      this.wordPosition[w] = position;
      this.wordExact[w] = exact ? 1 : 0;
      this.wordSlot[w] = slot;
      this.wordJoined[w] = joined;
    };
    if (this.found[w]) take(this.typos[w]!, this.bestAttribute[w]!, this.bestPosition[w]!, this.exactSlot[w] === 1, w, -1);
    for (const cover of this.coversOf[w]!) {
      const s = cover.slot;
      if (!this.found[s]) continue;
      if (cover.kind === 'joined') {
        take(this.typos[s]!, this.bestAttribute[s]!, this.bestPosition[s]!, this.exactSlot[s] === 1, s, s);
        continue;
      }
      if (!this.found[cover.right]) continue;
      for (let i = 0; i < this.occurrenceCount[s]!; i++) {
        const place = this.occurrences[s * maxOccurrences + i]! >>> 1;
        // A split word counts one typo, as in Meilisearch.
        if (this.hasOccurrence(cover.right, place + 1, false)) take(1, place >>> 16, place & 0xffff, false, s, -1);
      }
    }
    return found;
  }

  /** Closest distance of two slots' words in one attribute (reversed order costs one more); `farApart` if none is close. */
  private pairDistance(a: number, b: number): number {
    let best = farApart;
    const na = this.occurrenceCount[a]!;
    const nb = this.occurrenceCount[b]!;
    for (let i = 0; i < na; i++) {
      const x = this.occurrences[a * maxOccurrences + i]! >>> 1;
      for (let j = 0; j < nb; j++) {
        const y = this.occurrences[b * maxOccurrences + j]! >>> 1;
        if (x >>> 16 !== y >>> 16) continue;
        const px = x & 0xffff;
        const py = y & 0xffff;
        const distance = py > px ? py - px : px - py + 1;
        if (distance < best) best = distance;
      }
    }
    return best;
  }

  private hasOccurrence(slot: number, place: number, exactOnly: boolean): boolean {
    for (let i = 0; i < this.occurrenceCount[slot]!; i++) {
      const packed = this.occurrences[slot * maxOccurrences + i]!;
      if (packed >>> 1 === place && (!exactOnly || (packed & 1) === 1)) return true;
    }
    return false;
  }

  private phraseHolds(phrase: number[]): boolean {
    const first = phrase[0]!;
    for (let i = 0; i < this.occurrenceCount[first]!; i++) {
      const place = this.occurrences[first * maxOccurrences + i]! >>> 1;
      let holds = true;
      for (let j = 1; j < phrase.length && holds; j++) holds = this.hasOccurrence(phrase[j]!, place + j, false);
      if (holds) return true;
    }
    return false;
  }

  /**
   * Meilisearch's exact attribute rule: 3 if an attribute's words are exactly the query's, 2 if
   * an attribute starts with them, 1 otherwise.
   */
  private exactAttribute(data: Int32Array, start: number, end: number): 1 | 2 | 3 {
    const W = this.wordCount;
    let best: 1 | 2 = 1;
    for (let i = 0; i < this.occurrenceCount[0]!; i++) {
      const packed = this.occurrences[i]!;
      if ((packed & 1) === 0 || ((packed >>> 1) & 0xffff) !== 0) continue;
      const attribute = packed >>> 17;
      let all = true;
      for (let w = 1; w < W && all; w++) all = this.hasOccurrence(w, (attribute << 16) | w, true);
      if (!all) continue;
      let words = 0;
      for (let k = start; k < end; k += 2) if (data[k + 1]! >>> 16 === attribute) words++;
      if (words === W) return 3;
      best = 2;
    }
    return best;
  }
}
