/*
 * Words as Meilisearch reads them: runs of letters and digits, compared without case or accents.
 * One reading serves indexing, highlighting and queries.
 */

const asciiWordChar = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) asciiWordChar[c] = 1;
}
const unicodeWordChar = /[\p{L}\p{N}\p{M}]/u;
export const isWordChar = (text: string, i: number) => {
  const c = text.charCodeAt(i);
  return c < 128 ? asciiWordChar[c] === 1 : unicodeWordChar.test(text[i]!);
};

/** A word as the index keeps it: lower case, accents removed. */
export function normaliseWord(word: string): string {
  for (let i = 0; i < word.length; i++) {
    if (word.charCodeAt(i) >= 128)
      return word
        .normalize('NFKD')
        .replace(/\p{M}/gu, '')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]/gu, '');
  }
  return word.toLowerCase();
}

export type Token = { term: string; start: number; end: number };

/**
 * Walks the words of a text, normalised, with where each sits in it; one loop for indexing,
 * highlighting and reading queries. A visit answering false stops the walk.
 */
export function scanWords(text: string, visit: (term: string, start: number, end: number) => boolean | void) {
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

/** A word with a digit (a stock number, a model code) is never reached by a typo. */
export const hasDigit = (term: string) => /\d/.test(term);
