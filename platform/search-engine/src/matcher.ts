import { intersect, sizeOf, union, type DocSet } from './bitset';
import type { Cover, IndexedWords, MatcherOptions, MatchSlot, TextRank } from './match-types';
import { infoOf, typoBudget, typoDistance, type Match, type QueryWord } from './query-words';
import type { TextScore } from './ranking-score';
import type { MatchingStrategy } from './search-types';

/** Per document and slot, the occurrences the matcher keeps (for proximity, phrases and split words). */
const maxOccurrences = 16;

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
    private readonly index: IndexedWords,
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
    for (const cover of this.coversOf[w]!)
      forms.push(cover.kind === 'split' ? intersect(holding(cover.slot), holding(cover.right)) : holding(cover.slot));
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
          (typos === this.wordTypos[w] &&
            (attribute > this.wordAttribute[w]! || (attribute === this.wordAttribute[w] && position >= this.wordPosition[w]!))))
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
