import { defaultMaxValuesPerFacet, type IndexSettings } from './index-settings';
import { minWordSizeForTypos } from './query-words';

/*
 * Meilisearch's facet search: of the values a facet holds among a search's matches, those that
 * start like the facet query, with the typos a query word of its length may have.
 */

export type FacetHit = { value: string; count: number };

/** A facet value or facet query as facet search compares them: trimmed, lower case, accents removed. */
const facetText = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();

/**
 * Meilisearch keeps no facet value longer than 468 bytes (`MAX_FACET_VALUE_LENGTH`), so a facet
 * query much longer matches nothing there, typos and all; here it is not compared with any value.
 */
export const maxFacetQueryLength = 512;

/** The first `count` characters (code points) of a text, without reading the rest of it. */
function firstCharacters(text: string, count: number): string[] {
  const characters: string[] = [];
  for (const character of text) {
    if (characters.length === count) break;
    characters.push(character);
  }
  return characters;
}

/**
 * The fewest edits (an adjacent swap is one) that turn `query` into the start of `value`, or
 * `limit + 1` beyond `limit`. Only the start of `value` a match could use is read, and only the
 * cells within `limit` of the diagonal are computed (any other is more than `limit` edits), so a
 * long query costs its length times the band, whatever the value.
 */
function prefixDistance(query: readonly string[], value: string, limit: number): number {
  const over = limit + 1;
  const b = firstCharacters(value, query.length + limit);
  if (b.length < query.length - limit) return over;
  // Row i holds the cells j = i - limit … i + limit, at k = j - i + limit.
  const width = 2 * limit + 1;
  const cell = (row: Int32Array, k: number) => (k >= 0 && k < width ? row[k]! : over);
  let before = new Int32Array(width).fill(over);
  let previous = new Int32Array(width);
  let current = new Int32Array(width);
  for (let k = 0; k < width; k++) previous[k] = k - limit >= 0 && k - limit <= b.length ? k - limit : over;
  for (let i = 1; i <= query.length; i++) {
    let rowMin = over;
    for (let k = 0; k < width; k++) {
      const j = i + k - limit;
      let best = over;
      if (j === 0) best = Math.min(i, over);
      else if (j > 0 && j <= b.length) {
        best = Math.min(cell(previous, k + 1) + 1, cell(current, k - 1) + 1, previous[k]! + (query[i - 1] === b[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && query[i - 1] === b[j - 2] && query[i - 2] === b[j - 1]) best = Math.min(best, before[k]! + 1);
        best = Math.min(best, over);
      }
      current[k] = best;
      if (best < rowMin) rowMin = best;
    }
    if (rowMin > limit) return over;
    [before, previous, current] = [previous, current, before];
  }
  let best = over;
  for (let k = 0; k < width; k++) {
    const j = query.length + k - limit;
    if (j >= 0 && j <= b.length) best = Math.min(best, previous[k]!);
  }
  return best;
}

/** The typos a facet query of this many characters may have: none when typo tolerance is off (or off for the attribute), else by its length, as for a query word. */
function typosFor(typoTolerance: unknown, length: number, attribute: string): number {
  const tolerance = typoTolerance as {
    enabled?: boolean;
    minWordSizeForTypos?: { oneTypo?: number; twoTypos?: number };
    disableOnAttributes?: string[];
  };
  if (tolerance.enabled === false || tolerance.disableOnAttributes?.includes(attribute)) return 0;
  const sizes = tolerance.minWordSizeForTypos;
  return length >= (sizes?.twoTypos ?? minWordSizeForTypos.twoTypos)
    ? 2
    : length >= (sizes?.oneTypo ?? minWordSizeForTypos.oneTypo)
      ? 1
      : 0;
}

/**
 * Of a facet's values (each with how many matches hold it), those that start like `facetQuery`,
 * in the order the index gives that facet's values, at most `maxValuesPerFacet` of them.
 */
export function facetHits(
  values: FacetHit[],
  facetName: string,
  facetQuery: string,
  typoTolerance: unknown,
  faceting: IndexSettings['faceting'],
): FacetHit[] {
  // Read once per search, not once per value.
  const query = [...facetText(facetQuery)];
  const typos = typosFor(typoTolerance, query.length, facetName);
  const found = values
    .map((hit) => ({ ...hit, key: facetText(hit.value) }))
    .filter((hit) => query.length === 0 || prefixDistance(query, hit.key, typos) <= typos);
  const byCount = (faceting?.sortFacetValuesBy?.[facetName] ?? faceting?.sortFacetValuesBy?.['*']) === 'count';
  found.sort((a, b) => (byCount ? b.count - a.count : 0) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return found.slice(0, faceting?.maxValuesPerFacet ?? defaultMaxValuesPerFacet).map(({ value, count }) => ({ value, count }));
}
