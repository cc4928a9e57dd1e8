import type { TestDriveButtonProps } from '@dealer/contracts/remote-modules';
import { VehicleLeadModal } from './vehicle-lead-modal';

/** SPEC §2 Book a Test Drive modal (multi-step). */
export default function TestDriveButton(props: TestDriveButtonProps) {
  return <VehicleLeadModal {...props} buttonText="Book a test drive" modalTitle="Book a Test Drive" kind="test-drive" />;
}
