import { hasDigit, isWordChar, scanWords } from './words';

/*
 * A query's words as Meilisearch reads them, and how a word of the index may match one: itself,
 * a longer word it starts, or a word a few typos away.
 */

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
export const isTooLongWord = (text: string) => text.length > maxWordBytes || Buffer.byteLength(text) > maxWordBytes;

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

/** Meilisearch's default `typoTolerance.minWordSizeForTypos`: the length from which a word may have one typo, and two. */
export const minWordSizeForTypos = { oneTypo: 5, twoTypos: 9 } as const;

export function typoBudget(word: QueryWord): number {
  if (word.quoted || word.tooLong || hasDigit(word.text)) return 0;
  const length = [...word.text].length;
  return Math.min(length >= minWordSizeForTypos.twoTypos ? 2 : length >= minWordSizeForTypos.oneTypo ? 1 : 0, word.typoCap ?? 2);
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
/** A match in one byte: its typos in the low two bits, 4 when it is the query word itself. */
export const infoOf = (typos: number, exact: boolean) => typos | (exact ? 4 : 0);

/** The words of the index one query word matches (term ids), each with its match (`infoOf`). */
export type Derivation = { readonly terms: Int32Array; readonly info: Uint8Array };
export const noDerivation: Derivation = { terms: new Int32Array(0), info: new Uint8Array(0) };
