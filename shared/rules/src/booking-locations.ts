import type { Location } from '@dealer/contracts/location';
import { positiveId } from './ids';

/** SPEC §7: test drive times come from available_appointment_bookings, service times from available_service_bookings. */
export type BookingKind = 'appointment' | 'service';

type Place = Pick<Location, 'id' | 'dealership_id' | 'visible' | 'location_type' | 'primary'>;

const suits = (kind: BookingKind, location: Place) =>
  location.visible && (kind === 'service' ? location.location_type !== 'parts' : location.location_type === 'sales');

/** The locations (of one dealership, if given) that take this kind of booking, the primary one first. */
export function bookableLocations<L extends Place>(locations: readonly L[], kind: BookingKind, dealershipId?: number): L[] {
  return locations
    .filter((location) => (dealershipId === undefined || location.dealership_id === dealershipId) && suits(kind, location))
    .sort((a, b) => Number(b.primary) - Number(a.primary));
}

/**
 * Where a booking is for: the location the shopper chose (`location`), else the one the lead came
 * with (the car's `location_id`), when it takes that kind of booking; else the site's first that does.
 * The browser asks this location's times; the server books at the same one.
 */
export function bookingLocationFor<L extends Place>(
  locations: readonly L[],
  kind: BookingKind,
  lead: { location?: unknown; location_id?: unknown },
): L | undefined {
  const wanted = positiveId(lead.location) ?? positiveId(lead.location_id);
  return (
    (wanted !== undefined ? locations.find((location) => location.id === wanted && suits(kind, location)) : undefined) ??
    bookableLocations(locations, kind)[0]
  );
}

/** Which booking a lead asks for: service leads book the workshop, test drives the sales team. */
export function bookingKindOf(lead: { category?: unknown; subcategory?: unknown }): BookingKind | null {
  const category = typeof lead.category === 'string' ? lead.category : '';
  const subcategory = typeof lead.subcategory === 'string' ? lead.subcategory : '';
  if (/service/i.test(category)) return 'service';
  if (/test ?drive/i.test(subcategory) || /test ?drive/i.test(category)) return 'appointment';
  return null;
}

/** The SPEC §7 call for a location's times (under the site's api prefix). */
export function bookingTimesPath(
  prefix: string,
  kind: BookingKind,
  location: Pick<Location, 'id' | 'dealership_id'>,
  carId?: number,
): string {
  const car = carId !== undefined && kind === 'appointment' ? `&car_id=${carId}` : '';
  return `${prefix}/dealerships/${location.dealership_id}/available_${kind === 'service' ? 'service' : 'appointment'}_bookings.json?location_id=${location.id}${car}`;
}
