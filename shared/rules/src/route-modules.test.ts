import { describe, expect, it } from 'vitest';
import type { RouteMatch } from './routes';
import { routeOwner } from './route-modules';

describe('which remote owns a route', () => {
  it.each<[RouteMatch, string | null]>([
    [{ kind: 'search', searchSlug: 'used-cars' }, 'mf-search/SearchPage'],
    [{ kind: 'vehicle', slug: 'a-car' }, 'mf-vehicle/VehicleDetailPage'],
    [{ kind: 'checkout', slug: null }, 'mf-checkout/CheckoutPage'],
    [{ kind: 'success', category: 'general-enquiry' }, 'mf-leads/SuccessPage'],
    [{ kind: 'lead-form', form: 'finance' }, 'mf-leads/LeadFormPage'],
    [{ kind: 'garage', tab: 'saved-cars' }, 'mf-garage/GaragePage'],
    [{ kind: 'home' }, null],
    [{ kind: 'content', page: 'about' }, null],
    [{ kind: 'not-found' }, null],
  ])('%j → %s', (match, module) => {
    expect(routeOwner(match)?.module ?? null).toBe(module);
  });
});
