import { describe, expect, it } from 'vitest';
import { publicSiteConfigSchema, siteConfigSchema } from './site';

describe('public site config', () => {
  it('has no field for secrets, so a parsed public config cannot carry them', () => {
    expect(Object.keys(publicSiteConfigSchema.shape)).not.toContain('secrets');
    expect(Object.keys(siteConfigSchema.shape)).toContain('secrets');
  });
});

describe('search facets of a site', () => {
  it('takes SPEC §3 facets and refuses any other, which the index could not filter on', () => {
    expect(siteConfigSchema.shape.search_facets.safeParse(['make', 'weekly_price_range', 'price_range']).success).toBe(true);
    const refused = siteConfigSchema.shape.search_facets.safeParse(['make', 'weekly_price']);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toContain('A search facet must be one of SPEC §3');
  });
});
