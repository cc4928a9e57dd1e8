/*
 * Meilisearch's `_rankingScore` and `_rankingScoreDetails` (milli's `score_details.rs`): each
 * ranking rule places a document at `rank` of `max`; the rules are read as the digits of one
 * number, the first rule the most significant, and the score is that number over its largest
 * value. Sort rules order hits but take no part in the score.
 */

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

/** Where a document sits on a sort rule, for the details: the value sorted by, or the `_geo` point and its distance. */
export type SortPlace =
  { rule: string; value: unknown } | { rule: string; point: { lat: number; lng: number } | null; distance: number | null };

/** The inner rule orders documents the outer one ranks equally. */
function merge(outer: Rank, inner: Rank): Rank {
  return { rank: Math.max(0, outer.rank - 1) * inner.max + inner.rank, max: outer.max * inner.max };
}

function combined(ranks: readonly Rank[]): number {
  let total: Rank = { rank: 1, max: 1 };
  for (const rank of ranks) total = merge(total, rank);
  return total.rank / total.max;
}

const local = (rank: Rank) => rank.rank / rank.max;
const exactAttributeRank = (exactAttribute: 1 | 2 | 3): Rank => ({ rank: exactAttribute, max: 3 });
const exactWordsRank = ({ exact, words }: TextScore['exactWords']): Rank => ({ rank: exact + 1, max: words + 1 });

/** The ranking score: 1 for every hit of a search without words. */
export function rankingScore(score: TextScore | null): number {
  if (!score) return 1;
  return combined([
    score.words,
    score.typo,
    score.proximity,
    score.attribute,
    score.position,
    exactAttributeRank(score.exactAttribute),
    exactWordsRank(score.exactWords),
  ]);
}

const matchTypes = { 3: 'exactMatch', 2: 'matchesStart', 1: 'noExactMatch' } as const;

/** `_rankingScoreDetails`: per rule in ranking order (words, typo, proximity, attribute, sort, exactness) its score and what it rests on. */
export function rankingScoreDetails(score: TextScore | null, sorts: readonly SortPlace[]): Record<string, unknown> {
  const details: Record<string, unknown> = {};
  let order = 0;
  if (score) {
    details.words = { order: order++, matchingWords: score.words.rank, maxMatchingWords: score.words.max, score: local(score.words) };
    details.typo = { order: order++, typoCount: score.typo.typos, maxTypoCount: score.typo.maxTypos, score: local(score.typo) };
    details.proximity = { order: order++, score: local(score.proximity) };
    details.attribute = {
      order: order++,
      attributeRankingOrderScore: local(score.attribute),
      queryWordDistanceScore: local(score.position),
      score: combined([score.attribute, score.position]),
    };
  }
  for (const sort of sorts) {
    details[sort.rule] =
      'point' in sort ? { order: order++, value: sort.point, distance: sort.distance } : { order: order++, value: sort.value };
  }
  if (score) {
    const matchType = matchTypes[score.exactAttribute];
    details.exactness =
      score.exactAttribute === 1
        ? {
            order,
            matchType,
            matchingWords: score.exactWords.exact,
            maxMatchingWords: score.exactWords.words,
            score: combined([exactAttributeRank(1), exactWordsRank(score.exactWords)]),
          }
        : { order, matchType, score: local(exactAttributeRank(score.exactAttribute)) };
  }
  return details;
}
