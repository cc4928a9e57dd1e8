import { useEffect, useState } from 'react';
import { useField } from 'react-final-form';
import { skipToken } from '@reduxjs/toolkit/query';
import type { Location } from '@dealer/contracts/location';
import type { BookingKind } from '@dealer/rules/booking-locations';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { bookingTimesArgs, useBookingTimesQuery } from '../booking-times-api';
import { FieldError, fieldId, useInvalid } from './field-error';
import type { FieldDef } from './field-types';

/**
 * A test drive or service time picked from the times the location has free (SPEC §7
 * available_appointment_bookings / available_service_bookings): a day, then a time. A test drive
 * of one car leaves out the times that car is already out. The value is
 * the slot's start in the location's local time with its offset, as the server books it.
 */
export function BookingTimeField({
  field,
  kind,
  location,
  carId,
}: {
  field: FieldDef;
  kind: BookingKind;
  location: Location | undefined;
  carId?: number;
}) {
  const site = useAppSelector(selectSite);
  const { input, meta } = useField<string>(field.name, { subscription: { value: true, submitError: true, dirtySinceLastSubmit: true } });
  const times = useBookingTimesQuery(location ? bookingTimesArgs(site.api_prefix, kind, location, carId) : skipToken);
  const [day, setDay] = useState<string | null>(null);
  const invalid = useInvalid(field.name);
  const id = fieldId(field.name);
  const days = times.data?.days ?? [];
  const chosen = days.flatMap((d) => d.slots.map((slot) => ({ ...slot, day: d }))).find((slot) => slot.start === input.value);
  const shownDay = days.find((d) => d.date === day) ?? chosen?.day ?? days[0];

  // The server said the time was just taken (409): show the times as they are now.
  const { refetch } = times;
  const taken = Boolean(meta.submitError) && !meta.dirtySinceLastSubmit;
  useEffect(() => {
    if (taken && location) void refetch();
  }, [taken, location, refetch]);

  // A time no longer offered (another location chosen, or taken) is not kept silently.
  const { onChange } = input;
  useEffect(() => {
    if (times.isSuccess && !times.isFetching && input.value && !chosen && !taken) onChange(undefined);
  }, [times.isSuccess, times.isFetching, input.value, chosen, taken, onChange]);

  const phone = location?.contact_detail.phone;
  return (
    <fieldset
      className={`dp-field dp-booking-times${invalid ? ' dp-field--invalid' : ''}`}
      aria-describedby={`${id}-error`}
      data-booking-kind={kind}
    >
      <legend>{field.label}</legend>
      {location && <span className="dp-field__help">{`${kind === 'service' ? 'Drop-off at' : 'At'} ${location.name}`}</span>}
      {!location && <p>{phone ? `Please call us on ${phone} to choose a time.` : 'Tell us when suits you in the comments.'}</p>}
      {location && times.isLoading && (
        <p role="status" className="dp-booking-times__status">
          Loading available times…
        </p>
      )}
      {location && times.isError && (
        <div className="dp-booking-times__status">
          <p>We couldn’t load the available times.</p>
          <button type="button" className="dp-button dp-button--secondary" onClick={() => void refetch()}>
            Try again
          </button>
        </div>
      )}
      {location && times.isSuccess && days.length === 0 && (
        <p className="dp-booking-times__status">{`No times are free online at ${location.name} at the moment.${phone ? ` Please call ${phone}, or` : ' Please'} tell us when suits you in the comments.`}</p>
      )}
      {shownDay && (
        <>
          <div className="dp-booking-times__days" role="radiogroup" aria-label="Day">
            {days.map((d) => (
              <label key={d.date} className={`dp-chip${d.date === shownDay.date ? ' dp-chip--on' : ''}`}>
                <input
                  type="radio"
                  name={`${field.name}-day`}
                  value={d.date}
                  checked={d.date === shownDay.date}
                  onChange={() => setDay(d.date)}
                />
                {d.label}
              </label>
            ))}
          </div>
          <div className="dp-booking-times__slots" role="radiogroup" aria-label={`Times on ${shownDay.label}`}>
            {shownDay.slots.map((slot) => (
              <label key={slot.start} className={`dp-chip${slot.start === input.value ? ' dp-chip--on' : ''}`}>
                <input
                  type="radio"
                  name={field.name}
                  value={slot.start}
                  checked={slot.start === input.value}
                  onChange={() => input.onChange(slot.start)}
                />
                {slot.label}
              </label>
            ))}
          </div>
          {chosen && (
            <p className="dp-booking-times__chosen" aria-live="polite">
              {`${chosen.day.label} at ${chosen.label}`}{' '}
              {field.optional && (
                <button type="button" className="dp-button dp-button--link" onClick={() => input.onChange(undefined)}>
                  Clear
                </button>
              )}
            </p>
          )}
        </>
      )}
      <FieldError name={field.name} />
    </fieldset>
  );
}
