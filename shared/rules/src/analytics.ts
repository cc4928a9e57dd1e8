import type { SiteConfig } from '@dealer/contracts/site';
import { pageViewTypes, type PageViewType } from './enquiry';
import type { RouteMatch } from './routes';

/**
 * Analytics (SPEC §2 page-view types, §3 analytics event, §4 deferred tag groups, §7 data layer,
 * gtag and pixel, §9 ids and timings): what each event becomes for each destination. The shell's
 * sink does the sending; these rules decide the shapes, so they are tested without a browser.
 */

/** SPEC §9: the server-side ad event follows the browser's by this long. */
export const conversionEventDelayMs = 250;
/** SPEC §4/§9: third-party tag groups load after the first interaction, or after this long. */
export const deferredTagDelayMs = 3000;
/** SPEC §4: the interactions that start the deferred tags. */
export const firstInteractionEvents = ['scroll', 'click', 'touchstart', 'keydown'] as const;

const idAlphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** SPEC §9 analytics ids: `device_` or `session_` and 10 random characters. */
export function newAnalyticsId(kind: 'device' | 'session', randomBytes: (count: number) => Uint8Array): string {
  return `${kind}_${Array.from(randomBytes(10), (byte) => idAlphabet[byte % idAlphabet.length]).join('')}`;
}

export const isAnalyticsId = (kind: 'device' | 'session', value: unknown): value is string =>
  typeof value === 'string' && new RegExp(`^${kind}_[a-z0-9]{10}$`).test(value);

/** Content pages by the SPEC §2 page-view type they are (the rest are page views without a type). */
const contentPageTypes: Record<string, PageViewType> = {
  'special-offers': pageViewTypes.specialOffers,
  eofy: pageViewTypes.specialOffers,
  'fleet-service': pageViewTypes.fleet,
  'vehicle-parts-and-accessories': pageViewTypes.parts,
  'parts-and-accessories': pageViewTypes.parts,
  about: pageViewTypes.about,
  'about-us': pageViewTypes.about,
  dealerships: pageViewTypes.contact,
};

const leadFormTypes: Partial<Record<Extract<RouteMatch, { kind: 'lead-form' }>['form'], PageViewType>> = {
  finance: pageViewTypes.finance,
  service: pageViewTypes.service,
  contact: pageViewTypes.contact,
};

/**
 * The SPEC §2 page-view type of a route, 'own' for the vehicle page (its remote knows whether the
 * car is new or used and sends its own page view), null for a page with no SPEC type.
 */
export function pageViewTypeOf(match: RouteMatch): PageViewType | 'own' | null {
  switch (match.kind) {
    case 'home':
      return pageViewTypes.home;
    case 'search':
      return pageViewTypes.inventoryListing;
    case 'vehicle':
      return 'own';
    case 'lead-form':
      return leadFormTypes[match.form] ?? null;
    case 'content':
      return contentPageTypes[match.page] ?? null;
    case 'offer':
      return pageViewTypes.specialOffers;
    default:
      return null;
  }
}

/** Whether a site loads third-party tags at all: it has an id for one, and the shopper has not refused consent. */
export type Consent = 'granted' | 'refused' | 'unasked';

/** A site that asks for consent loads no tag until it is granted; one that does not ask loads them (deferred). */
export function thirdPartyAllowed(site: Pick<SiteConfig, 'consent_banner'>, consent: Consent): boolean {
  return site.consent_banner ? consent === 'granted' : consent !== 'refused';
}

export type TagScript = { group: 'google' | 'facebook'; src: string };

/** The third-party scripts a site's ids call for (SPEC §3 third-party identifiers); none without an id. */
export function tagScriptsFor(site: Pick<SiteConfig, 'third_party'>): TagScript[] {
  const scripts: TagScript[] = [];
  const google = site.third_party.google_analytics_id;
  if (google) {
    const src = google.startsWith('GTM-')
      ? `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(google)}`
      : `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(google)}`;
    scripts.push({ group: 'google', src });
  }
  if (site.third_party.facebook_pixel) scripts.push({ group: 'facebook', src: 'https://connect.facebook.net/en_US/fbevents.js' });
  return scripts;
}

/** Where each group of tags loads from and sends to. */
const tagGroupOrigins: Record<TagScript['group'], { script: string[]; connect: string[]; img: string[] }> = {
  google: {
    script: ['https://www.googletagmanager.com'],
    connect: ['https://www.google-analytics.com', 'https://*.google-analytics.com', 'https://www.googletagmanager.com'],
    img: ['https://www.google-analytics.com', 'https://www.googletagmanager.com'],
  },
  facebook: { script: ['https://connect.facebook.net'], connect: ['https://www.facebook.com'], img: ['https://www.facebook.com'] },
};

/** The origins a site's own tags load from and send to, for its pages' Content-Security-Policy: none without an id. */
export function tagOriginsFor(site: Pick<SiteConfig, 'third_party'>): { script: string[]; connect: string[]; img: string[] } {
  const origins = { script: [] as string[], connect: [] as string[], img: [] as string[] };
  for (const { group } of tagScriptsFor(site)) {
    const own = tagGroupOrigins[group];
    origins.script.push(...own.script);
    origins.connect.push(...own.connect);
    origins.img.push(...own.img);
  }
  return origins;
}

export type TrackedEvent = { eventId: number; label: string; properties?: Record<string, unknown> };

/** The data layer entry of a conversion event (SPEC §7 tag manager data layer). */
export function dataLayerEvent(event: TrackedEvent, eventUid: string): Record<string, unknown> {
  return { event: 'dealer_event', event_id: event.eventId, event_label: event.label, event_uid: eventUid, ...event.properties };
}

/** The data layer entry of a page view, with its SPEC type when it has one. */
export function dataLayerPageView(view: {
  pageType: number | null;
  url: string;
  carSlug?: string;
  carName?: string;
}): Record<string, unknown> {
  return {
    event: 'page_view',
    page_location: view.url,
    ...(view.pageType ? { page_type: view.pageType } : {}),
    ...(view.carSlug ? { car_slug: view.carSlug, car_name: view.carName } : {}),
  };
}

/** SPEC §3 analytics event, as `/api/events` takes it. */
export function eventLogEntry(input: {
  category: string;
  url: string;
  deviceId: string;
  sessionId: string;
  leadId?: number | null;
  errorMessage?: string;
  properties?: Record<string, unknown>;
}): Record<string, unknown> {
  return {
    category: input.category,
    url: input.url,
    anon_id: input.deviceId,
    session_id: input.sessionId,
    ...(input.leadId ? { lead_id: input.leadId } : {}),
    ...(input.errorMessage ? { error_message: input.errorMessage } : {}),
    ...(input.properties ? { event_properties: input.properties } : {}),
  };
}

/** SPEC §2: a car page's page-view type, new or used (the route alone says 'own', pageViewTypeOf). */
export const vehiclePageViewType = (car: { car_type: string }): PageViewType =>
  car.car_type === 'new' ? pageViewTypes.newVehicleDetail : pageViewTypes.usedVehicleDetail;
