import type { DocSet } from './bitset';
import type { FilterNode } from './filter-parser';
import type { TextRank } from './match-types';

/** A search's facet counts, as its response carries them. */
export type FacetCounts = {
  facetDistribution: Record<string, Record<string, number>>;
  facetStats: Record<string, { min: number; max: number }>;
};

/**
 * The documents a search matched, before its score threshold, distinct, facets and page: slots, and
 * with query words their ranks; and the facet counts made of them, per list of facets (facetCountsOf).
 */
export type Matches = {
  readonly slots: Int32Array;
  readonly ranks: TextRank[] | null;
  counted?: { settings: object; byNames: Map<string, FacetCounts> };
};

/** The facet lists whose counts one match set keeps: a search page asks its main query's list and one per facet. */
const countedListsKept = 32;

/**
 * The facet counts of `matches` for the facets `names` under the index's `settings`: counted once
 * and kept with the matches, since they depend only on which documents matched, not on the page,
 * the sort or the ranks (the next page of a search, another sort of it, or a multi-search's facet
 * query with the main query's filter count nothing again). Every caller gets the same counts, frozen.
 */
export function facetCountsOf(matches: Matches, names: readonly string[], settings: object, count: () => FacetCounts): FacetCounts {
  const key = names.join('\u0000');
  if (matches.counted?.settings !== settings) matches.counted = { settings, byNames: new Map() };
  const { byNames } = matches.counted;
  let counts = byNames.get(key);
  if (!counts) {
    counts = frozenCounts(count());
    if (byNames.size >= countedListsKept) byNames.delete(byNames.keys().next().value!);
    byNames.set(key, counts);
  }
  return counts;
}

/**
 * Counts shared by every answer over the same matches, frozen so that none of them can change what
 * the next one says. Copied for each answer instead, they cost more than counting (a model facet
 * has hundreds of values, and a search page asks for 18 facets in 19 queries).
 */
function frozenCounts({ facetDistribution, facetStats }: FacetCounts): FacetCounts {
  for (const values of Object.values(facetDistribution)) Object.freeze(values);
  for (const stats of Object.values(facetStats)) Object.freeze(stats);
  return Object.freeze({ facetDistribution: Object.freeze(facetDistribution), facetStats: Object.freeze(facetStats) });
}

/**
 * What a search's matches depend on besides the index version. The base set and the parsed filter
 * are compared by identity: the index caches both per version, so the same object means the same
 * documents and the same filter (a copy only misses). `words` is the query words, matching
 * strategy and searched attributes as one key; empty without query words.
 */
export type MatchesKey = { base: DocSet | null; filter: FilterNode | null; words: string };

type Entry = MatchesKey & { matches: Matches };

/**
 * The matches of the last few distinct searches of one index, most recent first. A multi-search
 * asks one query per facet besides the main one, and every facet without a filter of its own
 * repeats the main query's filter and words: those skip the filter and the word matching.
 * Holds at most `size` entries, each one slot list (at most the index's live documents) and, with
 * query words, one rank per slot, and the facet counts made of them; all are dropped when the
 * index version changes. What `get` returns is shared: callers must not modify its slots or ranks.
 */
export class RecentMatches {
  private entries: Entry[] = [];
  private version = -1;

  constructor(private readonly size: number) {}

  get(version: number, key: MatchesKey): Matches | undefined {
    if (version !== this.version) {
      this.entries = [];
      this.version = version;
      return undefined;
    }
    const at = this.entries.findIndex((entry) => entry.base === key.base && entry.filter === key.filter && entry.words === key.words);
    if (at < 0) return undefined;
    const entry = this.entries[at]!;
    if (at > 0) {
      this.entries.splice(at, 1);
      this.entries.unshift(entry);
    }
    return entry.matches;
  }

  /** Keeps the matches of a search just run at `version` (after a `get` at that version missed). */
  add(version: number, key: MatchesKey, matches: Matches) {
    if (version !== this.version) return;
    this.entries.unshift({ ...key, matches });
    if (this.entries.length > this.size) this.entries.pop();
  }
}
