import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchFacetNames } from '@dealer/contracts/car-values';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { buildSearchQueries, isRangeFacet, type SearchState } from '@dealer/rules/search-query';
import { demoSiteSlugs } from '@dealer/demo/demo-sites';
import { createTestPlatform, siteRequest, type TestPlatform } from '../testing/test-platform';
import { carsIndexSettings } from './site-search';

type MultiSearchAnswer = {
  results: {
    hits: { slug: string }[];
    estimatedTotalHits: number;
    facetDistribution?: Record<string, Record<string, number>>;
    facetStats?: Record<string, { min: number; max: number }>;
  }[];
};

const emptyState: SearchState = { q: '', filters: {}, ranges: {}, sort: null, page: 1 };

/**
 * Every demo site's search page, as its browser asks it: the site's own facets, default sort and
 * key. A facet the index cannot filter on turns every search of that site into a 400.
 */
describe("each demo site's search page finds its cars", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform();
  });
  afterAll(async () => {
    await platform?.close();
  });

  async function searchAs(site: PublicSiteConfig, state: SearchState) {
    const queries = buildSearchQueries({
      state,
      facets: site.search_facets,
      indexUid: site.search.indexUid,
      hitsPerPage: 24,
      defaultSort: site.default_sort,
    });
    return platform.app.inject({
      method: 'POST',
      url: '/meili/multi-search',
      headers: { authorization: `Bearer ${site.search.apiKey}`, host: `${site.slug}.localhost:3000` },
      payload: { queries },
    });
  }

  it('can filter on every facet a site may offer (SPEC §3)', () => {
    for (const facet of searchFacetNames) expect(carsIndexSettings.filterableAttributes).toContain(facet);
  });

  it.each(demoSiteSlugs)('%s: the default search page lists cars, and every facet it shows can be ticked', async (slug) => {
    const site = (await siteRequest(platform.app, slug, 'GET', '/api/site')).json<PublicSiteConfig>();
    for (const facet of site.search_facets) expect(carsIndexSettings.filterableAttributes, `${slug} shows facet ${facet}`).toContain(facet);

    const first = await searchAs(site, emptyState);
    expect(first.statusCode, first.body).toBe(200);
    const [main, ...perFacet] = first.json<MultiSearchAnswer>().results;
    expect(main!.hits.length).toBeGreaterThan(0);

    // Tick the first value of each facet (or its whole range), one at a time, as a shopper would.
    for (const [i, facet] of site.search_facets.entries()) {
      const answer = perFacet[i]!;
      const stats = answer.facetStats?.[facet];
      const firstValue = Object.keys(answer.facetDistribution?.[facet] ?? {})[0];
      const state: SearchState = isRangeFacet(facet)
        ? { ...emptyState, ranges: stats ? { [facet]: { min: stats.min, max: stats.max } } : {} }
        : { ...emptyState, filters: firstValue === undefined ? {} : { [facet]: [firstValue] } };
      const ticked = await searchAs(site, state);
      expect(ticked.statusCode, `${slug} ${facet}: ${ticked.body}`).toBe(200);
      if (stats || firstValue !== undefined)
        expect(ticked.json<MultiSearchAnswer>().results[0]!.hits.length, `${slug} ${facet}`).toBeGreaterThan(0);
    }
  });

  it('offers subscription shoppers weekly price bands with their counts', async () => {
    const site = (await siteRequest(platform.app, 'flexi-subscriptions', 'GET', '/api/site')).json<PublicSiteConfig>();
    const facet = site.search_facets.indexOf('weekly_price_range');
    expect(facet).toBeGreaterThanOrEqual(0);
    const answer = (await searchAs(site, emptyState)).json<MultiSearchAnswer>();
    const bands = answer.results[facet + 1]!.facetDistribution?.weekly_price_range ?? {};
    expect(Object.keys(bands).length).toBeGreaterThan(1);
    for (const band of Object.keys(bands)) expect(band).toMatch(/^\d+(-\d+|\+)$/);
    expect(Object.values(bands).reduce((sum, count) => sum + count, 0)).toBe(answer.results[0]!.estimatedTotalHits);
  });
});
