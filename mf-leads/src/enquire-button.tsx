import type { EnquireButtonProps } from '@dealer/contracts/remote-modules';
import { VehicleLeadModal } from './vehicle-lead-modal';
import { enquiryForm } from './form-engine/form-definitions';

const form = (site: Parameters<typeof enquiryForm>[0]) => enquiryForm(site, { showCategory: false, withLocation: false });

/** SPEC §2: the enquiry modal, default title 'Submit an enquiry', with the car's context. */
export default function EnquireButton(props: EnquireButtonProps) {
  return <VehicleLeadModal {...props} buttonText="Enquire now" modalTitle={props.title ?? 'Submit an enquiry'} form={form} />;
}
