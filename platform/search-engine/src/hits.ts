import { manyValues, type FacetIndex } from './facet-index';
import { geoDistanceMeters, geoPointOf, normalise, valueAt } from './filter-evaluator';
import { formatHit, type FormatRequest } from './highlight';
import type { TextRank } from './match-types';
import type { TextMatcher } from './matcher';
import { rankingScore, rankingScoreDetails, type TextScore } from './ranking-score';
import type { Doc, SearchParams } from './search-types';
import { selectAttributes, selectStoredAttributes } from './select-attributes';
import { sortPlace, type SortKey } from './sort';

/*
 * The hits of a search as Meilisearch returns them: one per value of the distinct attribute, each
 * with the attributes shown and what the search asked for besides (`_formatted`, `_geoDistance`,
 * the ranking score).
 */

/** Meilisearch's default `cropLength`, in words. */
const defaultCropLength = 10;

/** What a hit shows besides the stored document: chosen only when the search asks for any of it. */
type Presentation = {
  /** The attributes a hit shows; null: all of them. */
  retrieve: readonly string[] | null;
  format: FormatRequest | null;
  /** The first `_geoPoint` sorted by: each hit with a `_geo` gets its `_geoDistance`. */
  geoPoint: [lat: number, lng: number] | null;
  score: boolean;
  details: boolean;
};

/** Scratch for re-ranking one document when its score is wanted. */
const scratchRank: TextRank = { dropped: 0, typos: 0, proximity: 0, attribute: 0, position: 0, exactness: 0 };

/** A matching document's place on each ranking rule, for its ranking score. */
export function textScore(matcher: TextMatcher, slot: number): TextScore {
  matcher.rank(slot, scratchRank);
  return matcher.score();
}

/** What the hits show besides the stored documents; null when they are the documents as stored. */
export function hitPresentation(
  params: SearchParams,
  sortKeys: SortKey[],
  displayedAttributes: readonly string[] | undefined,
): Presentation | null {
  const plain =
    !params.attributesToRetrieve &&
    !params.attributesToHighlight?.length &&
    !params.attributesToCrop?.length &&
    !params.showMatchesPosition &&
    !params.showRankingScore &&
    !params.showRankingScoreDetails;
  const displayed = displayedAttributes ?? ['*'];
  if (plain && displayed.includes('*') && !sortKeys.some((key) => key.point)) return null;
  const everyDisplayed = displayed.includes('*');
  const isDisplayed = (attribute: string) =>
    everyDisplayed || displayed.some((name) => attribute === name || attribute.startsWith(`${name}.`));
  const asked = params.attributesToRetrieve ?? ['*'];
  const retrieve = asked.includes('*') ? (everyDisplayed ? null : displayed) : asked.filter(isDisplayed);
  const highlight = params.attributesToHighlight ?? [];
  const crop = params.attributesToCrop ?? [];
  const format: FormatRequest | null =
    highlight.length || crop.length || params.showMatchesPosition
      ? {
          highlight,
          crop,
          cropLength: params.cropLength ?? defaultCropLength,
          cropMarker: params.cropMarker ?? '…',
          preTag: params.highlightPreTag ?? '<em>',
          postTag: params.highlightPostTag ?? '</em>',
          matchesPosition: params.showMatchesPosition === true,
          displayed: isDisplayed,
          retrieved: retrieve,
        }
      : null;
  const geoPoint = sortKeys.find((key) => key.point)?.point ?? null;
  const score = params.showRankingScore === true;
  const details = params.showRankingScoreDetails === true;
  if (!retrieve && !format && !geoPoint && !score && !details) return null;
  return { retrieve, format, geoPoint, score, details };
}

/** A hit as Meilisearch returns it: the attributes shown, `_geoDistance`, then `_formatted`, `_matchesPosition` and the ranking score. */
export function presentHit(doc: Doc, slot: number, presentation: Presentation, matcher: TextMatcher | null, sortKeys: SortKey[]): Doc {
  const adds = presentation.geoPoint || presentation.format || presentation.score || presentation.details;
  // Only the attributes shown: the document's selection, shared like a whole stored document.
  if (presentation.retrieve && !adds) return selectStoredAttributes(doc, presentation.retrieve) as Doc;
  const hit: Record<string, unknown> = presentation.retrieve ? selectAttributes(doc, presentation.retrieve) : { ...doc };
  const point = presentation.geoPoint && geoPointOf(hit);
  if (presentation.geoPoint && point) hit._geoDistance = Math.round(geoDistanceMeters(presentation.geoPoint, point));
  if (presentation.format) {
    const { formatted, matchesPosition } = formatHit(doc, matcher, presentation.format);
    if (formatted) hit._formatted = formatted;
    if (matchesPosition) hit._matchesPosition = matchesPosition;
  }
  if (presentation.score || presentation.details) {
    const score = matcher ? textScore(matcher, slot) : null;
    if (presentation.score) hit._rankingScore = rankingScore(score);
    if (presentation.details)
      hit._rankingScoreDetails = rankingScoreDetails(
        score,
        sortKeys.map((key) => sortPlace(doc, key)),
      );
  }
  return hit as Doc;
}

/** Of the ordered slots, the first holding each value of the attribute; documents without it all stay. */
export function distinctHits(
  docs: readonly (Doc | undefined)[],
  facet: FacetIndex | undefined,
  ordered: number[],
  attribute: string,
): number[] {
  const seen = new Set<string | number>();
  const kept: number[] = [];
  for (const slot of ordered) {
    const values: (string | number)[] = facet ? facetValueIds(facet, slot) : distinctValues(valueAt(docs[slot]!, attribute));
    if (values.some((value) => seen.has(value))) continue;
    for (const value of values) seen.add(value);
    kept.push(slot);
  }
  return kept;
}

/** The value ids a document holds in a facet (one, several, or none). */
function facetValueIds(facet: FacetIndex, slot: number): number[] {
  const cell = facet.cells[slot]!;
  if (cell >= 0) return [cell];
  return cell === manyValues ? Array.from(facet.manyOf(slot)) : [];
}

/** A value's distinct keys when its attribute is not filterable: numbers as themselves, text without case. */
function distinctValues(value: unknown): (string | number)[] {
  if (Array.isArray(value)) return value.flatMap(distinctValues);
  if (typeof value === 'number') return [value];
  if (typeof value === 'string' || typeof value === 'boolean') return [normalise(String(value))];
  return [];
}
