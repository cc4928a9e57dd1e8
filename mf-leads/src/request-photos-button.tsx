import type { RequestPhotosButtonProps } from '@dealer/contracts/remote-modules';
import { VehicleLeadModal } from './vehicle-lead-modal';

/** SPEC §2 Request Photos modal (multi-step). */
export default function RequestPhotosButton(props: RequestPhotosButtonProps) {
  return <VehicleLeadModal {...props} buttonText="Request photos" modalTitle="Request Photos" kind="request-photos" />;
}
