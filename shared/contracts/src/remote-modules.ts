// Plain values only (no zod), so browser bundles can import them for free.
import type { Car } from './car';

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
export type EnquiryFormProps = {
  carId?: number;
  carType?: string;
  stockNumber?: string;
  title?: string;
  onSubmitted?: (leadId: number) => void;
};
export type SuccessPageProps = { category: string | null };
export type LeadFormPageProps = {
  form: 'finance' | 'test-drive' | 'service' | 'trade-in' | 'contact' | 'careers';
  page?: string;
  /**
   * Placed in a dealer's page (a content block, issue 24), not a page of its own: no h1 and the
   * page's title left alone; 'heading' shows the form's name as an h2, 'no-heading' none (the block has its own).
   */
  embedded?: 'heading' | 'no-heading';
};
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
} & Partial<VehicleActionState>;
/** What a call to action needs to decide whether it applies (optional: vehicle remotes before 1.4.0 do not send it). */
export type VehicleActionState = Pick<
  Car,
  'status' | 'sold' | 'reserved' | 'reservable' | 'payment_processors' | 'has_checkout_payment_processor'
>;
export type VehicleActionProps = { car: VehicleContext; variant?: 'primary' | 'secondary'; title?: string };
export type EnquireButtonProps = VehicleActionProps;
export type TestDriveButtonProps = VehicleActionProps;
export type RequestPhotosButtonProps = VehicleActionProps;
export type ReserveButtonProps = VehicleActionProps;
export type FavouriteButtonProps = {
  car: { id: number; name: string; slug: string; make: string; model: string; primary_image_url: string };
};
/**
 * The chat launcher. `startedBy`: what brought it onto the page (the shopper's first interaction, or
 * the 3 s deferral); a provider's script loads only after an interaction. `thirdPartyAllowed`: false
 * when the shopper refused (or has not yet given) consent for third-party tags: the built-in chat then
 * stands in for the provider. `openOnStart`: the shopper pressed the shell's own 'Text us' (markup,
 * with the welcome bubble the shell showed and closed), so the widget opens the chat at once and
 * shows no bubble of its own. All optional, so an older shell's launcher keeps working.
 */
export type ChatWidgetProps = { startedBy?: 'interaction' | 'timer'; thirdPartyAllowed?: boolean; openOnStart?: boolean };

/**
 * The props of every exposed module, by module: what a remote promises and what the shell and other
 * remotes must pass. `RemoteModule` and `RemoteSlot` take their props from here, so a wrong or
 * missing prop is a compile error, not a blank area in production.
 */
export interface ExposedProps {
  'mf-search/SearchPage': SearchPageProps;
  'mf-vehicle/VehicleDetailPage': VehicleDetailPageProps;
  'mf-leads/EnquiryForm': EnquiryFormProps;
  'mf-leads/EnquireButton': EnquireButtonProps;
  'mf-leads/TestDriveButton': TestDriveButtonProps;
  'mf-leads/RequestPhotosButton': RequestPhotosButtonProps;
  'mf-leads/SuccessPage': SuccessPageProps;
  'mf-leads/LeadFormPage': LeadFormPageProps;
  'mf-checkout/CheckoutPage': CheckoutPageProps;
  'mf-checkout/ReserveButton': ReserveButtonProps;
  'mf-garage/GaragePage': GaragePageProps;
  'mf-garage/FavouriteButton': FavouriteButtonProps;
  'mf-chat/ChatWidget': ChatWidgetProps;
}

/** Fails to compile when a module is exposed without props in ExposedProps, or the other way round. */
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
export const exposedPropsCoverEveryModule: Exactly<ExposedModule, keyof ExposedProps> = true;

/** A module with the props it is rendered with, checked together (e.g. the module that owns a route). */
export type ModuleWithProps = { [M in ExposedModule]: { module: M; props: ExposedProps[M] } }[ExposedModule];

/**
 * Named slots: places in one remote's screen that other remotes fill without either releasing for
 * the other. The owner renders `<NamedSlot name=…>`; each enabled remote lists in its build
 * (`slots` in its rspack config → `dealer-remote.json` beside its manifest) which of its exposed
 * modules fill which slot. The server sends that per site, at the versions the site runs.
 */
export interface SlotProps {
  /** The vehicle page's calls to action after the enquiry buttons (e.g. mf-checkout's Reserve). */
  'vehicle.actions': VehicleActionProps;
}
export const slotNames = ['vehicle.actions'] as const satisfies readonly (keyof SlotProps)[];
export type SlotName = (typeof slotNames)[number];
export const slotsCoverEverySlotProps: Exactly<SlotName, keyof SlotProps> = true;

/** The exposed modules whose props accept a slot's props: the only modules allowed to fill it. */
export type SlotFiller<S extends SlotName> = { [M in ExposedModule]: SlotProps[S] extends ExposedProps[M] ? M : never }[ExposedModule];

/**
 * The dealer console's screens (issue 23), each exposed by the remote that owns its domain, so a
 * team ships its shopper feature and its dealer screen together. The console host loads them with
 * the same runtime and the same per-site versions as the shop.
 */
export const dealerScreens = {
  LeadsInbox: 'mf-leads/LeadsInbox',
  ChatInbox: 'mf-chat/ChatInbox',
  ReservationsList: 'mf-checkout/ReservationsList',
  StockList: 'mf-vehicle/StockList',
} as const;
export type DealerScreen = (typeof dealerScreens)[keyof typeof dealerScreens];

/** The leads inbox of one site: the console API of that site, and what the user's role allows there. */
export type LeadsInboxProps = { apiBase: string; canUpdate: boolean; canExport: boolean };

/** The chat inbox of one site. */
export type ChatInboxProps = { apiBase: string; canReply: boolean };
/** The reservations of one site. */
export type ReservationsListProps = { apiBase: string; canRelease: boolean };

/** The stock of one site: its cars listed, edited and added. */
export type StockListProps = { apiBase: string; canWrite: boolean };

export interface DealerScreenProps {
  'mf-leads/LeadsInbox': LeadsInboxProps;
  'mf-chat/ChatInbox': ChatInboxProps;
  'mf-checkout/ReservationsList': ReservationsListProps;
  'mf-vehicle/StockList': StockListProps;
}
export const dealerScreenPropsCoverEveryScreen: Exactly<DealerScreen, keyof DealerScreenProps> = true;
