import type { ModuleWithProps } from '@dealer/contracts/remote-modules';
import type { RouteMatch } from './routes';

/**
 * Which remote's exposed module owns a route, with its props; null for the shell's own pages.
 * The server uses it to preload the route's remote, the browser to render it.
 */
export function routeOwner(match: RouteMatch): ModuleWithProps | null {
  switch (match.kind) {
    case 'search':
      return { module: 'mf-search/SearchPage', props: { searchSlug: match.searchSlug } };
    case 'vehicle':
      return { module: 'mf-vehicle/VehicleDetailPage', props: { slug: match.slug } };
    case 'checkout':
      return { module: 'mf-checkout/CheckoutPage', props: { slug: match.slug } };
    case 'success':
      return { module: 'mf-leads/SuccessPage', props: { category: match.category } };
    case 'lead-form':
      return { module: 'mf-leads/LeadFormPage', props: { form: match.form, page: match.page } };
    case 'garage':
      return { module: 'mf-garage/GaragePage', props: { tab: match.tab } };
    default:
      return null;
  }
}
