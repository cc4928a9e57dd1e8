import { describe, expect, it } from 'vitest';
import { generateDemoData } from '@dealer/demo/demo-data';
import { toPublicSiteConfig } from './public-config';

const search = { host: 'https://search.example', apiKey: 'key', indexUid: 'cars' };
const { sites } = generateDemoData(1_795_000_000);
const site = (slug: string) => sites.find((entry) => entry.slug === slug)!;

describe('the config a browser gets', () => {
  it("shows the dealer's and each location's phone in the country's own style (SPEC §5 display formats)", () => {
    const au = toPublicSiteConfig({ ...site('metro-motor-group'), phone: '0255504241' }, [], search);
    expect(au.phone).toBe('(02) 5550 4241');
    expect(au.locations.every((location) => /^\(0\d\) \d{4} \d{4}$/.test(location.contact_detail.phone))).toBe(true);
    expect(toPublicSiteConfig({ ...site('kiwi-motors'), phone: '+64 9 555 3465' }, [], search).phone).toBe('09 555 3465');
    expect(toPublicSiteConfig({ ...site('lone-star-auto'), phone: '512-555-0174' }, [], search).phone).toBe('(512) 555-0174');
    // Text that is no phone number stays as the dealer typed it.
    expect(toPublicSiteConfig({ ...site('metro-motor-group'), phone: '13 CARS' }, [], search).phone).toBe('13 CARS');
  });

  it('carries no secrets', () => {
    expect(JSON.stringify(toPublicSiteConfig(site('metro-motor-group'), [], search))).not.toContain('DEMO_SECRET');
  });
});
