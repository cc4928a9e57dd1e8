import { useMemo, useState } from 'react';
import type { VehicleActionProps } from '@dealer/contracts/remote-modules';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { t } from '@dealer/rules/locale';
import { Button } from '@dealer/ui/button';
import { Modal } from '@dealer/ui/modal';
import { LeadForm } from './form-engine/lead-form';
import type { FormDef } from './form-engine/field-types';

type Props = VehicleActionProps & {
  buttonText: string;
  modalTitle: string;
  form: (site: PublicSiteConfig) => FormDef;
};

const vehicleCategory = (carType: string) => (carType === 'used' ? 'Used Vehicle Enquiry' : 'New Vehicle Enquiry');

/** A call to action on the vehicle page: a button opening a modal form about that car. */
export function VehicleLeadModal({ car, variant = 'secondary', buttonText, modalTitle, form }: Props) {
  const site = useAppSelector(selectSite);
  const [open, setOpen] = useState(false);
  const def = useMemo(() => ({ ...form(site), category: vehicleCategory(car.car_type) }), [form, site, car.car_type]);
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
  return (
    <>
      <Button variant={variant} onClick={() => setOpen(true)}>
        {t(site.locale, buttonText)}
      </Button>
      <Modal open={open} onClose={() => setOpen(false)} title={t(site.locale, modalTitle)}>
        <p className="vehicle-lead-modal__car">{car.name}</p>
        <LeadForm def={def} context={context} carType={car.car_type} onSubmitted={() => setOpen(false)} />
      </Modal>
    </>
  );
}
