import { useMemo } from 'react';
import type { EnquiryFormProps } from '@dealer/contracts/remote-modules';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { LeadForm } from './form-engine/lead-form';
import { enquiryForm } from './form-engine/form-definitions';

type Props = EnquiryFormProps & { category?: string; showCategory?: boolean };

/** The enquiry form (SPEC §4, §5) on the form engine; on a car page it carries the car. */
export default function EnquiryForm({
  carId,
  carType,
  stockNumber,
  title = 'Submit an enquiry',
  category,
  showCategory = !carId,
  onSubmitted,
}: Props) {
  const site = useAppSelector(selectSite);
  const def = useMemo(() => {
    const form = enquiryForm(site, { showCategory: showCategory && !category, category, withLocation: !carId });
    return { ...form, title, steps: form.steps.map((step) => ({ ...step, heading: title })) };
  }, [site, showCategory, category, title, carId]);
  const context = carId ? { car_id: carId, car_type: carType, stock_number: stockNumber } : undefined;
  return <LeadForm def={def} context={context} carType={carType} onSubmitted={onSubmitted} />;
}
