import { describe, expect, it } from 'vitest';
import { searchPresetSchema } from '@dealer/contracts/content';
import { defaultSearchTemplate, fillSearchLanding, presetFilters } from './search-pages';

const site = { name: 'Harbour Used Cars', address: { city: 'Brookvale' } } as Parameters<typeof fillSearchLanding>[2];

describe('a search landing page', () => {
  it('lists the stock of its preset: one filter per facet it names', () => {
    expect(presetFilters({ car_type: 'used', make: 'Toyota', model: 'HiLux' })).toEqual([
      'car_type = "used"',
      'make = "Toyota"',
      'model = "HiLux"',
    ]);
    expect(presetFilters({ fuel: 'Electric' })).toEqual(['fuel = "Electric"']);
  });

  it('cannot break out of its filter with quotes', () => {
    expect(presetFilters({ make: 'Toyota" OR site_id = 2 OR make = "x' })).toEqual(['make = "Toyota OR site_id = 2 OR make = x"']);
  });

  it('takes its title, intro and description from the site template, words of the preset filled in', () => {
    const filled = fillSearchLanding({ preset: { car_type: 'used', make: 'Toyota', model: 'HiLux' } }, null, site);
    expect(filled.title).toBe('Used Toyota HiLux for sale in Brookvale');
    expect(filled.seoTitle).toBe('Used Toyota HiLux for sale in Brookvale');
    expect(filled.intro_html).toBe(
      '<p>Browse our Used Toyota HiLux stock at Harbour Used Cars in Brookvale. Enquire online, book a test drive or apply for finance.</p>',
    );
    expect(filled.description).toBe('Find Used Toyota HiLux cars for sale at Harbour Used Cars in Brookvale: photos, prices and finance.');
  });

  it('escapes what it puts into the intro', () => {
    const filled = fillSearchLanding({ preset: { make: '<img src=x onerror=alert(1)>' } }, defaultSearchTemplate, site);
    expect(filled.intro_html).not.toContain('<img');
    expect(filled.intro_html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('keeps the dealer’s own words over the template, and search results’ lengths', () => {
    const long = 'Utes '.repeat(40);
    const filled = fillSearchLanding(
      { preset: { body: 'Ute' }, title: 'Work utes', intro_html: '<p>Tough.</p>', seo: { description: long } },
      { title: '{body}', intro_html: '', description: '' },
      site,
    );
    expect(filled).toMatchObject({ title: 'Work utes', intro_html: '<p>Tough.</p>' });
    expect(filled.description.length).toBeLessThanOrEqual(160);
  });

  it('names at least one facet', () => {
    expect(searchPresetSchema.safeParse({}).success).toBe(false);
    expect(searchPresetSchema.safeParse({ make: 'Kia' }).success).toBe(true);
  });
});
