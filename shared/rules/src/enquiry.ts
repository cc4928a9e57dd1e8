import type { Car } from '@dealer/contracts/car';
import { isTestDriveOnly } from './tags';

/** SPEC §9 conversion event ids. */
export const eventIds = {
  newVehicle: 14,
  usedVehicle: 15,
  newTestDrive: 17,
  usedTestDrive: 48,
  general: 22,
  favouriteAdded: 39,
  careers: 51,
  stepTracking: 32,
  phoneClick: 25,
  mapsClick: 41,
  financeRedirectClick: 58,
  /**
   * A shopper's chat message (SPEC §9 lists webchat among the codes 1 to 61 without its number):
   * 59, the next code after the last one the SPEC names.
   */
  webchatMessage: 59,
} as const;

/** SPEC §2 page-view analytics types, numbered 1 to 13 in the SPEC's order. */
export const pageViewTypes = {
  home: 1,
  inventoryListing: 2,
  newVehicleDetail: 3,
  usedVehicleDetail: 4,
  specialOffers: 5,
  fleet: 6,
  service: 7,
  parts: 8,
  finance: 9,
  insurance: 10,
  ownershipInfo: 11,
  contact: 12,
  about: 13,
} as const;
export type PageViewType = (typeof pageViewTypes)[keyof typeof pageViewTypes];

/** SPEC §5: General Enquiry is the enquiry form's default category. */
export const defaultEnquiryCategory = 'General Enquiry';

const toSlug = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/**
 * The /success?category= value (SPEC §4). A car_type outranks the lead category because the
 * success page and ad conversions are split by vehicle type. Demo is matched before the
 * fallback so only new and unknown types become new-vehicle-enquiry; a blank lead category is
 * treated as the form's default.
 */
export function successCategory(leadCategory: string, carType?: string | null): string {
  const type = carType?.trim().toLowerCase();
  if (type) {
    if (type === 'demo') return 'demo-vehicle-enquiry';
    if (type === 'used') return 'used-vehicle-enquiry';
    return 'new-vehicle-enquiry';
  }
  return toSlug(leadCategory) || toSlug(defaultEnquiryCategory);
}

/**
 * SPEC §4: the lead service has no careers category, so a stored Careers Enquiry is sent as a
 * general enquiry and keeps its meaning in the subcategory.
 */
export function normaliseStoredCategory(category: string): { category: string; subcategory?: string } {
  return category === 'Careers Enquiry' ? { category: defaultEnquiryCategory, subcategory: 'Career Enquiry' } : { category };
}

export type ConversionInput = {
  /** The lead category as the form holds it (before or after normaliseStoredCategory). */
  category: string;
  subcategory?: string | null;
  /** The enquired car, when there is one. */
  car?: Pick<Car, 'car_type' | 'tag'> | null;
  /** The form books a test drive. */
  testDrive?: boolean;
  /** A form's own conversion event, which SPEC §4 lets replace the default. */
  customEventId?: number | null;
};

/**
 * Which conversion event a successful final submit fires (SPEC §4/§9). Order: a form's custom
 * id, careers, test drives, vehicle enquiries, then general (22). A Test Drive Only car is
 * only bookable, so any lead on it counts as a test drive (17) even when the car is used.
 * Demo cars are sold as near-new, so they count with new ones (14 and 17).
 */
export function conversionEventId(input: ConversionInput): number {
  if (input.customEventId != null) return input.customEventId;
  if (input.category === 'Careers Enquiry' || input.subcategory === 'Career Enquiry') return eventIds.careers;

  const car = input.car ?? null;
  if (car && isTestDriveOnly(car)) return eventIds.newTestDrive;
  const used = car ? car.car_type === 'used' : input.category === 'Used Vehicle Enquiry';
  if (input.testDrive) return used ? eventIds.usedTestDrive : eventIds.newTestDrive;
  if (car || input.category === 'New Vehicle Enquiry' || input.category === 'Used Vehicle Enquiry') {
    return used ? eventIds.usedVehicle : eventIds.newVehicle;
  }
  return eventIds.general;
}

/** SPEC §9: step-tracking events (32) carry the form's label plus the step shown as 'Step X of Y'. */
export function stepTrackingLabel(label: string, stepNumber: number): string {
  return `${label} - Step ${stepNumber}`;
}
