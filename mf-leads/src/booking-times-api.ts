import { useEffect } from 'react';
import { platformApi } from '@dealer/state/platform-api';
import type { BookingTimes } from '@dealer/contracts/booking-values';
import { bookingTimesPath, type BookingKind } from '@dealer/rules/booking-locations';

export type BookingTimesArgs = {
  prefix: '/api' | '/mock';
  kind: BookingKind;
  location: { id: number; dealership_id: number };
  carId?: number;
};

/** SPEC §7 "Test drive times" / "Service times" for one location, never cached for long: seats go. */
export const bookingTimesApi = platformApi.injectEndpoints({
  endpoints: (build) => ({
    bookingTimes: build.query<BookingTimes, BookingTimesArgs>({
      // The path carries its own prefix (/api or /mock), so it is made absolute past the slice's base URL.
      query: ({ prefix, kind, location, carId }) => `${window.location.origin}${bookingTimesPath(prefix, kind, location, carId)}`,
      keepUnusedDataFor: 30,
    }),
  }),
});

export const { useBookingTimesQuery } = bookingTimesApi;

/** The times query of a booking field at a location: one key, whether the field asks or the step before it. */
export const bookingTimesArgs = (
  prefix: BookingTimesArgs['prefix'],
  kind: BookingKind,
  location: BookingTimesArgs['location'],
  carId: number | undefined,
): BookingTimesArgs => ({ prefix, kind, location: { id: location.id, dealership_id: location.dealership_id }, carId });

/**
 * Asks for the free times a later step will show, so they are in the store when it opens (nothing is
 * drawn). Kept like any answer: a step opened within 30 s uses them, and a time taken meanwhile is still
 * refused by the server when booked.
 */
export function BookingTimesAhead({ args }: { args: BookingTimesArgs[] }) {
  const prefetch = bookingTimesApi.usePrefetch('bookingTimes');
  const key = JSON.stringify(args);
  useEffect(() => {
    for (const each of JSON.parse(key) as BookingTimesArgs[]) prefetch(each, { ifOlderThan: 20 });
  }, [key, prefetch]);
  return null;
}
