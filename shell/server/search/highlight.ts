import { normaliseWord, tokenize, type TextMatcher } from './text-index';

export type HighlightOptions = {
  /** Attributes to highlight; '*' for all. */
  attributes: readonly string[];
  /** Attributes the query words are looked for in ('*' for all). */
  searchable: readonly string[];
  preTag: string;
  postTag: string;
};

/** How many characters of `original` make up the first `length` characters of its normalised form. */
function originalLength(original: string, length: number): number {
  let normalised = 0;
  let i = 0;
  for (const char of original) {
    if (normalised >= length) break;
    normalised += normaliseWord(char).length;
    i += char.length;
  }
  return i;
}

function highlightText(text: string, matcher: TextMatcher | null, options: HighlightOptions): string {
  if (!matcher) return text;
  let out = '';
  let at = 0;
  for (const token of tokenize(text)) {
    const matches = matcher.matchesOf(token.term);
    if (matches.length === 0) continue;
    // A word matched as itself or with typos is marked whole; one matched as a longer word's start, only that start.
    const whole = matches.some(({ word, match }) => match.exact || match.typos > 0 || !word.prefix);
    const prefix = Math.max(...matches.map(({ word }) => word.text.length));
    const end = whole ? token.end : token.start + originalLength(text.slice(token.start, token.end), prefix);
    out += text.slice(at, token.start) + options.preTag + text.slice(token.start, end) + options.postTag;
    at = end;
  }
  return out + text.slice(at);
}

function formatValue(value: unknown, matcher: TextMatcher | null, options: HighlightOptions): unknown {
  if (typeof value === 'string') return highlightText(value, matcher, options);
  // Meilisearch hands numbers back as strings in `_formatted`.
  if (typeof value === 'number') return highlightText(String(value), matcher, options);
  if (Array.isArray(value)) return value.map((item) => formatValue(item, matcher, options));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, formatValue(item, matcher, options)]));
  }
  return value;
}

/**
 * Meilisearch's `_formatted`: every attribute of the document, numbers as strings, with the query
 * words wrapped in the tags in the highlighted attributes (those also searched).
 */
export function formatHit(doc: Record<string, unknown>, matcher: TextMatcher | null, options: HighlightOptions): Record<string, unknown> {
  const every = options.attributes.includes('*');
  const searchAll = options.searchable.includes('*');
  const formatted: Record<string, unknown> = {};
  for (const [attribute, value] of Object.entries(doc)) {
    const highlighted = (every || options.attributes.includes(attribute)) && (searchAll || options.searchable.includes(attribute));
    formatted[attribute] = formatValue(value, highlighted ? matcher : null, options);
  }
  return formatted;
}
