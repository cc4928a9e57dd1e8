import { describe, expect, it } from 'vitest';
import { publicSiteConfigSchema, siteConfigSchema } from './site';

describe('public site config', () => {
  it('has no field for secrets, so a parsed public config cannot carry them', () => {
    expect(Object.keys(publicSiteConfigSchema.shape)).not.toContain('secrets');
    expect(Object.keys(siteConfigSchema.shape)).toContain('secrets');
  });
});
