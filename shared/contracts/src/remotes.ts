import { z } from 'zod';

/** The feature remotes a site can switch on or off. Keys are the package folders. */
export const remoteNames = ['mf-search', 'mf-vehicle', 'mf-leads', 'mf-checkout', 'mf-garage', 'mf-chat'] as const;
export type RemoteName = (typeof remoteNames)[number];

/** Module Federation container names (identifiers cannot hold a hyphen). */
export const federationName = (remote: RemoteName) => remote.replace('-', '_');

/** What the browser is told about one enabled remote of its site. */
export const remoteRefSchema = z.object({
  name: z.enum(remoteNames),
  version: z.string(),
  manifestUrl: z.string(),
});
export type RemoteRef = z.infer<typeof remoteRefSchema>;

/** The exposed modules, one per screen or widget; `remote/Module` as loadRemote wants it. */
export const exposedModules = {
  SearchPage: 'mf-search/SearchPage',
  VehicleDetailPage: 'mf-vehicle/VehicleDetailPage',
  EnquiryForm: 'mf-leads/EnquiryForm',
  SuccessPage: 'mf-leads/SuccessPage',
  LeadFormPage: 'mf-leads/LeadFormPage',
  CheckoutPage: 'mf-checkout/CheckoutPage',
  GaragePage: 'mf-garage/GaragePage',
  FavouriteButton: 'mf-garage/FavouriteButton',
  ChatWidget: 'mf-chat/ChatWidget',
} as const;
export type ExposedModule = (typeof exposedModules)[keyof typeof exposedModules];

export const remoteOfModule = (module: ExposedModule): RemoteName => module.split('/')[0] as RemoteName;
