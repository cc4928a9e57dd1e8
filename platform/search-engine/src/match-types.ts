import type { DocSet } from './bitset';
import type { Derivation, QueryWord } from './query-words';
import type { MatchingStrategy } from './search-types';

/*
 * What the text index and its matcher hand each other. The matcher reads the index through
 * `IndexedWords`, so neither file imports the other's class.
 */

/** What a matcher reads of the text index it matches documents of. */
export interface IndexedWords {
  /** How many 32-bit words a document set of the index spans. */
  readonly setWords: number;
  /** How many attribute numbers are in use (the attribute rule's range). */
  readonly fieldCount: number;
  /** The index's words one query word matches, each with its typos and whether it is the word itself. */
  derive(word: QueryWord): Derivation;
  /** Documents holding any of a derivation's words. */
  holding(derivation: Derivation): DocSet;
  /** The id of a word of the index. */
  lookup(term: string): number | undefined;
  termText(id: number): string;
  termHasDigit(term: number): boolean;
  /** Per term id, how the current matcher matches it; shared by all matchers (see TextIndex). */
  memo(term: number): { stamps: Int32Array; heads: Int32Array };
  /** A document's words: pairs (term id, attribute << 16 | position) in `data` from `start` to `end`. */
  tokensOf(doc: number): { data: Int32Array; start: number; end: number };
}

export type MatcherOptions = {
  strategy: MatchingStrategy;
  /** Only these attribute numbers are searched (`attributesToSearchOn`); null: every searchable one. */
  fields: Uint8Array | null;
};

/** A form the matcher looks for: a query word, half of a split word, or two query words joined. */
export type MatchSlot = { word: QueryWord; budget: number };
/** Another way to find query words: a split word's two halves side by side, or one joined word. */
export type Cover = { kind: 'split' | 'joined'; slot: number; right: number; words: number[] };

/**
 * Ranking of one matching document, best (lowest) first on each but exactness: Meilisearch's
 * words (how many groups of query words the matching strategy dropped), typo, proximity,
 * attribute, exactness.
 */
export type TextRank = { dropped: number; typos: number; proximity: number; attribute: number; position: number; exactness: number };
