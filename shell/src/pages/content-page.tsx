import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { usePageTitle } from '@dealer/ui/page-title';
import type { Location } from '@dealer/contracts/location';
import { contentPageTitle } from '@dealer/rules/content-pages';

function LocationCard({ location }: { location: Location }) {
  return (
    <li className="location-card">
      <h2>{location.name}</h2>
      <p>{location.address.full}</p>
      <p>
        <a href={`tel:${location.contact_detail.phone.replace(/\s+/g, '')}`}>{location.contact_detail.phone}</a>
      </p>
      <table className="location-card__hours">
        <caption className="dp-visually-hidden">{`Opening hours of ${location.name}`}</caption>
        <tbody>
          {location.contact_detail.opening_hours.map((entry) => (
            <tr key={entry.weekday}>
              <th scope="row">{['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][entry.weekday]}</th>
              <td>{entry.status === 'Open' ? entry.formated_hours : 'Closed'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </li>
  );
}

/** Pages no remote owns yet, rendered from the site's own data. */
export function ContentPage({ page }: { page: string }) {
  const site = useAppSelector(selectSite);
  const title = contentPageTitle(page);
  usePageTitle(title, site.name);
  const showsLocations = ['dealerships', 'our-locations', 'contact'].includes(page);
  return (
    <div className="dp-container content-page" data-page={page}>
      <h1>{title}</h1>
      {showsLocations ? (
        <ul className="location-list">
          {site.locations
            .filter((location) => location.visible)
            .map((location) => (
              <LocationCard key={location.id} location={location} />
            ))}
        </ul>
      ) : (
        <p>{`${site.name} · ${site.address.city}, ${site.address.state}. Call us on ${site.phone}.`}</p>
      )}
    </div>
  );
}
