// No React: used by the analytics sink and the remote loader's failure reports.

/**
 * Sends one event to the platform's own log (`POST /api/events`), surviving the page being left: a
 * beacon of its JSON as a string (sent as text/plain, which the platform reads from the site's own
 * pages), or, when the browser will not queue that, a keepalive fetch of it as JSON. Not a Blob of
 * JSON: the Blob and the beacon sending it each made the page's main thread wait on the browser
 * process (3–20 ms at 1× CPU against under 1 ms for a string, issue 25), and Chromium before 81
 * refused such a beacon outright.
 */
export function sendToEventLog(entry: Record<string, unknown>) {
  const body = JSON.stringify(entry);
  try {
    if (navigator.sendBeacon?.('/api/events', body)) return;
  } catch {
    // A browser that refuses the beacon: the event is fetched instead.
  }
  void fetch('/api/events', { method: 'POST', body, headers: { 'Content-Type': 'application/json' }, keepalive: true }).catch(
    () => undefined,
  );
}
