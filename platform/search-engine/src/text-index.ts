import { ListArena, PostingTable, union, type DocSet } from './bitset';
import { valueAt } from './filter-evaluator';
import type { Cover, IndexedWords, MatcherOptions, MatchSlot } from './match-types';
import { TextMatcher } from './matcher';
import { infoOf, isTooLongWord, noDerivation, typoBudget, typoDistance, type Derivation, type QueryWord } from './query-words';
import { hasDigit, scanWords } from './words';

/*
 * Full-text search over the searchable attributes, in Meilisearch's manner: words are runs of
 * letters and digits, compared without case or accents; the matching strategy says which query
 * words may be missing (`last`: from the end, `frequency`: the commonest first, `all`: none); the
 * last one may be the start of a longer word; words of 5+ characters allow one typo, 9+ two (none
 * in a word with a digit, such as a stock number); a quoted "phrase" matches exactly and always.
 */

/** The positions between two items of an array: their words are never close to Meilisearch's proximity rule. */
const arrayGap = 8;
/** Attribute numbers must fit 14 bits: places are packed with a flag into one int32. */
const maxAttributes = 0x3fff;

export class TextIndex implements IndexedWords {
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
      while (i < this.sorted.length && j < incoming.length)
        merged[k++] = byTerm(this.sorted[i]!, incoming[j]!) <= 0 ? this.sorted[i++]! : incoming[j++]!;
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
    return (
      strings +
      this.termIds.size * 40 +
      this.postings.bytes() +
      this.tokens.bytes() +
      (this.sorted.length + this.terms.length) * 8 +
      this.memoStamps.byteLength * 2
    );
  }
}
