import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportRemoteFailure } from './report-failure';

const page = 'http://metro-motor-group.localhost:3000/cars/x';
const expected = { category: 'remote_load_failed', url: page, error_message: 'VehiclePage: chunk failed' };

/** A browser just enough for the report: the event bus's window, the page address, beacons and fetch. */
function stubBrowser(sendBeacon?: (url: string, data: string) => boolean) {
  const fetch = vi.fn(async (_url: string, _init: RequestInit) => new Response(null, { status: 202 }));
  vi.stubGlobal('window', new EventTarget());
  vi.stubGlobal('location', { href: page });
  vi.stubGlobal('navigator', sendBeacon ? { sendBeacon } : {});
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('reporting a remote that failed to load', () => {
  it('sends the event by beacon, its JSON as a string (the text/plain /api/events reads from the site’s pages)', () => {
    const sendBeacon = vi.fn((_url: string, _data: string) => true);
    const fetch = stubBrowser(sendBeacon);
    reportRemoteFailure('mf-vehicle', 'VehiclePage', new Error('chunk failed'));
    expect(sendBeacon).toHaveBeenCalledTimes(1);
    const [url, body] = sendBeacon.mock.calls[0]!;
    expect(url).toBe('/api/events');
    expect(JSON.parse(body)).toEqual(expected);
    expect(fetch).not.toHaveBeenCalled();
  });

  it.each<[string, ((url: string, data: string) => boolean) | undefined]>([
    [
      'throws on the beacon',
      () => {
        throw new DOMException('sendBeacon() is not allowed here', 'SecurityError');
      },
    ],
    ['will not queue the beacon', () => false],
    ['has no sendBeacon', undefined],
  ])('fetches the event as JSON when the browser %s', (_case, sendBeacon) => {
    const fetch = stubBrowser(sendBeacon);
    expect(() => reportRemoteFailure('mf-vehicle', 'VehiclePage', new Error('chunk failed'))).not.toThrow();
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/events');
    expect(init).toMatchObject({ method: 'POST', headers: { 'Content-Type': 'application/json' }, keepalive: true });
    expect(JSON.parse(init.body as string)).toEqual(expected);
  });
});
