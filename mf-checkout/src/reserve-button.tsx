import { Link } from 'react-router-dom';
import type { ReserveButtonProps } from '@dealer/contracts/remote-modules';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { checkoutPath } from '@dealer/rules/routes';

/**
 * The vehicle page's Reserve call to action. The vehicle remote only places it when SPEC §9's
 * reserve rules hold; checkout owns where it leads.
 */
export default function ReserveButton({ car, variant = 'secondary' }: ReserveButtonProps) {
  const site = useAppSelector(selectSite);
  return (
    <Link className={`dp-button dp-button--${variant}`} to={checkoutPath(site, car.slug)} data-remote-version={__REMOTE_VERSION__}>
      Reserve this car
    </Link>
  );
}
