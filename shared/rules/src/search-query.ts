/**
 * The search page's state and the Meilisearch queries it sends (SPEC §5, §7, §9). Pure: the
 * URL is the state, so a search is shareable and back/forward restore it.
 */

/** SPEC §9: facets searched by 'min:max' ranges. */
export const rangeFacets = ['price', 'subscription_price', 'km', 'year', 'created_at_timestamp'] as const;
export const isRangeFacet = (facet: string) => (rangeFacets as readonly string[]).includes(facet);

/** SPEC §9 default search limit. */
export const defaultSearchLimit = 100;

export type Range = { min: number | null; max: number | null };
export type SearchState = {
  q: string;
  filters: Record<string, string[]>;
  ranges: Record<string, Range>;
  sort: string | null;
  page: number;
};

/** SPEC §5: only a numeric string greater than 1 gives that page, otherwise page 1. */
export function pageFromParam(value: string | null | undefined): number {
  return value && /^\d+$/.test(value) && Number(value) > 1 ? Number(value) : 1;
}

/** SPEC §5: quotes are stripped from search filter values. */
export const stripQuotes = (value: string) => value.replace(/["']/g, '');

/**
 * SPEC §5: stock number terms of 3 or more digits (optionally with letters) are quoted so the
 * engine matches them exactly.
 */
export function quoteStockNumbers(q: string): string {
  return q
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => (/^[A-Za-z0-9]+$/.test(word) && (word.match(/\d/g)?.length ?? 0) >= 3 ? `"${word}"` : word))
    .join(' ');
}

const parseBound = (text: string | undefined) =>
  text !== undefined && text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : null;

/** 'min:max', ':max' or 'min:' → a range; anything else → null. */
export function parseRange(value: string | null): Range | null {
  if (!value || !value.includes(':')) return null;
  const [min, max] = value.split(':');
  const range = { min: parseBound(min), max: parseBound(max) };
  return range.min === null && range.max === null ? null : range;
}

export const formatRange = (range: Range) => `${range.min ?? ''}:${range.max ?? ''}`;

export function parseSearchState(params: URLSearchParams, facets: readonly string[]): SearchState {
  const filters: Record<string, string[]> = {};
  const ranges: Record<string, Range> = {};
  for (const facet of facets) {
    if (isRangeFacet(facet)) {
      const range = parseRange(params.get(facet));
      if (range) ranges[facet] = range;
    } else {
      const values = params.getAll(facet).map(stripQuotes).filter(Boolean);
      if (values.length) filters[facet] = [...new Set(values)];
    }
  }
  return { q: params.get('q')?.trim() ?? '', filters, ranges, sort: params.get('sort'), page: pageFromParam(params.get('page')) };
}

export function searchStateToParams(state: SearchState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  for (const [facet, values] of Object.entries(state.filters)) for (const value of values) params.append(facet, value);
  for (const [facet, range] of Object.entries(state.ranges)) params.set(facet, formatRange(range));
  if (state.sort) params.set('sort', state.sort);
  if (state.page > 1) params.set('page', String(state.page));
  return params;
}

const quoted = (value: string) => `"${stripQuotes(value)}"`;

/** The filter expressions of one facet: an IN list for values, TO / >= / <= for ranges. */
export function facetFilterExpressions(state: Pick<SearchState, 'filters' | 'ranges'>, facet: string): string[] {
  const values = state.filters[facet];
  if (values?.length) return [values.length === 1 ? `${facet} = ${quoted(values[0]!)}` : `${facet} IN [${values.map(quoted).join(', ')}]`];
  const range = state.ranges[facet];
  if (!range) return [];
  if (range.min !== null && range.max !== null) return [`${facet} ${range.min} TO ${range.max}`];
  return [range.min !== null ? `${facet} >= ${range.min}` : `${facet} <= ${range.max}`];
}

export type SortOption = { label: string; value: string };

/** SPEC §9 sort options; the Kms pair only where the site searches by km. */
export function sortOptions(opts: { withKms: boolean }): SortOption[] {
  return [
    { label: 'Most Relevant', value: 'custom_rank:desc' },
    { label: 'Latest', value: 'created_at_timestamp:desc' },
    { label: 'Highest Price', value: 'price:desc' },
    { label: 'Lowest Price', value: 'price:asc' },
    ...(opts.withKms
      ? [
          { label: 'Highest Kms', value: 'km:desc' },
          { label: 'Lowest Kms', value: 'km:asc' },
        ]
      : []),
  ];
}

export type SearchQuery = {
  indexUid: string;
  q: string;
  filter: string[];
  facets: string[];
  sort?: string[];
  limit: number;
  offset: number;
};

/**
 * SPEC §7: one main query plus one limit-1 query per facet key, each excluding that facet's own
 * filter, so every facet shows the counts a shopper would get by changing only that facet.
 * SPEC §9: sorting by price ascending leaves out cars priced 0.
 */
export function buildSearchQueries(input: {
  state: SearchState;
  facets: readonly string[];
  indexUid: string;
  hitsPerPage: number;
  defaultSort: string;
  extraFilters?: string[];
}): SearchQuery[] {
  const { state, facets, indexUid, hitsPerPage } = input;
  const sort = state.sort ?? input.defaultSort;
  const base = [...(input.extraFilters ?? []), ...(sort === 'price:asc' ? ['price > 0'] : [])];
  const q = quoteStockNumbers(state.q);
  const filtersExcept = (skip: string | null) => [
    ...base,
    ...facets.filter((facet) => facet !== skip).flatMap((facet) => facetFilterExpressions(state, facet)),
  ];
  const main: SearchQuery = {
    indexUid,
    q,
    filter: filtersExcept(null),
    facets: [...facets],
    sort: [sort],
    limit: hitsPerPage,
    offset: (state.page - 1) * hitsPerPage,
  };
  const perFacet = facets.map((facet): SearchQuery => ({
    indexUid,
    q,
    filter: filtersExcept(facet),
    facets: [facet],
    limit: 1,
    offset: 0,
  }));
  return [main, ...perFacet];
}

/** SPEC §7: pages = ceil(total / limit). */
export const pageCount = (total: number, limit: number) => (limit > 0 ? Math.ceil(total / limit) : 0);

/**
 * Filters implied by the search page's own path: a category page (/search/ute) or a stock-type
 * path (/search/used-cars). Values match the index's facet values.
 */
export function searchSlugFilters(slug: string): string[] {
  const categories: Record<string, string> = {
    ute: 'body = "Ute"',
    sedan: 'body = "Sedan"',
    suv: 'body = "SUV"',
    hatch: 'body = "Hatch"',
    '4x4': 'drive = "4x4"',
    'electric-cars': 'fuel = "Electric"',
  };
  if (categories[slug]) return [categories[slug]];
  const types = ['new', 'used', 'demo'].filter((type) => slug.split('-').includes(type));
  if (types.length === 1 && slug.endsWith('cars')) return [`car_type = "${types[0]}"`];
  if (types.length > 1 && types.length < 3) return [`car_type IN [${types.map((type) => `"${type}"`).join(', ')}]`];
  return [];
}
