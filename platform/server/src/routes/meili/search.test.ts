import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeSiteConfig, findSiteIdBySlug, loadSiteConfig } from '@dealer/db/site-store';
import { carsIndexUid, searchKeyForSite } from '../../search/site-search';
import { createTestPlatform, testSearchKeySecret, type TestPlatform } from '../../testing/test-platform';
import { siteRulesAt } from './search';

const slug = 'metro-motor-group';

describe('the rules a site’s searches run under', () => {
  let platform: TestPlatform;
  let siteId: number;
  beforeAll(async () => {
    platform = await createTestPlatform();
    siteId = (await findSiteIdBySlug(platform.ctx.db, slug))!;
  }, 60_000);
  afterAll(async () => platform?.close());

  const search = async () => {
    const res = await platform.app.inject({
      method: 'POST',
      url: '/meili/multi-search',
      headers: { host: `${slug}.localhost:3000`, authorization: `Bearer ${searchKeyForSite(siteId, testSearchKeySecret)}` },
      payload: { queries: [{ indexUid: carsIndexUid, limit: 100, facets: ['car_type'] }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ results: { hits: { car_type: string }[]; facetDistribution: { car_type: Record<string, number> } }[] }>().results[0]!;
  };
  /** The site's search filters changed as another process (the CLI) changes them: nothing in this one is told. */
  const setSearchFilters = (filters: string[]) =>
    changeSiteConfig(platform.ctx.db, platform.ctx.dialect, siteId, (site) => ({
      site: { ...site, search_filters: filters },
      result: null,
    }));

  it('follows a change of the site’s search filters on the next search', async () => {
    const before = await search();
    expect(Object.keys(before.facetDistribution.car_type).length).toBeGreaterThan(1);
    await setSearchFilters(['car_type = new']);
    try {
      const after = await search();
      expect(after.hits.length).toBeGreaterThan(0);
      expect(after.hits.every((hit) => hit.car_type === 'new')).toBe(true);
      expect(Object.keys(after.facetDistribution.car_type)).toEqual(['new']);
    } finally {
      await setSearchFilters([]);
    }
    expect((await search()).facetDistribution.car_type).toEqual(before.facetDistribution.car_type);
  });

  it('parses a site’s rules once per config and second', async () => {
    const site = (await loadSiteConfig(platform.ctx.db, siteId))!;
    const rules = siteRulesAt(site, 1_000);
    expect(siteRulesAt(site, 1_000)).toBe(rules);
    expect(siteRulesAt(site, 1_001)).not.toBe(rules);
    expect(siteRulesAt({ ...site }, 1_001).filter).toBe(siteRulesAt(site, 1_001).filter);
  });
});
