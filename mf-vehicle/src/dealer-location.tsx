import { useState } from 'react';
import type { Location } from '@dealer/contracts/location';
import { eventIds } from '@dealer/rules/enquiry';
import { dispatchPlatformEvent } from '@dealer/events/bus';

const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Where the car is: address, phone (event 25), map (event 41), hours with today marked, licence. */
export function DealerLocation({ location, carName }: { location: Location; carName: string }) {
  const [today] = useState(() => new Date().getDay());
  const phone = location.contact_detail.phone;
  const mapUrl = location.address.map_url ?? `https://maps.google.com/?q=${encodeURIComponent(location.address.full)}`;
  return (
    <section className="dealer-location" aria-labelledby="dealer-location-title">
      <h2 id="dealer-location-title">{location.name}</h2>
      <address>{location.address.full}</address>
      <p className="dealer-location__links">
        <a
          href={`tel:${phone.replace(/[^\d+]/g, '')}`}
          onClick={() => dispatchPlatformEvent('analytics:track', { eventId: eventIds.phoneClick, label: carName })}
        >
          {phone}
        </a>
        <a
          href={mapUrl}
          target="_blank"
          rel="noopener noreferrer"
          onClick={() => dispatchPlatformEvent('analytics:track', { eventId: eventIds.mapsClick, label: carName })}
        >
          Get directions
        </a>
      </p>
      <table className="dealer-location__hours">
        <caption>Opening hours</caption>
        <tbody>
          {location.contact_detail.opening_hours.map((entry) => (
            <tr
              key={entry.weekday}
              className={entry.weekday === today ? 'is-today' : undefined}
              aria-current={entry.weekday === today ? 'date' : undefined}
            >
              <th scope="row">{`${weekdays[entry.weekday]}${entry.weekday === today ? ' (today)' : ''}`}</th>
              <td>{entry.status === 'Open' ? entry.formated_hours : 'Closed'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {location.dealer_license_number && <p className="dealer-location__licence">{`Dealer licence ${location.dealer_license_number}`}</p>}
    </section>
  );
}
