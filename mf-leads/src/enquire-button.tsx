import type { EnquireButtonProps } from '@dealer/contracts/remote-modules';
import { VehicleLeadModal } from './vehicle-lead-modal';

/** SPEC §2: the enquiry modal, default title 'Submit an enquiry', with the car's context. */
export default function EnquireButton(props: EnquireButtonProps) {
  return <VehicleLeadModal {...props} buttonText="Enquire now" modalTitle={props.title ?? 'Submit an enquiry'} kind="enquiry" />;
}
