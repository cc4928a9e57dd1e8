import type { ContentBlock } from '@dealer/contracts/content';
import type { Location } from '@dealer/contracts/location';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { hoursByDays } from '@dealer/rules/opening-hours';

/**
 * A list longer than this shows each location's hours folded (one tap away): a group's 25 locations
 * were 25 tables of a week each on a phone's home page, half of its elements; folded, the browser
 * neither styles nor lays them out until a shopper opens one, and the list is a tenth as long.
 */
export const hoursFoldedOver = 3;

function LocationCard({ location, showHours, folded }: { location: Location; showHours: boolean; folded: boolean }) {
  const hours = (
    <table className="location-card__hours">
      <caption className="dp-visually-hidden">{`Opening hours of ${location.name}`}</caption>
      <tbody>
        {hoursByDays(location.contact_detail.opening_hours).map((line) => (
          <tr key={line.days}>
            <th scope="row">{line.days}</th>
            <td>{line.hours}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <li className="location-card">
      <h2>{location.name}</h2>
      <p>{location.address.full}</p>
      <p>
        <a href={`tel:${location.contact_detail.phone.replace(/\s+/g, '')}`}>{location.contact_detail.phone}</a>
      </p>
      {showHours &&
        (folded ? (
          <details className="location-card__fold">
            <summary>Opening hours</summary>
            {hours}
          </details>
        ) : (
          hours
        ))}
    </li>
  );
}

/** The site's shown locations (those of `ids`, or all) with their addresses and phone numbers, and their hours if wanted. */
export function LocationList({ ids, showHours = true }: { ids?: readonly number[]; showHours?: boolean }) {
  const site = useAppSelector(selectSite);
  const chosen = ids && ids.length > 0 ? new Set(ids) : null;
  const shown = site.locations.filter((location) => location.visible && (!chosen || chosen.has(location.id)));
  const folded = shown.length > hoursFoldedOver;
  return (
    <ul className="location-list">
      {shown.map((location) => (
        <LocationCard key={location.id} location={location} showHours={showHours} folded={folded} />
      ))}
    </ul>
  );
}

export function LocationsBlock({ block }: { block: Extract<ContentBlock, { type: 'locations' }> }) {
  return <LocationList ids={block.location_ids} showHours={block.show_hours} />;
}
