import { dispatchPlatformEvent } from '@dealer/events/bus';
import type { RemoteName } from '@dealer/contracts/remote-modules';

/** Queues the event as JSON (all the server takes); false when the browser will not, so it is fetched instead. */
function beacon(body: string): boolean {
  try {
    return navigator.sendBeacon?.('/api/events', new Blob([body], { type: 'application/json' })) ?? false;
  } catch {
    // Chromium before 81 throws on a beacon whose Blob is JSON.
    return false;
  }
}

/** Every remote failure goes to the platform's event log and the event bus; it never blanks the page. */
export function reportRemoteFailure(remote: RemoteName, module: string, error: unknown) {
  const message = error instanceof Error ? error.message : String(error);
  dispatchPlatformEvent('remote:failed', { remote, module, message });
  const body = JSON.stringify({ category: 'remote_load_failed', url: location.href, error_message: `${module}: ${message}`.slice(0, 500) });
  if (!beacon(body)) {
    void fetch('/api/events', { method: 'POST', body, headers: { 'Content-Type': 'application/json' }, keepalive: true }).catch(
      () => undefined,
    );
  }
}
