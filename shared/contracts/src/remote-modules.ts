// Plain values only (no zod), so browser bundles can import them for free.

/** The feature remotes a site can switch on or off. Keys are the package folders. */
export const remoteNames = ['mf-search', 'mf-vehicle', 'mf-leads', 'mf-checkout', 'mf-garage', 'mf-chat'] as const;
export type RemoteName = (typeof remoteNames)[number];

/** Module Federation container names (identifiers cannot hold a hyphen). */
export const federationName = (remote: RemoteName) => remote.replace('-', '_');

/** The exposed modules, one per screen or widget; `remote/Module` as loadRemote wants it. */
export const exposedModules = {
  SearchPage: 'mf-search/SearchPage',
  VehicleDetailPage: 'mf-vehicle/VehicleDetailPage',
  EnquiryForm: 'mf-leads/EnquiryForm',
  EnquireButton: 'mf-leads/EnquireButton',
  TestDriveButton: 'mf-leads/TestDriveButton',
  RequestPhotosButton: 'mf-leads/RequestPhotosButton',
  SuccessPage: 'mf-leads/SuccessPage',
  LeadFormPage: 'mf-leads/LeadFormPage',
  CheckoutPage: 'mf-checkout/CheckoutPage',
  ReserveButton: 'mf-checkout/ReserveButton',
  GaragePage: 'mf-garage/GaragePage',
  FavouriteButton: 'mf-garage/FavouriteButton',
  ChatWidget: 'mf-chat/ChatWidget',
} as const;
export type ExposedModule = (typeof exposedModules)[keyof typeof exposedModules];

export const remoteOfModule = (module: ExposedModule): RemoteName => module.split('/')[0] as RemoteName;

/** Props of each exposed module: the typed public face of a remote. */
export type SearchPageProps = { searchSlug: string };
export type VehicleDetailPageProps = { slug: string };
export type EnquiryFormProps = { carId?: number; carType?: string; stockNumber?: string; title?: string; onSubmitted?: (leadId: number) => void };
export type SuccessPageProps = { category: string | null };
export type LeadFormPageProps = { form: 'finance' | 'test-drive' | 'service' | 'trade-in' | 'contact' | 'careers'; page?: string };
export type CheckoutPageProps = { slug: string | null };
export type GaragePageProps = { tab: 'saved-cars' | null };
/** The car a call-to-action slot acts on: what the vehicle page hands to other remotes. */
export type VehicleContext = {
  id: number;
  slug: string;
  name: string;
  make: string;
  model: string;
  year: number;
  car_type: 'new' | 'used' | 'demo';
  stocknum: string;
  vin: string;
  price: number;
  tag: string | null;
  location_id: number;
  dealership_slug: string;
  primary_image_url: string;
};
export type VehicleActionProps = { car: VehicleContext; variant?: 'primary' | 'secondary'; title?: string };
export type EnquireButtonProps = VehicleActionProps;
export type TestDriveButtonProps = VehicleActionProps;
export type RequestPhotosButtonProps = VehicleActionProps;
export type ReserveButtonProps = VehicleActionProps;
export type FavouriteButtonProps = { car: { id: number; name: string; slug: string; make: string; model: string; primary_image_url: string } };
/**
 * The chat launcher. `startedBy`: what brought it onto the page (the shopper's first interaction, or
 * the 3 s deferral); a provider's script loads only after an interaction. `thirdPartyAllowed`: false
 * when the shopper refused (or has not yet given) consent for third-party tags: the built-in chat then
 * stands in for the provider. Both optional, so an older shell's launcher keeps working.
 */
export type ChatWidgetProps = { startedBy?: 'interaction' | 'timer'; thirdPartyAllowed?: boolean };
