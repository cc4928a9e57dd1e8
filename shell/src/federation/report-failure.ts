import { dispatchPlatformEvent } from '@dealer/events/bus';
import type { RemoteName } from '@dealer/contracts/remote-modules';
import { sendToEventLog } from '../analytics/event-log';

/** Every remote failure goes to the platform's event log and the event bus; it never blanks the page. */
export function reportRemoteFailure(remote: RemoteName, module: string, error: unknown) {
  const message = error instanceof Error ? error.message : String(error);
  dispatchPlatformEvent('remote:failed', { remote, module, message });
  sendToEventLog({ category: 'remote_load_failed', url: location.href, error_message: `${module}: ${message}`.slice(0, 500) });
}
