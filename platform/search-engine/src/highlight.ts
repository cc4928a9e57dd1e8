import { selectAttributes } from './select-attributes';
import type { TextMatcher } from './matcher';
import { normaliseWord, tokenize } from './words';

/*
 * Meilisearch's `_formatted` and `_matchesPosition` (milli's `matches` module): the query words
 * found in an attribute's text, highlighted with tags and/or cropped to the words around the
 * best group of them, and where each sits (in UTF-8 bytes, as Meilisearch counts).
 */

export type FormatRequest = {
  /** attributesToHighlight; `*` for every displayed attribute. */
  highlight: readonly string[];
  /** attributesToCrop, each `attribute` or `attribute:words`; `*` for every displayed attribute. */
  crop: readonly string[];
  cropLength: number;
  cropMarker: string;
  preTag: string;
  postTag: string;
  matchesPosition: boolean;
  /** Whether the displayedAttributes setting shows an attribute. */
  displayed: (attribute: string) => boolean;
  /** The attributes the hit itself shows; null: every displayed one. */
  retrieved: readonly string[] | null;
};

/** One match in `_matchesPosition`; `indices` says which array items (outermost first) it is in. */
export type MatchBounds = { start: number; length: number; indices?: number[] };

export type FormattedHit = { formatted?: Record<string, unknown>; matchesPosition?: Record<string, MatchBounds[]> };

type FormatOptions = { highlight: boolean; crop?: number };

/** A word or the run of separators between two words; a run holding `.`, `,`, `;`, `!`, `?` or a bracket is a hard one. */
type TextToken = { start: number; end: number; word: string | null; hard: boolean };

/**
 * A query word or quoted phrase found in the text: its first and last tokens and words, the query
 * words it stands for, and how many UTF-16 units from its start to mark.
 */
type Found = { first: number; last: number; firstWord: number; lastWord: number; ids: number[]; length: number };

const hardSeparator = /[.;,!?()[\]{}|]/;

function textTokens(text: string): TextToken[] {
  const tokens: TextToken[] = [];
  let at = 0;
  const gap = (end: number) => {
    if (end > at) tokens.push({ start: at, end, word: null, hard: hardSeparator.test(text.slice(at, end)) });
  };
  for (const token of tokenize(text)) {
    gap(token.start);
    tokens.push({ start: token.start, end: token.end, word: token.term, hard: false });
    at = token.end;
  }
  gap(text.length);
  return tokens;
}

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

/**
 * The query words and phrases found in a text, in order. A word of a quoted phrase counts only
 * inside that phrase, and the halves of a split query word ("do or" for "door") only side by side.
 */
function findMatches(text: string, tokens: TextToken[], matcher: TextMatcher): Found[] {
  const found: Found[] = [];
  const phraseIds = new Set(matcher.phrases.map((phrase) => matcher.words[phrase[0]!]!.phrase));
  const splits = matcher.covers.filter((cover) => cover.kind === 'split');
  const halves = new Set(splits.flatMap((cover) => [cover.slot, cover.right]));
  const sequences = [
    ...matcher.phrases.map((phrase) => ({ texts: phrase.map((w) => matcher.words[w]!.text), ids: phrase })),
    ...splits.map((cover) => ({ texts: [matcher.slots[cover.slot]!.word.text, matcher.slots[cover.right]!.word.text], ids: cover.words })),
  ];
  let wordAt = -1;
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t]!;
    if (token.word === null) continue;
    wordAt++;
    const matches = matcher.matchesOf(token.word).filter(({ word, slot }) => !phraseIds.has(word.phrase) && !halves.has(slot));
    if (matches.length) {
      // A word matched as itself or with typos is marked whole; one matched as a longer word's start, only that start.
      const whole = matches.some(({ word, match }) => match.exact || match.typos > 0 || !word.prefix);
      const prefix = Math.max(...matches.map(({ word }) => word.text.length));
      const length = whole ? token.end - token.start : originalLength(text.slice(token.start, token.end), prefix);
      const ids = [...new Set(matches.flatMap(({ slot }) => matcher.wordsOfSlot(slot)))];
      found.push({ first: t, last: t, firstWord: wordAt, lastWord: wordAt, ids, length });
      continue;
    }
    for (const { texts, ids } of sequences) {
      if (texts[0] !== token.word) continue;
      let last = t;
      let next = 1;
      for (let u = t + 1; u < tokens.length && next < texts.length; u++) {
        if (tokens[u]!.word === null) continue;
        if (tokens[u]!.word !== texts[next]) break;
        last = u;
        next++;
      }
      if (next < texts.length) continue;
      found.push({ first: t, last, firstWord: wordAt, lastWord: wordAt + texts.length - 1, ids, length: tokens[last]!.end - token.start });
      wordAt += texts.length - 1;
      t = last;
      break;
    }
  }
  return found;
}

/** How good a run of matches is to crop around: distinct query words, then closeness, then words in query order. */
function intervalScore(matches: Found[]): [number, number, number] {
  const ids = new Set<number>();
  let order = 0;
  let distance = 0;
  matches.forEach((match, k) => {
    const phraseGaps = match.lastWord - match.firstWord;
    const next = matches[k + 1];
    if (next) {
      if (Math.min(...next.ids) > Math.min(...match.ids)) order++;
      order += phraseGaps;
      distance -= phraseGaps;
      distance -= Math.min(next.firstWord - match.lastWord, 7);
    } else {
      order += phraseGaps;
      distance -= phraseGaps;
    }
    for (const id of match.ids) ids.add(id);
  });
  return [ids.size, distance, order];
}

const better = (a: [number, number, number], b: [number, number, number]) =>
  a[0] !== b[0] ? a[0] > b[0] : a[1] !== b[1] ? a[1] > b[1] : a[2] > b[2];

/** The first and last match of the best run that fits in `cropSize` words (Meilisearch's `find_best_match_interval`). */
function bestInterval(matches: Found[], cropSize: number): [Found, Found] {
  let best: { first: number; last: number; score: [number, number, number] } | null = null;
  const consider = (first: number, last: number) => {
    const score = intervalScore(matches.slice(first, last + 1));
    if (!best || better(score, best.score)) best = { first, last, score };
  };
  let first = 0;
  let firstWord = matches[0]!.firstWord;
  matches.forEach((next, index) => {
    if (next.lastWord - firstWord < cropSize) return;
    if (index !== 0) consider(first, index - 1);
    for (;;) {
      first++;
      if (first === matches.length) {
        first--;
        break;
      }
      firstWord = matches[first]!.firstWord;
      if (firstWord > next.lastWord || next.lastWord - firstWord < cropSize) break;
    }
  });
  const last = matches.length - 1;
  if (first !== last || matches[first]!.lastWord - matches[first]!.firstWord + 1 < cropSize) consider(first, last);
  const chosen = best as { first: number; last: number } | null;
  return chosen ? [matches[chosen.first]!, matches[chosen.last]!] : [matches[0]!, matches[0]!];
}

/**
 * Where to cut a text to `cropSize` words around its best matches (Meilisearch's `crop_bounds`):
 * the window grows a word at a time on both sides, towards words rather than separators, and
 * stays on the side of a soft separator rather than cross a hard one.
 */
function cropBounds(text: string, tokens: TextToken[], matches: Found[], cropSize: number): [number, number] {
  let remaining = cropSize;
  let forward = true;
  let before = -1;
  let after = 0;
  if (matches.length) {
    const [first, last] = bestInterval(matches, cropSize);
    const size = last.lastWord - first.firstWord + 1;
    forward = cropSize >= size;
    // A match longer than the window (a long phrase) is cut: words are taken back from its end.
    remaining = forward ? cropSize - size : size - cropSize;
    after = Math.min(last.last + 1, tokens.length);
    before = forward ? first.first - 1 : -1;
    if (!forward) after = Math.min(after, tokens.length - 1);
  }
  const step = forward ? 1 : -1;
  const afterLeft = () => (forward ? after < tokens.length : after >= 0);
  while (remaining > 0) {
    const left = before >= 0 ? tokens[before]! : null;
    const right = afterLeft() ? tokens[after]! : null;
    if (left && right) {
      if (left.word === null && right.word === null) {
        if (left.hard === right.hard) {
          before--;
          // No separator left hanging before the crop marker.
          if (remaining > 1) after += step;
        } else if (left.hard) after += step;
        else before--;
      } else if (left.word !== null && right.word === null) {
        before--;
        remaining--;
      } else if (left.word === null) {
        after += step;
        remaining--;
      } else {
        before--;
        remaining--;
        if (remaining > 0) {
          after += step;
          remaining--;
        }
      }
    } else if (left) {
      before--;
      if (left.word !== null) remaining--;
    } else if (right) {
      after += step;
      if (right.word !== null) remaining--;
    } else break;
  }
  const start = before >= 0 ? tokens[before]!.end : 0;
  const end = afterLeft() ? tokens[after]!.start : text.length;
  return [start, end];
}

/** A text highlighted and/or cropped (Meilisearch's `Matcher::format`). */
function formatText(text: string, tokens: TextToken[], matches: Found[], options: FormatOptions, request: FormatRequest): string {
  const [cropStart, cropEnd] = options.crop ? cropBounds(text, tokens, matches, options.crop) : [0, text.length];
  let out = cropStart > 0 ? request.cropMarker : '';
  let at = cropStart;
  if (options.highlight) {
    for (const match of matches) {
      const start = tokens[match.first]!.start;
      const end = tokens[match.last]!.end;
      if (end < cropStart || start > cropEnd) continue;
      const from = Math.max(start, cropStart);
      const to = Math.min(end, cropEnd);
      if (at < from) out += text.slice(at, from);
      const marked = Math.min(from + match.length, to);
      out += request.preTag + text.slice(from, marked) + request.postTag + text.slice(marked, to);
      at = to;
    }
  }
  if (at < cropEnd) out += text.slice(at, cropEnd);
  if (cropEnd < text.length) out += request.cropMarker;
  return out;
}

const utf8Length = (text: string) => Buffer.byteLength(text, 'utf8');

/** Which formatting an attribute gets, from every rule naming it, a parent or a child of it. */
function optionsFor(key: string, rules: [string, FormatOptions][]): FormatOptions | undefined {
  let merged: FormatOptions | undefined;
  for (const [name, options] of rules) {
    if (!(name === key || key.startsWith(`${name}.`) || name.startsWith(`${key}.`))) continue;
    merged = merged ? { highlight: merged.highlight || options.highlight, crop: merged.crop ?? options.crop } : options;
  }
  return merged;
}

/** Rust's `usize` parse: digits only (a leading `+` allowed). */
const wordCount = (text: string): number | undefined => (/^\+?\d+$/.test(text) ? Number(text) : undefined);

/**
 * Meilisearch's `_formatted` and `_matchesPosition` for one hit. `_formatted` holds the
 * highlighted and cropped attributes plus those the hit shows, with numbers as strings;
 * `_matchesPosition` covers every displayed attribute, by dotted path.
 */
export function formatHit(doc: Record<string, unknown>, matcher: TextMatcher | null, request: FormatRequest): FormattedHit {
  const displayedKeys = () => Object.keys(doc).filter(request.displayed);
  const options = new Map<string, FormatOptions>();
  for (const attribute of request.highlight) {
    if (attribute === '*') {
      for (const key of displayedKeys()) options.set(key, { highlight: true });
      break;
    }
    if (request.displayed(attribute)) options.set(attribute, { highlight: true });
  }
  for (const attribute of request.crop) {
    const colon = attribute.lastIndexOf(':');
    const name = colon < 0 ? attribute : attribute.slice(0, colon);
    const crop = colon < 0 ? request.cropLength : (wordCount(attribute.slice(colon + 1)) ?? request.cropLength);
    const cropIt = (key: string) => options.set(key, { highlight: options.get(key)?.highlight ?? false, crop });
    if (name === '*') displayedKeys().forEach(cropIt);
    else if (request.displayed(name)) cropIt(name);
  }
  if (options.size) for (const key of request.retrieved ?? displayedKeys()) if (!options.has(key)) options.set(key, { highlight: false });
  const rules = [...options].filter(([, option]) => option.highlight || option.crop !== undefined);

  const positions: Record<string, MatchBounds[]> = {};
  const leaf = (value: string | number, key: string, indices: number[]): string => {
    const text = String(value);
    const format = optionsFor(key, rules);
    if (!format && !request.matchesPosition) return text;
    const tokens = textTokens(text);
    const matches = matcher ? findMatches(text, tokens, matcher) : [];
    if (request.matchesPosition && matches.length) {
      const bounds = (positions[key] ??= []);
      for (const match of matches) {
        const start = tokens[match.first]!.start;
        bounds.push({
          start: utf8Length(text.slice(0, start)),
          length: utf8Length(text.slice(start, start + match.length)),
          ...(indices.length ? { indices } : {}),
        });
      }
    }
    return format ? formatText(text, tokens, matches, format, request) : text;
  };
  const walk = (value: unknown, key: string, indices: number[]): unknown => {
    if (typeof value === 'string' || typeof value === 'number') return leaf(value, key, indices);
    if (Array.isArray(value)) return value.map((item, i) => walk(item, key, [...indices, i]));
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, walk(item, `${key}.${name}`, indices)]));
    return value;
  };

  const shown = request.matchesPosition ? displayedKeys() : [...options.keys()];
  const walked = Object.fromEntries(Object.entries(selectAttributes(doc, shown)).map(([name, value]) => [name, walk(value, name, [])]));
  const hit: FormattedHit = {};
  if (options.size) hit.formatted = selectAttributes(walked, [...options.keys()]);
  if (request.matchesPosition)
    hit.matchesPosition = Object.fromEntries(Object.entries(positions).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return hit;
}
