import { Link } from 'react-router-dom';
import type { GaragePageProps } from '@dealer/contracts/remote-modules';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { searchPathFor, vehiclePath } from '@dealer/rules/routes';
import { VehicleImage } from '@dealer/ui/vehicle-image';
import { usePageTitle } from '@dealer/ui/page-title';
import { useFavourites } from './favourites';
import FavouriteButton from './favourite-button';

/** The shopper's garage: their saved cars on this site. */
export default function GaragePage({ tab }: GaragePageProps) {
  const site = useAppSelector(selectSite);
  const favourites = useFavourites(site.slug);
  usePageTitle('My garage', site.name);
  return (
    <div className="dp-container garage-page" data-tab={tab ?? ''} data-remote-version={__REMOTE_VERSION__}>
      <h1>My garage</h1>
      <h2>Saved cars</h2>
      {favourites.length === 0 ? (
        <p>
          No saved cars yet. <Link to={searchPathFor(site)}>Browse our stock</Link> and tap Save on the cars you like.
        </p>
      ) : (
        <ul className="garage-page__list">
          {favourites.map((car) => (
            <li key={car.id}>
              <Link to={vehiclePath(site, car.slug)}>
                <VehicleImage path={car.primary_image_url} alt={car.name} width={320} height={240} sizes="160px" widths={[320, 480]} />
                <span>{car.name}</span>
              </Link>
              <FavouriteButton car={car} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
