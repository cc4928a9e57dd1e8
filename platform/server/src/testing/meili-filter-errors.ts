/**
 * Test support for the filter suites (search/meili-conformance.filter-limits.test.ts and
 * search/meili-conformance.nested-and-geo-filters.test.ts): the error a filter is refused with, when
 * parsed or searched with, and the ids a search finds. Production code does not import it.
 */
import { parseFilter } from '@dealer/search-engine/filter-parser';
import type { MeiliError } from '@dealer/search-engine/search-errors';
import type { SearchIndex } from '@dealer/search-engine/search-index';
import type { SearchParams } from '@dealer/search-engine/search-types';

const errorOf = (run: () => unknown): Error => {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('no error');
};
export const parseError = (filter: Parameters<typeof parseFilter>[0]) => errorOf(() => parseFilter(filter));
export const searchError = (index: SearchIndex, params: SearchParams) => errorOf(() => index.search(params)) as MeiliError;
export const ids = (index: SearchIndex, params: SearchParams) => index.search({ limit: 1000, ...params }).hits.map((hit) => hit.id);
