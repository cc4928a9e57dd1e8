import { useMemo } from 'react';
import type { VehicleActionProps } from '@dealer/contracts/remote-modules';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { LeadForm } from './form-engine/lead-form';
import { enquiryForm, requestPhotosForm, testDriveForm } from './form-engine/form-definitions';

export type VehicleFormKind = 'enquiry' | 'test-drive' | 'request-photos';

const vehicleCategory = (carType: string) => (carType === 'used' ? 'Used Vehicle Enquiry' : 'New Vehicle Enquiry');

/**
 * The form inside a vehicle page's modal, loaded only when a shopper opens it: the form engine
 * stays out of the car page's first download.
 */
export default function VehicleLeadForm({
  car,
  kind,
  onSubmitted,
}: {
  car: VehicleActionProps['car'];
  kind: VehicleFormKind;
  onSubmitted: () => void;
}) {
  const site = useAppSelector(selectSite);
  const def = useMemo(() => {
    const base =
      kind === 'test-drive'
        ? testDriveForm(site, { hasCar: true })
        : kind === 'request-photos'
          ? requestPhotosForm(site)
          : enquiryForm(site, { showCategory: false, withLocation: false });
    return { ...base, category: vehicleCategory(car.car_type) };
  }, [kind, site, car.car_type]);
  const context = {
    car_id: car.id,
    car_type: car.car_type,
    stock_number: car.stocknum,
    location_id: car.location_id,
    dealership_slug: car.dealership_slug,
    'Vehicle Make': car.make,
    'Vehicle Model': car.model,
    vehicle_status: 'in_stock',
  };
  return <LeadForm def={def} context={context} carType={car.car_type} car={car} onSubmitted={onSubmitted} />;
}
