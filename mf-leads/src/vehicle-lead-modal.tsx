import { lazy, Suspense, useState } from 'react';
import type { VehicleActionProps } from '@dealer/contracts/remote-modules';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { t } from '@dealer/rules/locale';
import { Button } from '@dealer/ui/button';
import { Modal } from '@dealer/ui/modal';
import { Spinner } from '@dealer/ui/spinner';
import { pressedEarlyWithin } from '@dealer/ui/pressed-early';
import type { VehicleFormKind } from './vehicle-lead-form';

type Props = VehicleActionProps & {
  buttonText: string;
  modalTitle: string;
  kind: VehicleFormKind;
};

const loadForm = () => import('./vehicle-lead-form');
const VehicleLeadForm = lazy(loadForm);

/** The class of the span around the button: its reach (hover, focus, touch) fetches the form. */
const triggerClass = 'vehicle-lead-modal__trigger';

// A shopper who pressed one of these buttons before the page's app ran (the shell keeps the press
// and hands it over once the button is hydrated) gets the form fetched as this module arrives,
// beside the rest of the page's hydration: the touch that would have fetched it came before React
// listened, so the form was fetched only once the press was handed over (~100 ms later at 4× CPU).
if (pressedEarlyWithin(`.${triggerClass}`)) void loadForm();

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
      <span className={triggerClass} onPointerEnter={prefetch} onFocus={prefetch} onTouchStart={prefetch}>
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
