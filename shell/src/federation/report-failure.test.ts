import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportRemoteFailure } from './report-failure';

const page = 'http://metro-motor-group.localhost:3000/cars/x';
const expected = { category: 'remote_load_failed', url: page, error_message: 'VehiclePage: chunk failed' };

/** A browser just enough for the report: the event bus's window, the page address, beacons and fetch. */
function stubBrowser(sendBeacon?: (url: string, data: Blob) => boolean) {
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
  it('sends the event by beacon as JSON, the only type /api/events takes', async () => {
    const sendBeacon = vi.fn((_url: string, _data: Blob) => true);
    const fetch = stubBrowser(sendBeacon);
    reportRemoteFailure('mf-vehicle', 'VehiclePage', new Error('chunk failed'));
    expect(sendBeacon).toHaveBeenCalledTimes(1);
    const [url, blob] = sendBeacon.mock.calls[0]!;
    expect(url).toBe('/api/events');
    expect(blob.type).toBe('application/json');
    expect(JSON.parse(await blob.text())).toEqual(expected);
    expect(fetch).not.toHaveBeenCalled();
  });

  it.each<[string, ((url: string, data: Blob) => boolean) | undefined]>([
    [
      'throws on a JSON beacon (Chromium before 81)',
      () => {
        throw new DOMException('sendBeacon() with a Blob whose type is not CORS-safelisted is disallowed', 'SecurityError');
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
