import { Link } from 'react-router-dom';
import type { ReserveButtonProps } from '@dealer/contracts/remote-modules';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { checkoutPath } from '@dealer/rules/routes';
import { canReserve, reserveOptionsFor } from '@dealer/rules/reserve';
import { isTestDriveOnly } from '@dealer/rules/tags';

/**
 * Reserve, in the vehicle page's `vehicle.actions` slot: shown only when SPEC §9's reserve rules
 * hold for this car on this site (a test-drive-only car is not reserved online). The vehicle remote
 * knows nothing of reserving; checkout decides here and owns where it leads.
 */
export default function ReserveButton({ car, variant = 'secondary' }: ReserveButtonProps) {
  const site = useAppSelector(selectSite);
  const { status, sold, reserved, reservable, payment_processors, has_checkout_payment_processor } = car;
  // A vehicle remote before 1.4.0 sends no car state, and places this button itself only where
  // the reserve rules hold: then there is nothing to decide here.
  const placedByOlderVehicle =
    status === undefined ||
    sold === undefined ||
    reserved === undefined ||
    payment_processors === undefined ||
    has_checkout_payment_processor === undefined;
  if (!placedByOlderVehicle) {
    const state = {
      price: car.price,
      status,
      sold,
      reserved,
      reservable: reservable ?? null,
      payment_processors,
      has_checkout_payment_processor,
    };
    if (isTestDriveOnly(car) || !canReserve(state, reserveOptionsFor(site)).ok) return null;
  }
  return (
    <Link className={`dp-button dp-button--${variant}`} to={checkoutPath(site, car.slug)} data-remote-version={__REMOTE_VERSION__}>
      Reserve this car
    </Link>
  );
}
