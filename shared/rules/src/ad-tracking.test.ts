import { describe, expect, it } from 'vitest';
import { adTrackingContent } from './ad-tracking';

describe('ad-tracking content payload (SPEC §3, §9)', () => {
  it('names the car by stock number, one unit, in AUD at its price', () => {
    expect(adTrackingContent({ stocknum: 'MMG34146', price: 43990, name: '2026 Mazda CX-30 G20 Evolve' })).toEqual({
      content_ids: ['MMG34146'],
      quantity: 1,
      currency: 'AUD',
      value: 43990,
      content_type: 'product',
      content_name: '2026 Mazda CX-30 G20 Evolve',
    });
  });
  it('adds the search string when there is one', () => {
    expect(adTrackingContent({ stocknum: '1', price: 1, name: 'x' }, 'corolla').search_string).toBe('corolla');
  });
});
