import { lazy, Suspense, useState } from 'react';
import type { VehicleActionProps } from '@dealer/contracts/remote-modules';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { t } from '@dealer/rules/locale';
import { Button } from '@dealer/ui/button';
import { Modal } from '@dealer/ui/modal';
import { Spinner } from '@dealer/ui/spinner';
import type { VehicleFormKind } from './vehicle-lead-form';

type Props = VehicleActionProps & {
  buttonText: string;
  modalTitle: string;
  kind: VehicleFormKind;
};

const loadForm = () => import('./vehicle-lead-form');
const VehicleLeadForm = lazy(loadForm);

/**
 * A call to action on the vehicle page: a button opening a modal form about that car. The form
 * engine loads when the shopper reaches for the button (hover, focus or touch) or opens it.
 */
export function VehicleLeadModal({ car, variant = 'secondary', buttonText, modalTitle, kind }: Props) {
  const site = useAppSelector(selectSite);
  const [open, setOpen] = useState(false);
  const prefetch = () => void loadForm();
  return (
    <>
      <span className="vehicle-lead-modal__trigger" onPointerEnter={prefetch} onFocus={prefetch} onTouchStart={prefetch}>
        <Button variant={variant} onClick={() => setOpen(true)}>
          {t(site.locale, buttonText)}
        </Button>
      </span>
      <Modal open={open} onClose={() => setOpen(false)} title={t(site.locale, modalTitle)}>
        <p className="vehicle-lead-modal__car">{car.name}</p>
        {open && (
          <Suspense fallback={<Spinner plain label="Loading the form" />}>
            <VehicleLeadForm car={car} kind={kind} onSubmitted={() => setOpen(false)} />
          </Suspense>
        )}
      </Modal>
    </>
  );
}
