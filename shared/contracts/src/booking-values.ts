/** One start time a location offers: its local time with offset (what the form sends) and how it reads. */
export type BookingSlot = { start: string; label: string };
export type BookingDay = { date: string; label: string; slots: BookingSlot[] };

/**
 * The answer of `GET {api}/dealerships/{id}/available_appointment_bookings.json` and
 * `available_service_bookings.json` (SPEC §7 shows no shape; this one is ours).
 */
export type BookingTimes = {
  dealership_id: number;
  location_id: number;
  location_name: string;
  kind: 'appointment' | 'service';
  time_zone: string;
  slot_minutes: number;
  days: BookingDay[];
};
