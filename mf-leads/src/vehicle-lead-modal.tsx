import { useState, type ReactNode } from 'react';
import { Form } from 'react-final-form';
import type { VehicleActionProps } from '@dealer/contracts/remote-modules';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { t } from '@dealer/rules/locale';
import { Button } from '@dealer/ui/button';
import { Modal } from '@dealer/ui/modal';
import { FormCard } from '@dealer/ui/form-card';
import EnquiryForm from './enquiry-form';

export type FirstStep = {
  title: string;
  initialValues: Record<string, unknown>;
  validate: (values: Record<string, unknown>) => Record<string, string>;
  fields: ReactNode;
  /** The lead fields the step's values become (default: as they are). */
  toLead?: (values: Record<string, unknown>) => Record<string, unknown>;
};

type Props = VehicleActionProps & {
  buttonText: string;
  modalTitle: string;
  category: string;
  subcategory?: string;
  firstStep?: FirstStep;
};

const vehicleCategory = (carType: string) => (carType === 'used' ? 'Used Vehicle Enquiry' : 'New Vehicle Enquiry');

/**
 * A call to action on the vehicle page: a button opening a modal form about that car. With a
 * first step (test drive time, photos wanted) it is a two-step form; the last step submits.
 */
export function VehicleLeadModal({ car, variant = 'secondary', buttonText, modalTitle, category, subcategory, firstStep }: Props) {
  const site = useAppSelector(selectSite);
  const [open, setOpen] = useState(false);
  const [stepIndex, setStepIndex] = useState(0);
  const [stepValues, setStepValues] = useState<Record<string, unknown>>({});
  const extra = firstStep?.toLead ? firstStep.toLead(stepValues) : stepValues;
  const stepCount = firstStep ? 2 : 1;
  const close = () => {
    setOpen(false);
    setStepIndex(0);
  };
  return (
    <>
      <Button variant={variant} onClick={() => setOpen(true)}>
        {t(site.locale, buttonText)}
      </Button>
      <Modal open={open} onClose={close} title={t(site.locale, modalTitle)}>
        <p className="vehicle-lead-modal__car">{car.name}</p>
        {firstStep && stepIndex === 0 ? (
          <Form
            initialValues={{ ...firstStep.initialValues, ...stepValues }}
            validate={firstStep.validate}
            onSubmit={(values) => {
              setStepValues(values);
              setStepIndex(1);
            }}
          >
            {({ handleSubmit }) => (
              <form onSubmit={handleSubmit} noValidate>
                <FormCard title={firstStep.title} stepIndex={0} stepCount={stepCount}>
                  {firstStep.fields}
                </FormCard>
              </form>
            )}
          </Form>
        ) : (
          <EnquiryForm
            title="Your details"
            carId={car.id}
            carType={car.car_type}
            stockNumber={car.stocknum}
            category={category === 'vehicle' ? vehicleCategory(car.car_type) : category}
            subcategory={subcategory}
            extra={{ ...extra, location_id: car.location_id, dealership_slug: car.dealership_slug, 'Vehicle Make': car.make, 'Vehicle Model': car.model }}
            step={firstStep ? { index: 1, count: stepCount, onBack: () => setStepIndex(0) } : undefined}
            onSubmitted={close}
          />
        )}
      </Modal>
    </>
  );
}
