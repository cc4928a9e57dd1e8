/*
 * What an index holds and what a search asks and answers, in Meilisearch's terms: read by the
 * index, the engine around it and the requests that reach it.
 */

export type Doc = Record<string, unknown> & { id: number | string };

/** Meilisearch's `matchingStrategy`. */
export type MatchingStrategy = 'last' | 'all' | 'frequency';

export type SearchParams = {
  q?: string | null;
  filter?: string | (string | string[])[] | null;
  facets?: string[] | null;
  sort?: string[] | null;
  limit?: number;
  offset?: number;
  page?: number;
  hitsPerPage?: number;
  attributesToHighlight?: string[] | null;
  highlightPreTag?: string;
  highlightPostTag?: string;
  attributesToRetrieve?: string[] | null;
  attributesToCrop?: string[] | null;
  cropLength?: number;
  cropMarker?: string;
  showMatchesPosition?: boolean;
  showRankingScore?: boolean;
  showRankingScoreDetails?: boolean;
  rankingScoreThreshold?: number | null;
  matchingStrategy?: MatchingStrategy;
  distinct?: string | null;
  attributesToSearchOn?: string[] | null;
};

export type SearchResponse = {
  hits: Doc[];
  query: string;
  processingTimeMs: number;
  facetDistribution?: Record<string, Record<string, number>>;
  facetStats?: Record<string, { min: number; max: number }>;
  limit?: number;
  offset?: number;
  estimatedTotalHits?: number;
  page?: number;
  hitsPerPage?: number;
  totalHits?: number;
  totalPages?: number;
};

export type DocumentsPage = { results: Doc[]; offset: number; limit: number; total: number };
